// Solves correction tables (Seita et al., "Minibatch Acceptance Test", Sec. 4; its appendix Table
// 3) and prints their accuracy and cost, next to the paper's figures.
//
//   bench_correction                 all of the paper's Table 3 (ridge, N = 4000 and 2000),
//                                    then NNLS at sigma 0.8, 1.0, 1.2, 1.5
//   bench_correction N sigma lambda ridge|nnls    one configuration
//   bench_correction --draws         draw throughput of sample()
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/correction/correction_distribution.h"

namespace {

void report(const core::CorrectionParams &params, double paper)
{
    const auto table = core::CorrectionDistribution::solve(params);
    const double targetVariance = core::kLogisticSd * core::kLogisticSd - params.sigma * params.sigma;
    std::printf("%-5s N %5d sigma %.2f lambda %-6g  Linf(sampled, fine) %.3e  Linf(paper conv.) %.3e", 
                params.solver == core::CorrectionSolver::Ridge ? "ridge" : "nnls", params.grid, params.sigma,
                params.lambda, table.linfError(), table.solveGridLinfError());
    if (paper > 0)
        std::printf("  paper %.1e (%+.1f%%)", paper, 100.0 * (table.solveGridLinfError() / paper - 1.0));
    std::printf("\n      rawMass %.9f  mean %+.2e  variance %.5f (target %.5f)  atoms %zu  %.2f s\n",
                table.rawMass(), table.mean(), table.variance(), targetVariance, table.positiveAtoms(),
                table.solveSeconds());
    std::fflush(stdout);
}

core::CorrectionParams make(int grid, double sigma, double lambda, core::CorrectionSolver solver)
{
    core::CorrectionParams p;
    p.grid = grid;
    p.sigma = sigma;
    p.lambda = lambda;
    p.solver = solver;
    return p;
}

void drawThroughput()
{
    const auto table = core::CorrectionDistribution::solve(make(4000, 1.0, 10.0, core::CorrectionSolver::Ridge));
    core::Rng rng(7);
    constexpr int kDraws = 50'000'000;
    double sum = 0;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < kDraws; ++i)
        sum += table.sample(rng);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("sample(): %.2f ns per draw (mean %.3g)\n", 1e9 * seconds / kDraws, sum / kDraws);
}

} // namespace

int main(int argc, char **argv)
{
    using core::CorrectionSolver;
    if (argc == 2 && std::strcmp(argv[1], "--draws") == 0) {
        drawThroughput();
        return 0;
    }
    if (argc == 5) {
        const auto solver = std::string(argv[4]) == "nnls" ? CorrectionSolver::Nnls : CorrectionSolver::Ridge;
        report(make(std::atoi(argv[1]), std::atof(argv[2]), std::atof(argv[3]), solver), 0.0);
        return 0;
    }
    // Seita et al., "Minibatch Acceptance Test", appendix Table 3: L∞ error of the ridge solve, V =
    // 20.
    const double sigmas[] = {0.8, 0.9, 1.0, 1.1};
    const double lambdas[] = {100, 10, 1, 0.1, 0.01};
    const double paper4000[5][4] = {{8.3e-4, 1.2e-3, 1.9e-3, 4.3e-3}, {1.3e-4, 2.6e-4, 8.9e-4, 6.0e-3},
                                    {2.5e-5, 1.0e-4, 1.6e-3, 1.0e-2}, {6.7e-6, 2.0e-4, 2.8e-3, 1.2e-2},
                                    {7.4e-6, 3.9e-4, 5.2e-3, 3.5e-2}};
    const double paper2000[5][4] = {{2.6e-3, 3.3e-3, 4.4e-3, 6.8e-3}, {4.0e-4, 6.4e-4, 1.3e-3, 4.6e-3},
                                    {6.7e-5, 1.6e-4, 1.1e-3, 7.5e-3}, {1.4e-5, 1.3e-4, 2.0e-3, 1.3e-2},
                                    {5.0e-6, 2.7e-4, 3.6e-3, 2.4e-2}};
    for (const int grid : {4000, 2000})
        for (int s = 0; s < 4; ++s)
            for (int l = 0; l < 5; ++l)
                report(make(grid, sigmas[s], lambdas[l], CorrectionSolver::Ridge),
                       grid == 4000 ? paper4000[l][s] : paper2000[l][s]);
    for (const double sigma : {0.8, 1.0, 1.2, 1.5})
        report(make(4000, sigma, 10, CorrectionSolver::Nnls), 0.0);
    return 0;
}
