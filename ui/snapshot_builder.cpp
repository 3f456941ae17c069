#include "ui/snapshot_builder.h"

#include <algorithm>

namespace ui {
namespace {

double secondsSince(SnapshotBuilder::Clock::time_point start)
{
    return std::chrono::duration<double>(SnapshotBuilder::Clock::now() - start).count();
}

} // namespace

SnapshotBuilder::SnapshotBuilder(int channel, qint64 total, qint64 dataSize, int dimension,
                                 std::chrono::milliseconds interval, Classifier classifier, Components plotted)
    : m_channel(channel), m_total(total), m_dataSize(dataSize), m_dimension(dimension), m_interval(interval),
      m_stride(static_cast<int>((total + SamplerWorker::kMaxPlottedSamples - 1) / SamplerWorker::kMaxPlottedSamples)),
      m_classifier(classifier), m_plotted(plotted)
{
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

RunSnapshot SnapshotBuilder::take(const core::ChainResult &result, std::int64_t last)
{
    RunSnapshot shot;
    shot.channel = m_channel;
    shot.total = m_total;
    shot.first = m_emitted;
    shot.completed = last;
    shot.sampleStride = m_stride;
    shot.dataSize = m_dataSize;
    shot.dimension = m_dimension;
    shot.newBatchSizes.reserve(static_cast<qsizetype>(last - m_emitted));
    shot.newSamples.reserve(static_cast<qsizetype>((last - m_emitted) / m_stride + 1));
    const bool twoD = result.samples.cols() > 1;
    const auto [x, y] = m_plotted;
    const auto point = [&](std::int64_t t) { return QPointF(result.samples(t, x), twoD ? result.samples(t, y) : 0.0); };
    const std::int64_t every = m_classifier.stride;
    for (std::int64_t t = m_emitted; t < last; ++t) {
        const auto row = static_cast<std::size_t>(t);
        if (t % m_stride == 0)
            shot.newSamples.append(point(t));
        shot.newBatchSizes.append(result.batchSize[row]);
        m_accepted += result.accepted[row];
        m_dataPointsUsed += result.batchSize[row];
        m_fallbacks += result.fullDataFallback[row];
        m_allPointsRead += result.batchSize[row] + result.fullScanPoints[row];
        if (m_classifier.model && (t % every == every - 1 || t == m_total - 1)) {
            const Clock::time_point start = Clock::now();
            const core::ClassifierFit fit = m_classifier.model->fit(result.samples.row(t).transpose(), *m_classifier.test);
            m_evaluationSeconds += secondsSince(start);
            ++m_evaluations;
            shot.newClassifierPoints.append({t, m_allPointsRead, fit.accuracy, fit.meanLogLikelihood});
        }
    }
    for (; m_segmentsSent < result.segments.size() && result.segments[m_segmentsSent].start < last; ++m_segmentsSent)
        shot.newSegments.append(result.segments[m_segmentsSent]);
    if (last > 0)
        shot.current = point(last - 1);
    shot.acceptanceRate = last > 0 ? static_cast<double>(m_accepted) / static_cast<double>(last) : 0.0;
    shot.meanBatch = last > 0 ? static_cast<double>(m_dataPointsUsed) / static_cast<double>(last) : 0.0;
    shot.dataPointsUsed = m_dataPointsUsed;
    shot.fullDataFallbacks = m_fallbacks;
    shot.elapsedSeconds = std::max(0.0, secondsSince(m_start) - result.pausedSeconds); // sampling time only
    shot.iterationsPerSecond = shot.elapsedSeconds > 0.0 ? static_cast<double>(last) / shot.elapsedSeconds : 0.0;
    m_emitted = last;
    m_lastEmit = Clock::now();
    return shot;
}

} // namespace ui
