// The approximate minibatch kernels without control variates, as chains, at the temperatures the
// front ends run: the corrected minibatch test (Seita et al. Sec. 4), AustereMH with a fixed
// design (c) and with a design chosen every step (nc) (Korattikara et al.; Seita et al. Sec. 6.1)
// and MHSubLhd (Bardenet et al.), on one weight without bias, prior N(0, 1), N = 1000 synthetic
// rows, at T = 0.5, 1, 20 and 100 (the logistic image runs' default; AustereMH(nc) at T ≠ 1). Each chain's thinned draws
// must follow the grid posterior p(θ) exp(Σ ℓ_i(θ)/T): KS, mean and a χ² test of the variance on
// the ESS (grid_chain_check.h: an sd 5 % off at the test's edge, 10 % off rejected). The kernels
// err per decision by at most their design error (the correction's L∞ error, ε's dynamic
// program, 0.005, δ = 0.01), which on this posterior is below what the checks resolve: a kernel
// that tempers wrongly moves the variance by a factor near T and is rejected at every T ≠ 1.
#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "tests/support/grid_chain_check.h"
#include "tests/support/small_logistic_models.h"
#include "tests/support/tempered_kernels.h"

using namespace core;
namespace data = boost::unit_test::data;

namespace {

struct ChainRow {
    std::string kernel;
    double temperature;
};
std::ostream &operator<<(std::ostream &out, const ChainRow &row)
{
    return out << row.kernel << " at T=" << row.temperature;
}

std::vector<ChainRow> chainRows()
{
    std::vector<ChainRow> rows;
    for (const char *kernel : {"minibatch", "austere-c", "sublhd"})
        for (double temperature : {0.5, 1.0, 20.0, 100.0})
            rows.push_back({kernel, temperature});
    // AustereMH(nc) integrates each design's error over u at every step (about 0.15 ms a
    // design): its T = 1 case is the acceptance test's (tst_sequential_tests).
    for (double temperature : {0.5, 20.0, 100.0})
        rows.push_back({"austere-nc", temperature});
    return rows;
}

constexpr DataIndex kRows = 1000;

} // namespace

BOOST_DATA_TEST_CASE(plainKernelsHaveTheTemperedGridPosterior, data::make(chainRows()), row)
{
    static const auto model = testdata::syntheticLogistic(kRows, 1, false, 51);
    const teststats::TemperedGrid grid(*model, row.temperature);
    const std::unique_ptr<AcceptanceTest> kernel = teststats::makeTemperedKernel(row.kernel, kRows);
    const auto seed = static_cast<std::uint64_t>(31 + row.temperature * 3) + 1000 * teststats::kernelNumber(row.kernel);
    const teststats::GridChainFigures figures = teststats::runAgainstGrid(*model, *kernel, grid, seed);
    teststats::expectGridPosterior(row.kernel, figures, grid);
}
