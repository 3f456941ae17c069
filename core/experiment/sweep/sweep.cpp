#include "core/experiment/sweep/sweep.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "core/experiment/reports/reference_distance.h"
#include "core/experiment/service/run_service.h"
#include "core/io/number_format.h"

namespace core {
namespace {

std::string sweepableList(const std::string &dataset)
{
    std::string names;
    for (const SettingSpec *spec : sweepableSettings(dataset)) {
        std::string flagAsKey = spec->flag;
        std::replace(flagAsKey.begin(), flagAsKey.end(), '-', '_');
        // A flag that is not the key spelled with dashes is named too ("n_data_requested (n-data)").
        names += (names.empty() ? "" : ", ") + spec->key + (flagAsKey == spec->key ? "" : " (" + spec->flag + ")");
    }
    return names;
}

double asNumber(const SettingValue &value)
{
    if (const auto *d = std::get_if<double>(&value))
        return *d;
    if (const auto *i = std::get_if<std::int64_t>(&value))
        return static_cast<double>(*i);
    if (const auto *u = std::get_if<std::uint64_t>(&value))
        return static_cast<double>(*u);
    throw std::logic_error("a sweepable setting holds a number");
}

// The text the table's parser reads: integers without a fraction, reals in round-trip form.
std::string settingTextFor(const SettingSpec &spec, double value)
{
    return spec.type == SettingType::Integer ? std::to_string(std::llround(value)) : formatRoundTrip(value);
}

std::string pointLabel(int index, int count, const std::string &key, double value)
{
    return "vary: point " + std::to_string(index + 1) + " of " + std::to_string(count) + " (" + key + " = "
           + formatRoundTrip(value) + "): ";
}

// Sums the progress of one point's chains for the sweep's observer.
class PointProgress : public RunObserver {
public:
    PointProgress(SweepObserver &observer, int index) : m_observer(observer), m_index(index) {}

    void dataReady(const DatasetInstance &, const RunOutcome &outcome) override
    {
        const std::lock_guard lock(m_mutex);
        m_done.assign(static_cast<std::size_t>(outcome.request.channelCount()), 0);
        m_total = static_cast<std::int64_t>(outcome.request.channelCount()) * outcome.config().samples;
    }

    void chainProgress(int channel, const ChainResult &, std::int64_t, std::int64_t last) override
    {
        const std::lock_guard lock(m_mutex); // a point's chains may run in parallel
        if (static_cast<std::size_t>(channel) >= m_done.size())
            return;
        m_done[static_cast<std::size_t>(channel)] = last;
        std::int64_t done = 0;
        for (std::int64_t rows : m_done)
            done += rows;
        m_observer.pointProgress(m_index, done, m_total);
    }

private:
    SweepObserver &m_observer;
    const int m_index;
    std::mutex m_mutex;
    std::vector<std::int64_t> m_done;
    std::int64_t m_total = 0;
};

} // namespace

SweepAxis parseSweepAxis(const std::string &text)
{
    const std::string expected = "vary: expected NAME=FROM:TO:COUNT (e.g. sigma=0.4:1.7:8); got '" + text + "'";
    const auto equals = text.find('=');
    if (equals == std::string::npos || equals == 0)
        throw std::invalid_argument(expected);
    std::vector<std::string> parts;
    std::size_t start = equals + 1;
    for (std::size_t colon; (colon = text.find(':', start)) != std::string::npos; start = colon + 1)
        parts.push_back(text.substr(start, colon - start));
    parts.push_back(text.substr(start));
    if (parts.size() != 3)
        throw std::invalid_argument(expected);
    auto number = [&](const std::string &part, const char *what) {
        std::size_t used = 0;
        double value = 0.0;
        try {
            value = std::stod(part, &used);
        } catch (const std::exception &) {
            used = 0;
        }
        if (part.empty() || used != part.size() || !std::isfinite(value))
            throw std::invalid_argument(std::string("vary: ") + what + " must be a finite number; got '" + part
                                        + "' in '" + text + "'");
        return value;
    };
    SweepAxis axis;
    axis.setting = text.substr(0, equals);
    axis.from = number(parts[0], "FROM");
    axis.to = number(parts[1], "TO");
    const double count = number(parts[2], "COUNT");
    if (count != std::floor(count) || count < 2 || count > SweepRequest::kMaxPoints)
        throw std::invalid_argument("vary: COUNT must be a whole number in [2, " + std::to_string(SweepRequest::kMaxPoints)
                                    + "] (for one point, use run or compare); got '" + parts[2] + "'");
    axis.count = static_cast<int>(count);
    return axis;
}

std::vector<const SettingSpec *> sweepableSettings(const std::string &dataset)
{
    std::vector<const SettingSpec *> settings;
    for (const SettingSpec &spec : settingsTable())
        if ((spec.type == SettingType::Integer || spec.type == SettingType::Real) && !spec.flag.empty()
            && !spec.noteOnly && appliesTo(spec, dataset))
            settings.push_back(&spec);
    return settings;
}

const SettingSpec &findSweepSetting(const std::string &name, const std::string &dataset)
{
    for (const SettingSpec *spec : sweepableSettings(dataset))
        if (spec->key == name || spec->flag == name)
            return *spec;
    const auto known = std::find_if(settingsTable().begin(), settingsTable().end(),
                                    [&](const SettingSpec &spec) { return spec.key == name || spec.flag == name; });
    const std::string problem = known == settingsTable().end() ? "unknown setting '" + name + "'"
                                : known->type == SettingType::Seed
                                    ? "'" + name + "' is a random stream, not a setting to sweep (trials vary the seed)"
                                    : "'" + name + "' is not a numeric setting of a " + dataset + " run";
    throw std::invalid_argument("vary: " + problem + "; choose one of: " + sweepableList(dataset));
}

std::vector<double> sweepValues(const SweepAxis &axis, const SettingSpec &spec)
{
    std::vector<double> values;
    const int last = axis.count - 1;
    for (int i = 0; i <= last; ++i) {
        const double f = static_cast<double>(i) / static_cast<double>(last);
        // from·(to/from)^f rather than exp of logs: a decade's points such as 10⁴ come out exact.
        double value = axis.logSpacing ? axis.from * std::pow(axis.to / axis.from, f)
                                       // Weighted, not from + f·(to − from): the end points come out exact.
                                       : (axis.from * static_cast<double>(last - i) + axis.to * static_cast<double>(i))
                                             / static_cast<double>(last);
        if (i == 0)
            value = axis.from;
        if (i == last)
            value = axis.to;
        values.push_back(spec.type == SettingType::Integer ? std::round(value) : value);
    }
    return values;
}

bool stepIsInverseRootOfDataSize(const RunConfig &config)
{
    // The presets write exactly this expression, so equality is the test.
    return config.nData > 0 && config.step == 1.0 / std::sqrt(static_cast<double>(config.nData));
}

RunRequest sweepPointRequest(const SweepRequest &request, double value)
{
    const SettingSpec &spec = findSweepSetting(request.axis.setting, request.base.config.dataset);
    RunRequest point = request.base;
    spec.set(point.config, spec.key, settingTextFor(spec, value));
    if (request.stepFollowsDataSize && spec.flag == "n-data" && point.config.nData > 0)
        point.config.step = 1.0 / std::sqrt(static_cast<double>(point.config.nData));
    point.keepSamples = false;
    return point;
}

void validate(const SweepRequest &request)
{
    const SweepAxis &axis = request.axis;
    const SettingSpec &spec = findSweepSetting(axis.setting, request.base.config.dataset);
    if (axis.count < 2 || axis.count > SweepRequest::kMaxPoints)
        throw std::invalid_argument("vary: COUNT must be in [2, " + std::to_string(SweepRequest::kMaxPoints)
                                    + "]; got " + std::to_string(axis.count));
    if (!std::isfinite(axis.from) || !std::isfinite(axis.to) || axis.from == axis.to)
        throw std::invalid_argument("vary: FROM and TO must be finite and differ; got " + formatRoundTrip(axis.from)
                                    + " and " + formatRoundTrip(axis.to));
    if (axis.logSpacing && !(axis.from > 0.0 && axis.to > 0.0))
        throw std::invalid_argument("vary: log spacing needs FROM, TO > 0; got " + formatRoundTrip(axis.from) + " and "
                                    + formatRoundTrip(axis.to));
    if (request.threads < 0 || request.threads > 1024)
        throw std::invalid_argument("threads must be in [0, 1024] (0: one per core); got "
                                    + std::to_string(request.threads));
    // A problem the base request has whatever the point (no methods, too many trials) is
    // reported as it is, not charged to the first point.
    std::string baseProblem;
    try {
        validate(request.base);
    } catch (const std::invalid_argument &error) {
        baseProblem = error.what();
    }
    const std::vector<double> values = sweepValues(axis, spec);
    for (std::size_t i = 0; i < values.size(); ++i) {
        try {
            validate(sweepPointRequest(request, values[i]));
        } catch (const std::invalid_argument &error) {
            if (error.what() == baseProblem)
                throw;
            throw std::invalid_argument(pointLabel(static_cast<int>(i), axis.count, spec.key, values[i]) + error.what());
        }
    }
}

std::vector<SweepRow> sweepRows(const std::string &settingKey, double value, const RunOutcome &outcome)
{
    std::vector<SweepRow> rows;
    const std::optional<std::size_t> reference = fullDataReferenceIndex(outcome);
    for (const ChainReport &chain : outcome.chains) {
        SweepRow row;
        row.setting = settingKey;
        row.value = value;
        row.method = chain.method;
        row.label = chain.methodLabel();
        row.trial = chain.chainIndex;
        row.meanBatch = chain.summary.meanBatch();
        row.acceptanceRate = chain.summary.acceptanceRate();
        if (outcome.usedCorrection && needsCorrection(chain.method))
            row.correctionLinf = outcome.correctionLinf;
        if (chain.hasPosteriorMetrics)
            row.posteriorTv = chain.posterior.totalVariation;
        row.essBulkMin = chain.essBulkMin;
        row.essBulkMedian = chain.essBulkMedian;
        row.essPerSecond = chain.essPerSecond;
        row.dataPointsPerEss = chain.dataPointsPerEss;
        row.splitRhat = chain.splitRhat;
        row.mixing = checkMixing(chain);
        row.testAccuracy = chain.testAccuracy;
        row.wallSeconds = chain.summary.wallSeconds;
        if (chain.method == TestMethod::Tuna)
            row.tunaChi = outcome.config().tunaChi;
        if (reference)
            if (const std::optional<AgreementSummary> agreement = agreementWithReference(
                    outcome, static_cast<std::size_t>(outcome.request.methodIndexOf(chain.channel)), *reference)) {
                row.referenceShift = agreement->medianAbsShift;
                row.referenceSdRatio = agreement->medianSdRatio;
            }
        rows.push_back(std::move(row));
    }
    return rows;
}

SweepOutcome runSweep(const SweepRequest &request, SweepObserver &observer, const RunControls &controls)
{
    validate(request);
    const auto started = std::chrono::steady_clock::now();
    const SettingSpec &spec = findSweepSetting(request.axis.setting, request.base.config.dataset);
    SweepOutcome outcome;
    outcome.request = request;
    outcome.settingKey = spec.key;
    // The values as the table holds them once set: what each point really ran.
    for (double value : sweepValues(request.axis, spec))
        outcome.values.push_back(asNumber(spec.get(sweepPointRequest(request, value).config)));
    const int count = static_cast<int>(outcome.values.size());
    const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    const int threads = request.threads > 0 ? request.threads : cores;

    std::vector<std::vector<SweepRow>> rowsByPoint(static_cast<std::size_t>(count));
    std::vector<std::vector<SweepPooled>> pooledByPoint(static_cast<std::size_t>(count));
    std::vector<char> completed(static_cast<std::size_t>(count), 0);
    std::stop_source pointsStop;
    const std::stop_callback forwardStop(controls.stop, [&pointsStop] { pointsStop.request_stop(); });
    std::mutex failureMutex;
    std::exception_ptr failure;
    // Points that differ in a kernel or target setting run on the same data: the first makes
    // it (and the exact posterior at its temperature), the others reuse it. A sweep over the
    // data's size keeps one data set at a time.
    RunInputCache inputs;

    auto runPoint = [&](int index, int pointThreads) {
        try {
            const double value = outcome.values[static_cast<std::size_t>(index)];
            RunRequest point = sweepPointRequest(request, value);
            point.parallel = pointThreads > 1;
            point.threads = pointThreads;
            observer.pointStarted(index, count, value);
            PointProgress progress(observer, index);
            RunControls pointControls;
            pointControls.stop = pointsStop.get_token();
            pointControls.pauseGate = controls.pauseGate;
            const RunOutcome result = runRequest(point, progress, pointControls, &inputs);
            if (result.stopped)
                return; // cut short: its figures would describe shorter chains
            auto &rows = rowsByPoint[static_cast<std::size_t>(index)];
            rows = sweepRows(spec.key, value, result);
            auto &pooled = pooledByPoint[static_cast<std::size_t>(index)];
            for (const PooledEss &method : result.pooled)
                pooled.push_back({value, method});
            completed[static_cast<std::size_t>(index)] = 1;
            observer.pointFinished(index, count, rows, pooled);
        } catch (...) {
            const std::lock_guard lock(failureMutex);
            if (!failure)
                failure = std::current_exception();
            pointsStop.request_stop(); // a failing point stops the others
        }
    };

    // The first point alone, with every thread over its chains: what it solves and caches on
    // disk, the points after it that share it read (else two points running at once would each
    // solve the same correction table).
    runPoint(0, threads);
    const int workers = std::clamp(threads, 1, std::max(1, count - 1));
    const int threadsPerPoint = std::max(1, threads / workers);
    std::atomic<int> next{1};
    auto drain = [&] {
        for (int index = next++; index < count && !pointsStop.stop_requested(); index = next++)
            runPoint(index, threadsPerPoint);
    };
    if (workers > 1) {
        std::vector<std::jthread> pool;
        for (int k = 0; k < workers; ++k)
            pool.emplace_back(drain);
    } else {
        drain();
    }
    if (failure)
        std::rethrow_exception(failure);

    for (int index = 0; index < count; ++index)
        if (completed[static_cast<std::size_t>(index)]) {
            ++outcome.pointsCompleted;
            auto &rows = rowsByPoint[static_cast<std::size_t>(index)];
            outcome.rows.insert(outcome.rows.end(), rows.begin(), rows.end());
            auto &pooled = pooledByPoint[static_cast<std::size_t>(index)];
            outcome.pooled.insert(outcome.pooled.end(), pooled.begin(), pooled.end());
        }
    outcome.stopped = outcome.pointsCompleted < count;
    outcome.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return outcome;
}

} // namespace core
