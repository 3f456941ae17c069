#include "ui/run/sweep_runner.h"

#include <exception>
#include <functional>
#include <utility>

#include "ui/run/queued_hand_off.h"

namespace ui {
namespace {

// Called from the threads that run points, several at once: it only copies and posts.
class ForwardingObserver : public core::SweepObserver {
public:
    using Forward =
        std::function<void(int, int, const std::vector<core::SweepRow> &, const std::vector<core::SweepPooled> &)>;
    explicit ForwardingObserver(Forward forward) : m_forward(std::move(forward)) {}
    void pointFinished(int index, int count, const std::vector<core::SweepRow> &rows,
                       const std::vector<core::SweepPooled> &pooled) override
    {
        m_forward(index, count, rows, pooled);
    }

private:
    Forward m_forward;
};

} // namespace

SweepRunner::SweepRunner(QObject *parent) : QObject(parent) {}

SweepRunner::~SweepRunner()
{
    stopAndJoin();
}

void SweepRunner::start(const core::SweepRequest &request)
{
    stopAndJoin();
    const unsigned generation = ++m_generation;
    m_running = true;
    m_thread = std::jthread([this, request, generation](std::stop_token stop) {
        ForwardingObserver observer([this, generation](int index, int count, const std::vector<core::SweepRow> &rows,
                                                       const std::vector<core::SweepPooled> &pooled) {
            auto deliver = [this, generation, index, count, rows, pooled] {
                deliverPoint(generation, index, count, rows, pooled);
            };
            [[maybe_unused]] const QueuedHandOff handOff;
            QMetaObject::invokeMethod(this, std::move(deliver), Qt::QueuedConnection);
        });
        std::optional<core::SweepOutcome> outcome;
        QString error;
        try {
            core::RunControls controls;
            controls.stop = stop;
            outcome = core::runSweep(request, observer, controls);
        } catch (const std::exception &problem) {
            error = QString::fromStdString(problem.what());
        } catch (...) {
            error = QStringLiteral("unknown error");
        }
        auto ended = [this, generation, outcome = std::move(outcome), error] { deliverEnd(generation, outcome, error); };
        [[maybe_unused]] const QueuedHandOff handOff;
        QMetaObject::invokeMethod(this, std::move(ended), Qt::QueuedConnection);
    });
}

void SweepRunner::requestStop()
{
    if (m_running)
        m_thread.request_stop();
}

void SweepRunner::stopAndJoin()
{
    if (m_thread.joinable()) {
        m_thread.request_stop();
        m_thread.join();
    }
    ++m_generation; // what the joined sweep still has queued is dropped
    m_running = false;
}

void SweepRunner::deliverPoint(unsigned generation, int index, int count, const std::vector<core::SweepRow> &rows,
                               const std::vector<core::SweepPooled> &pooled)
{
    if (generation == m_generation)
        emit pointFinished(index, count, rows, pooled);
}

void SweepRunner::deliverEnd(unsigned generation, const std::optional<core::SweepOutcome> &outcome, const QString &error)
{
    if (generation != m_generation)
        return;
    if (m_thread.joinable())
        m_thread.join(); // it has only to return
    m_running = false;
    if (outcome)
        emit finished(*outcome);
    else
        emit failed(error);
}

} // namespace ui
