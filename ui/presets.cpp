#include "ui/presets.h"

namespace ui {
namespace {

// Every preset starts from the core defaults, the paper's mixture settings (Seita et al.
// Sec. 6.1): N = 10⁶, T = 10⁴, step 0.15, σ = 1, 3000 samples.
RunRequest paperMixture(QVector<core::TestMethod> methods)
{
    RunRequest request = RunRequest::single(core::RunConfig{});
    request.methods = std::move(methods);
    request.config.method = request.methods.front();
    return request;
}

} // namespace

QStringList presetNames()
{
    return {QStringLiteral("gmm"), QStringLiteral("gmm-compare"), QStringLiteral("gmm-chains"),
            QStringLiteral("gmm-quick")};
}

QString presetDescription(const QString &name)
{
    if (name == QLatin1String("gmm"))
        return QObject::tr("The paper's Gaussian mixture (N = 10⁶, T = 10⁴) with the corrected minibatch test.");
    if (name == QLatin1String("gmm-compare"))
        return QObject::tr("The paper's Gaussian mixture: minibatch vs AustereMH(c) vs MHSubLhd on the same data "
                           "and seed (Table 1, Figure 4), in parallel.");
    if (name == QLatin1String("gmm-chains"))
        return QObject::tr("Four parallel chains of the minibatch test on the paper's mixture, for split R-hat.");
    if (name == QLatin1String("gmm-quick"))
        return QObject::tr("A small mixture (N = 20,000, T = 200, the same N/T = 100): minibatch vs full-data Barker "
                           "in a second.");
    return {};
}

std::optional<RunRequest> presetRequest(const QString &name)
{
    if (name == QLatin1String("gmm"))
        return paperMixture({core::TestMethod::Minibatch});
    if (name == QLatin1String("gmm-compare")) {
        RunRequest request =
            paperMixture({core::TestMethod::Minibatch, core::TestMethod::AustereConservative, core::TestMethod::SubLhd});
        request.parallel = true;
        return request;
    }
    if (name == QLatin1String("gmm-chains")) {
        RunRequest request = paperMixture({core::TestMethod::Minibatch});
        request.chains = 4;
        request.parallel = true;
        return request;
    }
    if (name == QLatin1String("gmm-quick")) {
        RunRequest request = paperMixture({core::TestMethod::Minibatch, core::TestMethod::Barker});
        request.config.nData = 20'000;
        request.config.temperature = 200.0;
        return request;
    }
    return std::nullopt;
}

} // namespace ui
