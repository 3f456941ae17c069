#pragma once
/// Fast pseudo-random engine and the few draws the samplers need.
///
/// The engine is xoshiro256++ (Blackman & Vigna, 2019): 256 bits of state, a period of
/// 2^256 - 1, and a handful of adds, rotates and xors per 64-bit output, several times
/// faster than std::mt19937_64. It satisfies std::uniform_random_bit_generator, so the
/// Boost.Random distributions (ziggurat normal) accept it directly.
#include <bit>
#include <cstdint>
#include <limits>

#include <boost/random/normal_distribution.hpp>

namespace core {

class Rng {
public:
    using result_type = std::uint64_t;

    /// Seeds the four state words from one 64-bit seed through SplitMix64, so that nearby
    /// seeds (0, 1, 2, ...) give unrelated streams.
    explicit Rng(std::uint64_t seed = 0x9E3779B97F4A7C15ULL) { reseed(seed); }

    void reseed(std::uint64_t seed)
    {
        for (auto &word : m_state) {
            seed += 0x9E3779B97F4A7C15ULL;
            std::uint64_t z = seed;
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
            word = z ^ (z >> 31);
        }
    }

    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }

    result_type operator()()
    {
        const std::uint64_t result = std::rotl(m_state[0] + m_state[3], 23) + m_state[0];
        const std::uint64_t t = m_state[1] << 17;
        m_state[2] ^= m_state[0];
        m_state[3] ^= m_state[1];
        m_state[1] ^= m_state[2];
        m_state[0] ^= m_state[3];
        m_state[2] ^= t;
        m_state[3] = std::rotl(m_state[3], 45);
        return result;
    }

    /// Uniform double in [0, 1) with 53 random bits.
    double uniform01() { return static_cast<double>((*this)() >> 11) * 0x1.0p-53; }

    /// Uniform double in (0, 1): never 0 and never 1, for logs and inverse CDFs. The midpoints
    /// (k + ½)·2⁻⁵² of 52-bit cells are all exactly representable, the largest 1 − 2⁻⁵³; with
    /// 53-bit cells the top midpoint 1 − 2⁻⁵⁴ would round to 1.0.
    double uniformOpen01() { return openUnitFromBits((*this)()); }
    /// The value uniformOpen01() maps the raw 64-bit draw `bits` to (for tests of its range).
    static double openUnitFromBits(std::uint64_t bits) { return (static_cast<double>(bits >> 12) + 0.5) * 0x1.0p-52; }

    /// Uniform integer in [0, bound) without modulo bias (Lemire's multiply-shift method).
    std::uint64_t uniformIndex(std::uint64_t bound)
    {
        __uint128_t product = static_cast<__uint128_t>((*this)()) * bound;
        auto low = static_cast<std::uint64_t>(product);
        if (low < bound) {
            const std::uint64_t threshold = (0 - bound) % bound;
            while (low < threshold) {
                product = static_cast<__uint128_t>((*this)()) * bound;
                low = static_cast<std::uint64_t>(product);
            }
        }
        return static_cast<std::uint64_t>(product >> 64);
    }

    /// Standard normal draw (Boost's ziggurat).
    double normal() { return m_normal(*this); }

    /// A standard logistic draw by inversion: log(u / (1 - u)).
    double logistic();

private:
    std::uint64_t m_state[4]{};
    boost::random::normal_distribution<double> m_normal{0.0, 1.0};
};

} // namespace core
