#pragma once
/// The "test" of the stochastic-gradient methods (SGLD, SGHMC and SGLD-CV,
/// core/proposals/stochastic_gradient_dynamics.h): there is none. Every move is kept, so the
/// chain's stationary law is not the posterior; its bias grows with the step (Welling & Teh
/// 2011, Sec. 3; Chen, Fox & Guestrin 2014, Sec. 3.3). A move outside the prior's support is
/// still refused by the chain, as for every method.
#include "core/acceptance/acceptance_test.h"

namespace core {

class AcceptEveryMove final : public AcceptanceTest {
public:
    /// `name`: the method's CLI spelling. `restartable`: false where the move carries state
    /// between iterations (SGHMC's momentum, Zig-Zag's velocity), so that a chain of it refuses
    /// checkpoints. The points an iteration read are the move's own (Proposal::lastMoveCost: the
    /// gradient minibatch, the Zig-Zag process's proposed switches); this test reads none.
    explicit AcceptEveryMove(std::string name, bool restartable = true);

    std::string name() const override { return m_name; }
    Decision decide(const TestProblem &problem, Rng &rng) override;
    bool readsProposalRatio() const override { return false; }
    bool restartable() const override { return m_restartable; }

private:
    std::string m_name;
    bool m_restartable;
};

} // namespace core
