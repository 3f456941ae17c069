#include "core/experiment/reports/compare_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "core/experiment/reports/mixing_check.h"
#include "core/experiment/reports/reference_distance.h"
#include "core/diagnostics/reference_agreement.h"
#include "core/io/atomic_file.h"
#include "core/io/number_format.h"

namespace core {
namespace {

// Mean and sample standard deviation of one figure over a method's chains.
struct Spread {
    std::vector<double> values;
    double mean() const
    {
        double total = 0.0;
        for (double v : values)
            total += v;
        return values.empty() ? std::nan("") : total / static_cast<double>(values.size());
    }
    double sd() const
    {
        if (values.size() < 2)
            return 0.0;
        const double m = mean();
        double squares = 0.0;
        for (double v : values)
            squares += (v - m) * (v - m);
        return std::sqrt(squares / static_cast<double>(values.size() - 1));
    }
};

struct MethodRow {
    std::string method; ///< the method's label (RunRequest::methodLabel)
    Spread meanBatch, allDataFraction, fullScanPerIteration, acceptance, tv, chi2, eq39, wall, scanShare;
    Spread essMin, essMedian, essPerSecond, essPerSamplingSecond, pointsPerEss;
};

std::vector<MethodRow> compareRows(const RunOutcome &outcome)
{
    std::vector<MethodRow> rows;
    for (std::size_t index = 0; index < outcome.request.methods.size(); ++index)
        rows.push_back(MethodRow{outcome.request.methodLabel(index), {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}});
    for (const ChainReport &chain : outcome.chains) {
        MethodRow &row = rows[static_cast<std::size_t>(outcome.request.methodIndexOf(chain.channel))];
        const ChainSummary &s = chain.summary;
        const double iterations = static_cast<double>(std::max<std::int64_t>(s.iterations, 1));
        row.meanBatch.values.push_back(s.meanBatch());
        row.allDataFraction.values.push_back(static_cast<double>(s.allDataIterations) / iterations);
        row.fullScanPerIteration.values.push_back(static_cast<double>(s.fullScanPoints) / iterations);
        row.acceptance.values.push_back(s.acceptanceRate());
        row.wall.values.push_back(s.wallSeconds);
        row.scanShare.values.push_back(s.wallSeconds > 0 ? chain.result->fullScanSeconds / s.wallSeconds : 0.0);
        row.essMin.values.push_back(chain.essBulkMin);
        row.essMedian.values.push_back(chain.essBulkMedian);
        row.essPerSecond.values.push_back(chain.essPerSecond);
        row.essPerSamplingSecond.values.push_back(chain.essPerSamplingSecond);
        row.pointsPerEss.values.push_back(chain.dataPointsPerEss);
        if (chain.hasPosteriorMetrics) {
            row.tv.values.push_back(chain.posterior.totalVariation);
            row.chi2.values.push_back(chain.posterior.chiSquared);
            row.eq39.values.push_back(chain.posterior.poissonLogLikelihood);
        }
    }
    return rows;
}

std::string plusMinus(const Spread &s, const char *format)
{
    char buffer[96];
    const std::string f = std::string(format) + " ± " + format;
    std::snprintf(buffer, sizeof buffer, f.c_str(), s.mean(), s.sd());
    return buffer;
}

// The posterior of every method against the first full-data exact test in the compare (mh or
// barker), by the measure of `diagnose --reference` (reference_agreement.h): per θ component, the shift of the mean
// in the reference's sds and the ratio of the sds; their median and extremes over components.
std::string referenceDistanceMarkdown(const RunOutcome &outcome)
{
    const auto &methods = outcome.request.methods;
    const std::optional<std::size_t> referenceIndex = fullDataReferenceIndex(outcome);
    if (!referenceIndex)
        return "\nNo full-data test (mh or barker) is among the methods, so there is no reference posterior to "
               "measure the others' distance from: add mh to --methods.\n";
    const std::size_t reference = *referenceIndex;
    const ComponentMoments ref = pooledMoments(outcome, reference);
    if (ref.rows == 0)
        return "";
    std::ostringstream text;
    text << "\nPosterior against the full-data reference (" << outcome.request.methodLabel(reference)
         << ", its trials pooled, " << ref.rows << " draws): per θ component, |Δmean| in reference sds and the "
            "ratio of the sds over the " << ref.mean.size() << " components: the median and worst shift, the median "
            "and range of the ratios. "
            "Both reference and method carry Monte Carlo error (about 1/√ESS sd in a mean).\n\n"
            "| method | median abs(Δmean) / sd | max | median sd ratio | range |\n|---|---|---|---|---|\n";
    for (std::size_t index = 0; index < methods.size(); ++index) {
        const std::optional<AgreementSummary> found = agreementWithReference(outcome, index, reference);
        if (!found)
            continue;
        const AgreementSummary &agreement = *found;
        char line[240];
        std::snprintf(line, sizeof line, "| %s | %.3f | %.3f | %.3f | %.3f–%.3f |\n",
                      outcome.request.methodLabel(index).c_str(), agreement.medianAbsShift, agreement.maxAbsShift,
                      agreement.medianSdRatio, agreement.minSdRatio, agreement.maxSdRatio);
        text << line;
    }
    return text.str();
}

} // namespace

std::string compareTableMarkdown(const RunOutcome &outcome)
{
    const RunConfig &config = outcome.config();
    const std::vector<MethodRow> rows = compareRows(outcome);
    const bool withPosterior = outcome.posterior != nullptr;
    const int trials = outcome.request.chains;
    std::ostringstream table;
    table << "# compare: " << outcome.datasetDescription << "\n\n"
          << "N = " << outcome.dataSize << ", T = " << config.temperature << ", step " << config.step
          << " (proposal sd), m = " << config.minibatch.initialBatch << ", " << config.samples << " samples, "
          << trials << " trials with seeds " << config.seed << ".."
          << config.seed + static_cast<std::uint64_t>(trials) - 1 << ", data seed " << config.dataSeed
          << ". AustereMH(c) m = " << config.austere.batch << ", epsilon " << config.austere.epsilon
          << (config.austereErrorBound > 0 ? " (designed under error bound " + formatRoundTrip(config.austereErrorBound) + ")"
                                           : std::string())
          << "; MHSubLhd gamma " << config.sublhd.gamma << ", p " << config.sublhd.p << ", delta "
          << config.sublhd.delta << "; MHminibatch sigma " << config.correction.sigma << ", growth "
          << config.minibatch.batchGrowth << ".\n\n"
          << "Values are mean ± sd over trials. *Minibatch size* counts the points each test read from "
             "minibatches; *full-scan points* counts the extra full-data passes some methods make every iteration "
             "(MHSubLhd's range bound C), which the minibatch size leaves out. *Min ESS* is the smallest bulk ESS "
             "over every coordinate of θ; *ESS/s* divides it by the chain's whole wall time, *ESS/s sampling* by "
             "that time less the proposal's set-up (the Laplace fit of the laplace-* proposals), and *points / ESS* "
             "divides every data point the chain read into it, burn-in and set-up passes included.\n\n";
    table << "| method | minibatch size | iterations reading all N | full-scan points / iteration | acceptance |";
    if (withPosterior)
        table << " posterior TV | chi-squared | Eq. 39 |";
    table << " wall s | full-scan share of wall | min ESS | ESS/s | ESS/s sampling | points / ESS |\n|---|---|---|---|---|";
    if (withPosterior)
        table << "---|---|---|";
    table << "---|---|---|---|---|---|\n";
    for (const MethodRow &row : rows) {
        table << "| " << row.method << " | " << plusMinus(row.meanBatch, "%.1f") << " | "
              << plusMinus(row.allDataFraction, "%.4f") << " | " << plusMinus(row.fullScanPerIteration, "%.0f") << " | "
              << plusMinus(row.acceptance, "%.3f") << " |";
        if (withPosterior)
            table << " " << plusMinus(row.tv, "%.3f") << " | " << plusMinus(row.chi2, "%.0f") << " | "
                  << plusMinus(row.eq39, "%.0f") << " |";
        char share[32];
        std::snprintf(share, sizeof share, "%.0f%%", 100.0 * row.scanShare.mean());
        table << " " << plusMinus(row.wall, "%.2f") << " | " << share << " | " << plusMinus(row.essMin, "%.0f")
              << " | " << plusMinus(row.essPerSecond, "%.1f") << " | " << plusMinus(row.essPerSamplingSecond, "%.1f")
              << " | " << plusMinus(row.pointsPerEss, "%.3g") << " |\n";
    }
    if (!outcome.pooled.empty()) {
        table << "\nPooled over each method's " << trials << " trials (one multi-chain bulk ESS; ESS/s over the time the "
              << (outcome.request.concurrency() > 1 ? "trials running at once" : "trials, one after the other,")
              << " took):\n\n| method | pooled min ESS | pooled median ESS | ESS/s | points / ESS |\n|---|---|---|---|---|\n";
        for (const PooledEss &pooled : outcome.pooled) {
            char line[200];
            std::snprintf(line, sizeof line, "| %s | %.0f | %.0f | %.1f | %.3g |\n", pooled.methodLabel().c_str(),
                          pooled.essBulkMin, pooled.essBulkMedian, pooled.essPerSecond, pooled.dataPointsPerEss);
            table << line;
        }
    }
    if (!withPosterior)
        table << referenceDistanceMarkdown(outcome);
    if (const std::vector<std::string> unmixed = unmixedMethods(outcome); !unmixed.empty()) {
        table << "\nMixing (" << mixingRule()
              << "): the figures of a method *not mixed* describe where its chains went, not the posterior; "
                 "those *not converged* carry more error than their ESS says.\n\n";
        for (const std::string &line : unmixed)
            table << "- " << line << "\n";
    }
    return table.str();
}

void writeCompareCsv(const RunOutcome &outcome, const std::string &path)
{
    const RunConfig &config = outcome.config();
    const std::vector<MethodRow> rows = compareRows(outcome);
    writeFileAtomically(path, [&](std::ostream &out) {
        out << "# dataset = " << config.dataset << "\n# n_data = " << outcome.dataSize << "\n# temperature = "
            << formatRoundTrip(config.temperature) << "\n# samples = " << config.samples << "\n# trials = "
            << outcome.request.chains
            << "\nmethod,trial,mean_batch,all_data_fraction,full_scan_per_iteration,acceptance_rate,"
               "posterior_tv,posterior_chi2,posterior_poisson_loglik,wall_seconds,full_scan_share,"
               "ess_bulk_min,ess_bulk_median,ess_per_second,data_points_per_ess\n";
        for (const MethodRow &row : rows)
            for (std::size_t t = 0; t < row.meanBatch.values.size(); ++t) {
                auto at = [&](const Spread &s) {
                    return t < s.values.size() ? formatRoundTrip(s.values[t]) : std::string("nan");
                };
                out << row.method << ',' << t << ',' << at(row.meanBatch) << ',' << at(row.allDataFraction)
                    << ',' << at(row.fullScanPerIteration) << ',' << at(row.acceptance) << ',' << at(row.tv) << ','
                    << at(row.chi2) << ',' << at(row.eq39) << ',' << at(row.wall) << ',' << at(row.scanShare) << ','
                    << at(row.essMin) << ',' << at(row.essMedian) << ',' << at(row.essPerSecond) << ','
                    << at(row.pointsPerEss) << '\n';
            }
    });
}

} // namespace core
