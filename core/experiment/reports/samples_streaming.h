#pragma once
/// The samples files of a run written while it runs (core/io/samples_csv_stream.h): one stream
/// per channel, opened when its chain starts, fed by its progress reports on its own thread.
/// What a run cut short by Ctrl-C or SIGTERM leaves is every draw made, marked interrupted; a
/// finished run's files are then written over these as before (run_report.h), lp__ included.
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/experiment/service/run_observer.h"
#include "core/experiment/reports/samples_header.h"
#include "core/io/samples_csv_stream.h"

namespace core {

class SamplesStreamingObserver : public RunObserver {
public:
    /// Streams to `path` (chainSamplesPath()'s name per channel) and passes every call on to
    /// `inner`. `program` heads the files as writeRunSamples() heads them.
    SamplesStreamingObserver(RunObserver &inner, const RunRequest &request, std::string path, std::string program);

    void stageStarted(RunStage stage, const std::string &message) override;
    void preparationProgress(RunStage stage, double fraction) override;
    void dataReady(const DatasetInstance &dataset, const RunOutcome &outcome) override;
    void chainStarted(int channel, const RunConfig &settings) override;
    /// The run continues a streamed file cut back to `keptRows` rows (`run --resume`): the
    /// stream appends to it from the end of the burn-in, which the chain runs again unwritten.
    void appendAfter(std::int64_t keptRows) { m_appendAfter = keptRows; }
    void chainProgress(int channel, const ChainResult &result, std::int64_t first, std::int64_t last) override;
    void chainFinished(const ChainReport &report) override;
    void chainLapEnded(int channel, const ChainResult &lap) override;
    void kernelChangeRefused(int channel, const std::string &problem) override;

    struct Kept {
        std::string path;
        std::int64_t draws = 0;
    };
    /// Ends every stream with `# status = interrupted …` (how many of the requested samples
    /// were made, and that the rows are every draw kept). Returns each file and its draws.
    std::vector<Kept> closeInterrupted(const RunOutcome &outcome);
    /// Ends every stream without a note: the finished files are about to be written over them.
    void closeFinished();
    /// Ends every stream with `# status = <note>`: a resumed run's file, which stays as streamed.
    void closeWith(const std::string &note);
    /// Ends every stream with `# status = failed: <what>`; never throws.
    void closeFailed(const std::string &what) noexcept;
    /// The first error a stream met (a full disk), or empty; streaming stops at it, the run does not.
    std::string error() const;

private:
    RunObserver &m_inner;
    RunRequest m_request;
    std::string m_path;
    std::string m_program;
    SampledDataFacts m_dataFacts;
    int m_dimension = 0; // description, n_data, scaling: known once the data are ready
    std::vector<std::unique_ptr<SamplesCsvStream>> m_streams; // one per channel, each fed by its own thread
    mutable std::mutex m_mutex; // the data facts and the error
    std::string m_error;
    std::int64_t m_appendAfter = -1; // ≥ 0: append to a resumed file of that many rows
};

} // namespace core
