#include "core/acceptance/austere_designer.h"

#include <atomic>
#include <cmath>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "core/correction/cancelled.h"
#include "core/random/rng.h"

namespace core {

std::vector<std::int64_t> AustereDesigner::defaultBatches()
{
    std::vector<std::int64_t> batches;
    for (std::int64_t m = 50; m <= 500; m += 50)
        batches.push_back(m);
    return batches;
}

std::vector<double> AustereDesigner::defaultEpsilons()
{
    return {0.001, 0.005, 0.01, 0.05, 0.1, 0.2};
}

AustereDesigner::AustereDesigner(std::int64_t populationSize, std::vector<std::int64_t> batches,
                                 std::vector<double> epsilons, const std::function<void(double)> &progress,
                                 std::stop_token stop)
{
    struct Job {
        std::int64_t batch;
        double epsilon;
    };
    std::vector<Job> jobs;
    for (auto m : batches)
        if (m >= 2 && m <= populationSize)
            for (double e : epsilons)
                jobs.push_back({m, e});
    if (jobs.empty())
        throw std::invalid_argument("the design grid is empty (every batch exceeds N?)");
    // Each table is independent: two workers take jobs in turn; results keep grid order.
    std::vector<std::unique_ptr<AustereDesignTable>> built(jobs.size());
    std::atomic<std::size_t> next{0}, done{0};
    // One stop for both workers: the caller's, or the first failure's (so the other worker's
    // table gives way too instead of running to its end).
    std::stop_source quit;
    const std::stop_callback forward(stop, [&quit] { quit.request_stop(); });
    std::mutex failureMutex;
    std::exception_ptr failure;
    auto work = [&] {
        for (std::size_t j; (j = next.fetch_add(1)) < jobs.size();) {
            if (quit.stop_requested())
                return;
            try {
                built[j] = std::make_unique<AustereDesignTable>(populationSize, jobs[j].batch, jobs[j].epsilon,
                                                                AustereDesignTable::kDefaultCells,
                                                                quit.get_token());
            } catch (const Cancelled &) {
                return; // the stop's reason is reported below
            } catch (...) {
                std::lock_guard lock(failureMutex);
                if (!failure)
                    failure = std::current_exception();
                quit.request_stop();
                return;
            }
            ++done;
        }
    };
    {
        std::jthread helper(work);
        std::jthread second(work);
        while (done < jobs.size() && !quit.stop_requested()) {
            if (progress)
                progress(static_cast<double>(done) / static_cast<double>(jobs.size()));
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    }
    if (failure)
        std::rethrow_exception(failure);
    if (stop.stop_requested())
        throw Cancelled("AustereMH design cancelled");
    for (auto &table : built)
        m_tables.push_back(std::move(*table));
    if (progress)
        progress(1.0);
}

AustereDesigner::AustereDesigner(std::vector<AustereDesignTable> tables) : m_tables(std::move(tables))
{
    if (m_tables.empty())
        throw std::invalid_argument("the design grid is empty");
}

std::vector<AustereCandidate> AustereDesigner::evaluate(const std::vector<ProposalMoments> &pilot, double errorBound,
                                                        std::size_t &best) const
{
    if (pilot.empty())
        throw std::invalid_argument("the design needs at least one pilot proposal");
    std::vector<AustereCandidate> candidates;
    for (const auto &table : m_tables) {
        AustereCandidate candidate;
        candidate.batch = table.batch();
        candidate.epsilon = table.epsilon();
        for (const auto &p : pilot) {
            candidate.meanAbsError += std::abs(table.acceptanceError(p.meanLambda, p.sdLambda, p.logPriorProposalRatio));
            candidate.meanDataFraction += table.expectedDataFraction(p.meanLambda, p.sdLambda, p.logPriorProposalRatio);
        }
        candidate.meanAbsError /= static_cast<double>(pilot.size());
        candidate.meanDataFraction /= static_cast<double>(pilot.size());
        candidate.feasible = candidate.meanAbsError <= errorBound;
        candidates.push_back(candidate);
    }
    best = 0;
    for (std::size_t k = 1; k < candidates.size(); ++k) {
        const auto &c = candidates[k], &b = candidates[best];
        const bool better = c.feasible ? (!b.feasible || c.meanDataFraction < b.meanDataFraction)
                                       : (!b.feasible && c.meanAbsError < b.meanAbsError);
        if (better)
            best = k;
    }
    return candidates;
}

std::size_t AustereDesigner::choose(const ProposalMoments &proposal, double errorBound) const
{
    std::size_t best = 0;
    double bestUsage = std::numeric_limits<double>::infinity(), bestError = bestUsage;
    bool anyFeasible = false;
    for (std::size_t k = 0; k < m_tables.size(); ++k) {
        const auto &table = m_tables[k];
        const double error =
            std::abs(table.acceptanceError(proposal.meanLambda, proposal.sdLambda, proposal.logPriorProposalRatio));
        if (error <= errorBound) {
            const double usage =
                table.expectedDataFraction(proposal.meanLambda, proposal.sdLambda, proposal.logPriorProposalRatio);
            if (!anyFeasible || usage < bestUsage) {
                best = k;
                bestUsage = usage;
            }
            anyFeasible = true;
        } else if (!anyFeasible && error < bestError) {
            best = k;
            bestError = error;
        }
    }
    return best;
}

std::vector<ProposalMoments> collectPilot(const Model &model, const Proposal &proposal, const Vector &start,
                                          double temperature, int count, std::uint64_t seed,
                                          const std::function<void(double)> &progress, std::stop_token stop)
{
    if (count < 1)
        throw std::invalid_argument("pilot must be >= 1");
    Rng rng(seed ^ 0x3C6EF372FE94F82BULL);
    Vector current = start, candidate(start.size());
    const double scale = static_cast<double>(model.dataSize()) / temperature;
    std::vector<ProposalMoments> pilot;
    for (int k = 0; k < count; ++k) {
        if (stop.stop_requested())
            throw Cancelled("pilot cancelled");
        proposal.propose(current, candidate, temperature, rng);
        const double logPrior = model.logPrior(candidate) - model.logPrior(current);
        if (!std::isfinite(logPrior))
            continue;
        const auto [mean, sd] = model.logLikelihoodRatioMoments(current, candidate);
        // With control variates the moments are the residuals' and the proxies' exact sum joins
        // the part of Δ that needs no estimate.
        ProposalMoments moments{mean * scale, sd * scale,
                                logPrior + proposal.logProposalRatio(current, candidate)
                                    + model.exactLogLikelihoodRatioPart(current, candidate) / temperature};
        pilot.push_back(moments);
        // Move by the exact Barker test, so that later proposals come from where the chain goes.
        if (moments.meanLambda + moments.logPriorProposalRatio + rng.logistic() > 0.0)
            current.swap(candidate);
        if (progress)
            progress(static_cast<double>(k + 1) / count);
    }
    if (pilot.empty())
        throw std::invalid_argument("every pilot proposal fell outside the prior's support");
    return pilot;
}

} // namespace core
