#include "ui/run/snapshot_builder.h"

#include <algorithm>
#include <cmath>

#include "core/experiment/service/continuous_chain.h"
#include "ui/charts/proposal_ellipse.h"

namespace ui {
namespace {

double secondsSince(SnapshotBuilder::Clock::time_point start)
{
    return std::chrono::duration<double>(SnapshotBuilder::Clock::now() - start).count();
}

} // namespace

SnapshotBuilder::SnapshotBuilder(int channel, qint64 total, qint64 dataSize, int dimension,
                                 std::chrono::milliseconds interval, Classifier classifier, Components plotted,
                                 bool untilStopped)
    : m_channel(channel), m_total(total), m_dataSize(dataSize), m_dimension(dimension), m_interval(interval),
      m_stride(static_cast<int>((total + SamplerWorker::kMaxPlottedSamples - 1) / SamplerWorker::kMaxPlottedSamples)),
      m_classifier(classifier), m_plotted(plotted), m_window(untilStopped ? std::max<qint64>(total, 1) : 0)
{
    m_windowStride = m_stride;
    if (m_window > 0) {
        m_windowStride = static_cast<int>(std::max<qint64>(
            1, (m_window + SamplerWorker::kMaxWindowPoints - 1) / SamplerWorker::kMaxWindowPoints));
        m_stride = m_windowStride;
        m_recentAccepted.assign(static_cast<std::size_t>(m_window), 0);
        m_recentBatch.assign(static_cast<std::size_t>(m_window), 0);
    }
    m_stride = std::max(m_stride, 1);
    if (m_classifier.model && m_classifier.test)
        m_classifier.stride = classifierStride(m_classifier.stride, total);
    else
        m_classifier = Classifier{};
}

std::int64_t SnapshotBuilder::classifierStride(std::int64_t traceStride, std::int64_t total)
{
    const std::int64_t capped = (total + SamplerWorker::kMaxClassifierPoints - 1) / SamplerWorker::kMaxClassifierPoints;
    return std::max<std::int64_t>({traceStride, capped, 1});
}

void SnapshotBuilder::countInWindow(std::int64_t t, std::uint8_t accepted, std::int64_t batch)
{
    const auto slot = static_cast<std::size_t>(t % m_window);
    if (t >= m_window)
        m_windowTests.remove(m_recentAccepted[slot] != 0, m_recentBatch[slot]);
    m_recentAccepted[slot] = accepted;
    m_recentBatch[slot] = batch;
    m_windowTests.add(accepted != 0, batch);
}

void SnapshotBuilder::startClock()
{
    m_start = m_speedMark = m_lastEmit = Clock::now();
}

double SnapshotBuilder::recentSpeed(std::int64_t last, double fallback)
{
    // A slider on the pace, or a new kernel, changes the speed: show the latest, not the
    // average since the start.
    const double span = secondsSince(m_speedMark);
    if (span >= 0.5) {
        m_recentSpeed = static_cast<double>(last - m_speedMarkIteration) / span;
        m_speedMark = Clock::now();
        m_speedMarkIteration = last;
    }
    return m_recentSpeed > 0.0 ? m_recentSpeed : fallback;
}

void SnapshotBuilder::appendNewSegments(RunSnapshot &shot, const core::ChainResult &result, std::int64_t lastRow)
{
    const std::int64_t offset = result.firstIteration;
    for (; m_segmentsSent < result.segments.size() && result.segments[m_segmentsSent].start < lastRow; ++m_segmentsSent) {
        core::ChainSegment segment = result.segments[m_segmentsSent];
        segment.start += offset;
        // A lap that goes on with the settings of the one before is no new segment.
        if (offset > 0 && m_segmentsSent == 0 && m_sentSegment && core::lapContinuesSegment(m_lastSegment, segment))
            continue;
        m_lastSegment = segment;
        m_sentSegment = true;
        shot.newSegments.append(segment);
    }
}

void SnapshotBuilder::describeTallies(RunSnapshot &shot, std::int64_t last) const
{
    // A fixed-length run describes the iterations after the burn-in, as the summaries, the
    // Diagnostics table and the histogram do; during the burn-in, the burn-in's own.
    shot.inBurnIn = m_window == 0 && m_burnIn > 0 && last <= m_burnIn;
    shot.afterBurnIn = m_window == 0 && m_burnIn > 0 && !shot.inBurnIn;
    const core::TestTally &described = m_window > 0 ? m_windowTests : shot.afterBurnIn ? m_keptTests : m_allTests;
    shot.acceptanceRate = described.acceptanceRate();
    shot.meanBatch = described.meanBatch();
    shot.dataPointsUsed = m_allTests.testPoints;
    shot.fullDataFallbacks = m_fallbacks;
    if (m_window == 0) {
        shot.segmentStart = m_segmentByChange ? m_segmentStart : 0;
        shot.segmentIterations = m_segmentTests.iterations;
        shot.segmentAcceptance = m_segmentTests.acceptanceRate();
        shot.segmentMeanBatch = m_segmentTests.meanBatch();
        shot.segmentRelearning = m_segmentRelearning;
    }
}

void SnapshotBuilder::timeShot(RunSnapshot &shot, std::int64_t last, double lapPausedSeconds)
{
    m_lapPaused = lapPausedSeconds;
    shot.elapsedSeconds = std::max(0.0, secondsSince(m_start) - m_pausedBefore - m_lapPaused); // sampling time only
    shot.iterationsPerSecond = shot.elapsedSeconds > 0.0 ? static_cast<double>(last) / shot.elapsedSeconds : 0.0;
    if (m_window > 0) {
        shot.iterationsPerSecond = recentSpeed(last, shot.iterationsPerSecond);
        // Until stopped, the window is redrawn many times a second and a fast chain refills it
        // within a few frames: plotting more than kMaxPlottedPerSecond samples a second would
        // only load the GUI thread (and take the core the chain needs on a small machine).
        const double perSecond = static_cast<double>(SamplerWorker::kMaxPlottedPerSecond);
        m_stride = std::max<int>(m_windowStride, static_cast<int>(std::ceil(shot.iterationsPerSecond / perSecond)));
    }
}

RunSnapshot SnapshotBuilder::take(const core::ChainResult &result, std::int64_t lastRow)
{
    const std::int64_t offset = result.firstIteration;
    if (offset != m_lapStart) { // the next lap of a run until stopped
        m_pausedBefore += m_lapPaused;
        m_lapPaused = 0.0;
        m_segmentsSent = 0;
        m_lapStart = offset;
    }
    const std::int64_t last = offset + lastRow;
    const std::int64_t from = std::max(m_emitted, offset);
    RunSnapshot shot;
    shot.channel = m_channel;
    shot.total = m_window > 0 ? 0 : m_total;
    shot.window = m_window;
    shot.first = from;
    shot.completed = last;
    shot.sampleStride = m_stride;
    shot.dataSize = m_dataSize;
    shot.dimension = m_dimension;
    shot.newBatchSizes.reserve(static_cast<qsizetype>(last - from));
    shot.newSamples.reserve(static_cast<qsizetype>((last - from) / m_stride + 1));
    const bool twoD = result.samples.cols() > 1;
    const auto [x, y] = m_plotted;
    const auto point = [&](std::int64_t row) {
        return QPointF(result.samples(row, x), twoD ? result.samples(row, y) : 0.0);
    };
    const std::int64_t every = m_classifier.stride;
    // Segments that begin among the new iterations restart the segment's counts there (a lap's
    // first segment, at row 0 of a later lap, goes on with the one before).
    std::size_t nextSegment = 0;
    const auto segmentBeginsAt = [&](std::int64_t t) -> const core::ChainSegment * {
        while (nextSegment < result.segments.size() && result.segments[nextSegment].start + offset < t)
            ++nextSegment;
        if (nextSegment < result.segments.size() && result.segments[nextSegment].start + offset == t
            && (result.segments[nextSegment].start > 0 || offset == 0))
            return &result.segments[nextSegment];
        return nullptr;
    };
    for (std::int64_t t = from; t < last; ++t) {
        const auto row = static_cast<std::size_t>(t - offset);
        if (const core::ChainSegment *begins = segmentBeginsAt(t)) {
            m_segmentStart = t;
            m_segmentTests = {};
            m_segmentRelearning = begins->relearning;
            // A live change began it, not the run's start or the burn-in's end.
            m_segmentByChange = nextSegment > 0 && !result.segments[nextSegment - 1].burnIn;
        }
        const bool accepted = result.accepted[row] != 0;
        m_segmentTests.add(accepted, result.batchSize[row]);
        if (t >= m_burnIn)
            m_keptTests.add(accepted, result.batchSize[row]);
        if (t % m_stride == 0)
            shot.newSamples.append(point(t - offset));
        shot.newBatchSizes.append(result.batchSize[row]);
        if (!result.brightPoints.empty())
            shot.newBrightPoints.append(result.brightPoints[row]);
        m_allTests.add(accepted, result.batchSize[row]);
        m_fallbacks += result.fullDataFallback[row];
        m_allPointsRead += result.batchSize[row] + result.fullScanPoints[row];
        if (m_window > 0)
            countInWindow(t, result.accepted[row], result.batchSize[row]);
        if (m_classifier.model && (t % every == every - 1 || (m_window == 0 && t == m_total - 1))) {
            const Clock::time_point start = Clock::now();
            const core::ClassifierFit fit =
                m_classifier.model->fit(result.samples.row(t - offset).transpose(), *m_classifier.test);
            m_evaluationSeconds += secondsSince(start);
            ++m_evaluations;
            shot.newClassifierPoints.append({t, m_allPointsRead, fit.accuracy, fit.meanLogLikelihood});
        }
    }
    appendNewSegments(shot, result, lastRow);
    if (lastRow > 0) {
        shot.current = point(lastRow - 1);
        if (!m_followsPath)
            shot.proposal = proposalSpread(m_proposal, result, lastRow, x, y);
    }
    if (twoD && !result.recentPath.empty()) {
        shot.path.reserve(static_cast<qsizetype>(result.recentPath.size()));
        for (const core::Vector &corner : result.recentPath)
            shot.path.append(QPointF(corner[x], twoD ? corner[y] : 0.0));
    }
    describeTallies(shot, last);
    timeShot(shot, last, result.pausedSeconds);
    m_emitted = last;
    m_lastEmit = Clock::now();
    return shot;
}

} // namespace ui
