#pragma once
/// A samples file's `# key = value` header, made in one place: the program that wrote it, the
/// run's settings (the settings table's rows for its dataset, run_record.h), the data's facts,
/// the chain's place among the run's, where its rows start, its segments and what lp__ is.
/// The finished file (run_report.h) and the file streamed while the chain runs
/// (samples_streaming.h) both build theirs here; numbers are written by number_format.h so that
/// they read back to the same double. The order of the calls is the order of the lines.
#include <cstdint>
#include <string>

#include "core/chain/chain_runner.h"
#include "core/data/feature_scaling.h"
#include "core/experiment/settings/run_config.h"
#include "core/io/samples_csv.h"

namespace core {

/// What a samples file says of the data the chain ran on.
struct SampledDataFacts {
    std::string description;
    bool augmented = false;
    DataIndex dataSize = 0;
    FeatureScaling scaling;
};

class SamplesHeader {
public:
    /// `program` names the writer ("mh-explorer-cli run", "mh-explorer"); `settings` are the
    /// chain's own (a compare's channel, after any live change the run began with).
    SamplesHeader(const std::string &program, const RunConfig &settings);

    /// description, augmented and n_data.
    SamplesHeader &data(const SampledDataFacts &facts);
    /// feature_means and feature_sds (numbers separated by spaces), where the features were
    /// standardised: what a reader needs to put the weights back on the file's units, w_j / sd_j.
    SamplesHeader &featureScaling(const FeatureScaling &scaling);
    /// chain (1-based) and chains (per method).
    SamplesHeader &chainPlace(int chainIndex, int chains);
    /// completed and stopped: how far the chain got.
    SamplesHeader &completion(std::int64_t completed, bool stopped);
    /// first_iteration, where the rows start after an unwritten burn-in (nothing at 0).
    SamplesHeader &firstIteration(std::int64_t first);
    /// `segment.k = start=… temperature=… step=… [burn_in=1] [relearning=1]` lines for a chain
    /// whose rows need them to be read right (an annealing burn-in written, or
    /// ChainResult::retuned), then `lp_meaning`: what lp__ holds, `binned` for the mixture's
    /// binned-data evaluation, otherwise the full-data sum. `firstRow` > 0: the file starts at
    /// that iteration, after a burn-in it leaves out; that segment is then not listed, and
    /// starts count the file's rows.
    SamplesHeader &segmentsAndLogPosterior(const ChainResult &chain, bool binned, std::int64_t firstRow);
    /// correction_linf: the correction table's measured error.
    SamplesHeader &correctionError(double linf);

    const CsvMetadata &lines() const { return m_lines; }

private:
    /// The temperature and step the chain was asked for: a segment at others is listed.
    double m_temperature;
    double m_step;
    CsvMetadata m_lines;
};

} // namespace core
