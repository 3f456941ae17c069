// Sampling throughput of the desktop app against the run service alone, measured in one
// process, alternating, so both see the same machine: the window (offscreen, drawing every
// chart live from the worker's snapshots) and core::runRequest with no observer, on the same
// mixture run. The app's cost is the snapshots its worker copies on the chain's thread and the
// GUI thread's drawing, which shares the cores with the chain.
//
// usage: bench_window_throughput [samples, default 1000000] [repetitions, default 3]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <QApplication>
#include <QEventLoop>

#include "core/experiment/service/run_service.h"
#include "ui/main_window.h"

namespace {

double serviceRate(const core::RunConfig &config)
{
    const core::RunOutcome outcome = core::runRequest(core::RunRequest::single(config));
    return outcome.chains.front().summary.iterationsPerSecond;
}

double windowRate(const core::RunConfig &config)
{
    ui::MainWindow window;
    window.setShowErrorDialogs(false);
    window.setAutoRun(false);
    window.show();
    QEventLoop loop;
    QObject::connect(&window, &ui::MainWindow::runFinished, &loop, &QEventLoop::quit);
    QObject::connect(&window, &ui::MainWindow::runFailed, &loop, &QEventLoop::quit);
    if (!window.startRun(config))
        return 0.0;
    loop.exec();
    const auto outcome = window.lastOutcome();
    return outcome && !outcome->chains.empty() ? outcome->chains.front().summary.iterationsPerSecond : 0.0;
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    core::RunConfig config; // the paper's mixture: N = 10^6, T = 10^4, the minibatch test
    config.samples = argc > 1 ? std::atoll(argv[1]) : 1'000'000;
    const int repetitions = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
    config.seed = 1;

    std::vector<double> ratios;
    for (int k = 0; k < repetitions; ++k) {
        const double service = serviceRate(config);
        const double window = windowRate(config);
        ratios.push_back(window / service);
        std::printf("repetition %d: service %.0f it/s, window %.0f it/s, window/service %.3f\n", k + 1, service,
                    window, window / service);
        std::fflush(stdout);
    }
    std::printf("median window/service over %d repetitions of %lld samples: %.3f\n", repetitions,
                static_cast<long long>(config.samples), median(ratios));
    return 0;
}
