#include "core/experiment/reports/samples_header.h"

#include <algorithm>

#include "core/experiment/reports/run_record.h"
#include "core/io/number_format.h"

namespace core {
namespace {

// Numbers separated by spaces, each in round-trip form.
std::string joinRoundTrip(const std::vector<double> &values)
{
    std::string text;
    for (double value : values) {
        if (!text.empty())
            text += ' ';
        text += formatRoundTrip(value);
    }
    return text;
}

} // namespace

SamplesHeader::SamplesHeader(const std::string &program, const RunConfig &settings) : m_temperature(settings.temperature), m_step(settings.step)
{
    m_lines = {{"program", program}};
    for (auto &entry : toMetadata(runSettings(settings)))
        m_lines.push_back(std::move(entry));
}

SamplesHeader &SamplesHeader::data(const SampledDataFacts &facts)
{
    m_lines.insert(m_lines.end(), {{"description", facts.description},
                                   {"augmented", facts.augmented ? "1" : "0"},
                                   {"n_data", std::to_string(facts.dataSize)}});
    return *this;
}

SamplesHeader &SamplesHeader::featureScaling(const FeatureScaling &scaling)
{
    if (!scaling.empty())
        m_lines.insert(m_lines.end(),
                       {{"feature_means", joinRoundTrip(scaling.means)}, {"feature_sds", joinRoundTrip(scaling.sds)}});
    return *this;
}

SamplesHeader &SamplesHeader::chainPlace(int chainIndex, int chains)
{
    m_lines.insert(m_lines.end(), {{"chain", std::to_string(chainIndex + 1)}, {"chains", std::to_string(chains)}});
    return *this;
}

SamplesHeader &SamplesHeader::completion(std::int64_t completed, bool stopped)
{
    m_lines.insert(m_lines.end(), {{"completed", std::to_string(completed)}, {"stopped", stopped ? "1" : "0"}});
    return *this;
}

SamplesHeader &SamplesHeader::firstIteration(std::int64_t first)
{
    if (first > 0)
        m_lines.emplace_back("first_iteration", std::to_string(first)); // the burn-in's rows are left out
    return *this;
}

SamplesHeader &SamplesHeader::segmentsAndLogPosterior(const ChainResult &chain, bool binned, std::int64_t firstRow)
{
    const bool burnInWritten = chain.hasBurnIn() && firstRow == 0;
    const bool segmented = burnInWritten || chain.retuned(m_temperature, m_step);
    if (segmented) {
        std::size_t listed = 0;
        for (const ChainSegment &segment : chain.segments) {
            if (segment.burnIn && !burnInWritten)
                continue;
            m_lines.emplace_back("segment." + std::to_string(++listed),
                                 "start=" + std::to_string(std::max<std::int64_t>(segment.start - firstRow, 0))
                                     + " temperature=" + formatRoundTrip(segment.temperature)
                                     + " step=" + formatRoundTrip(segment.step) + (segment.burnIn ? " burn_in=1" : "")
                                     + (segment.relearning ? " relearning=1" : ""));
        }
    }
    std::string meaning = binned ? "tempered log posterior (unnormalised, binned-data evaluation)"
                                 : "tempered log posterior log p0 + sum of log p(x_i|theta) / T over all N (unnormalised)";
    if (segmented)
        meaning += ", each row at its segment's temperature";
    m_lines.emplace_back("lp_meaning", meaning);
    return *this;
}

SamplesHeader &SamplesHeader::correctionError(double linf)
{
    m_lines.emplace_back("correction_linf", formatRoundTrip(linf));
    return *this;
}

} // namespace core
