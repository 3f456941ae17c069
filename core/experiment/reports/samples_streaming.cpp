#include "core/experiment/reports/samples_streaming.h"

#include <exception>

#include "core/experiment/reports/run_record.h"
#include "core/experiment/reports/run_report.h"
#include "core/experiment/reports/samples_header.h"

namespace core {

SamplesStreamingObserver::SamplesStreamingObserver(RunObserver &inner, const RunRequest &request, std::string path,
                                                   std::string program)
    : m_inner(inner), m_request(request), m_path(std::move(path)), m_program(std::move(program)),
      m_streams(static_cast<std::size_t>(request.channelCount()))
{
}

void SamplesStreamingObserver::stageStarted(RunStage stage, const std::string &message)
{
    m_inner.stageStarted(stage, message);
}

void SamplesStreamingObserver::preparationProgress(RunStage stage, double fraction)
{
    m_inner.preparationProgress(stage, fraction);
}

void SamplesStreamingObserver::dataReady(const DatasetInstance &dataset, const RunOutcome &outcome)
{
    {
        const std::lock_guard lock(m_mutex);
        m_dimension = outcome.dimension;
        m_dataFacts = sampledDataFacts(outcome);
    }
    m_inner.dataReady(dataset, outcome);
}

void SamplesStreamingObserver::chainStarted(int channel, const RunConfig &settings)
{
    SamplesHeader header(m_program, settings);
    int dimension = 0;
    {
        const std::lock_guard lock(m_mutex);
        header.data(m_dataFacts).featureScaling(m_dataFacts.scaling);
        dimension = m_dimension;
    }
    const std::int64_t firstRow = plainBurnIn(settings) ? settings.burnIn : 0;
    header.chainPlace(m_request.chainIndexOf(channel), m_request.chains).firstIteration(firstRow);
    const CsvMetadata &meta = header.lines();
    try {
        if (m_appendAfter >= 0) // the burn-in runs again; its rows, if written, are in the file
            m_streams[static_cast<std::size_t>(channel)] = std::make_unique<SamplesCsvStream>(
                channelSamplesPath(m_request, channel, m_path), SamplesCsvStream::Append{m_appendAfter}, settings.burnIn);
        else
            m_streams[static_cast<std::size_t>(channel)] = std::make_unique<SamplesCsvStream>(
                channelSamplesPath(m_request, channel, m_path), meta, dimension, firstRow);
    } catch (const std::exception &error) {
        const std::lock_guard lock(m_mutex);
        if (m_error.empty())
            m_error = error.what();
    }
    m_inner.chainStarted(channel, settings);
}

void SamplesStreamingObserver::chainProgress(int channel, const ChainResult &result, std::int64_t first,
                                             std::int64_t last)
{
    auto &stream = m_streams[static_cast<std::size_t>(channel)];
    if (stream) {
        try {
            stream->append(result, first, last);
        } catch (const std::exception &error) {
            stream.reset();
            const std::lock_guard lock(m_mutex);
            if (m_error.empty())
                m_error = error.what();
        }
    }
    m_inner.chainProgress(channel, result, first, last);
}

void SamplesStreamingObserver::chainFinished(const ChainReport &report)
{
    m_inner.chainFinished(report);
}

void SamplesStreamingObserver::chainLapEnded(int channel, const ChainResult &lap)
{
    m_inner.chainLapEnded(channel, lap);
}

void SamplesStreamingObserver::kernelChangeRefused(int channel, const std::string &problem)
{
    m_inner.kernelChangeRefused(channel, problem);
}

std::vector<SamplesStreamingObserver::Kept> SamplesStreamingObserver::closeInterrupted(const RunOutcome &outcome)
{
    std::vector<Kept> kept;
    for (std::size_t channel = 0; channel < m_streams.size(); ++channel) {
        auto &stream = m_streams[channel];
        if (!stream)
            continue;
        std::int64_t made = 0;
        for (const ChainReport &chain : outcome.chains)
            if (chain.channel == static_cast<int>(channel) && chain.result)
                made = chain.result->completed;
        const std::string note = "interrupted after " + std::to_string(made) + " of "
                                 + std::to_string(m_request.channelConfig(static_cast<int>(channel)).samples)
                                 + " samples; the " + std::to_string(stream->rowsWritten())
                                 + " rows above are every draw kept (the burn-in's are not written)";
        try {
            stream->close(note);
        } catch (const std::exception &error) {
            const std::lock_guard lock(m_mutex);
            if (m_error.empty())
                m_error = error.what();
        }
        kept.push_back({stream->path(), stream->rowsWritten()});
    }
    return kept;
}

void SamplesStreamingObserver::closeFinished()
{
    for (auto &stream : m_streams)
        if (stream)
            stream->close({});
}

void SamplesStreamingObserver::closeWith(const std::string &note)
{
    for (auto &stream : m_streams)
        if (stream)
            stream->close(note);
}

void SamplesStreamingObserver::closeFailed(const std::string &what) noexcept
{
    for (auto &stream : m_streams)
        if (stream) {
            try {
                stream->close("failed: " + what);
            } catch (...) {
                // The file keeps what was flushed; the run's own error is what gets reported.
            }
        }
}

std::string SamplesStreamingObserver::error() const
{
    const std::lock_guard lock(m_mutex);
    return m_error;
}

} // namespace core
