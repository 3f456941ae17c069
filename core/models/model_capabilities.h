#pragma once
/// What a model offers beyond its prior and per-point log-likelihood ratios, which every model
/// has. Methods, proposals and control variates name the capabilities they need; a run whose
/// model lacks one is refused from one place (core/experiment/settings/capability_check.h)
/// with the capability's name and the model's reason, never by asking which dataset it is.
#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <vector>

namespace core {

enum class ModelCapability : std::uint8_t {
    /// ∇θ log p(x_i | θ) per point and ∇θ log p0(θ): Langevin, HMC and Crank–Nicolson proposals,
    /// the posterior mode that control variates expand around.
    Gradient,
    /// First- and second-order Taylor proxies of each point's log-likelihood around a mode,
    /// whose sums over all N points cost O(1) per iteration: the control variates of Bardenet,
    /// Doucet & Holmes ("On MCMC methods for tall data", 2017, Sec. 7.2) and Cornish et al.
    /// ("Scalable Metropolis–Hastings", 2019, Sec. 3.2).
    TaylorProxies,
    /// A bound, uniform in θ, on each point's Taylor remainder: SMH's factor bounds (Cornish et
    /// al. 2019, Sec. 3.2, Eq. 3.6) and MHSubLhd's residual range with control variates.
    TaylorRemainderBound,
    /// Per-point constants c_i with |l_i(θ, θ')| ≤ c_i ‖θ' − θ‖: TunaMH's Poisson minibatch
    /// (Zhang, Cooper & De Sa, "Asymptotically Optimal Exact Minibatch Metropolis–Hastings",
    /// 2020, Sec. 4).
    PointLipschitz,
    /// A lower bound 0 < B_i(θ) ≤ p(x_i | θ) whose product over all points collapses to O(1)
    /// work per θ: FlyMC's dark points (Maclaurin & Adams, "Firefly Monte Carlo", 2014, Sec. 3.1).
    CollapsibleLowerBound,
    /// A Laplace approximation of the tempered posterior: the laplace-* proposals.
    LaplaceFit,
    /// A bound on max_i |r_i(θ, θ')| for each move from the Taylor remainder, without a pass over
    /// the data: MHSubLhd's range with control variates (Bardenet, Doucet & Holmes 2017, the
    /// improved confidence sampler). A uniform remainder bound (TaylorRemainderBound) gives one;
    /// a model whose derivatives grow with θ may still bound them near the anchor (Poisson).
    ResidualRange,
    /// Per coordinate i, L_i with |∂_iℓ_j(θ) − ∂_iℓ_j(θ')| ≤ L_i ‖θ − θ'‖₂ for every point j, and the
    /// prior's gradient Lipschitz constant: the Zig-Zag sampler's bound on its switching rates with
    /// control variates (Bierkens, Fearnhead & Roberts, "The Zig-Zag process and super-efficient
    /// sampling for Bayesian analysis of big data", 2019, Sec. 4).
    GradientLipschitz,
};

/// A set of capabilities, small enough to copy and to hold in constant tables.
class CapabilitySet {
public:
    constexpr CapabilitySet() = default;
    constexpr CapabilitySet(std::initializer_list<ModelCapability> capabilities)
    {
        for (ModelCapability capability : capabilities)
            m_bits |= bit(capability);
    }
    constexpr bool has(ModelCapability capability) const { return (m_bits & bit(capability)) != 0; }
    constexpr bool empty() const { return m_bits == 0; }
    /// Every capability of this set that `offered` lacks.
    constexpr CapabilitySet missingFrom(CapabilitySet offered) const { return fromBits(m_bits & ~offered.m_bits); }
    constexpr CapabilitySet operator|(CapabilitySet other) const { return fromBits(m_bits | other.m_bits); }
    constexpr bool operator==(const CapabilitySet &) const = default;
    /// The members, in the enum's order.
    std::vector<ModelCapability> members() const;

private:
    static constexpr std::uint32_t bit(ModelCapability capability) { return 1u << static_cast<unsigned>(capability); }
    static constexpr CapabilitySet fromBits(std::uint32_t bits)
    {
        CapabilitySet set;
        set.m_bits = bits;
        return set;
    }
    std::uint32_t m_bits = 0;
};

/// Every capability, in the enum's order.
const std::vector<ModelCapability> &allCapabilities();
/// What a refusal calls it: "Taylor proxies", "per-point Lipschitz constants", …
std::string_view capabilityName(ModelCapability capability);
/// The short key a table or a plugin's manifest names it by: "taylor-proxies", …
std::string_view capabilityKey(ModelCapability capability);

} // namespace core
