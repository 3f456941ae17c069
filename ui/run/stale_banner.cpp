#include "ui/run/stale_banner.h"

#include <algorithm>
#include <map>

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

#include "core/experiment/settings/settings_table.h"

namespace ui {
namespace {

// At most this many differences are spelled out; the rest are counted.
constexpr int kListed = 4;

QString methodList(const RunRequest &request)
{
    QStringList names;
    for (std::size_t m = 0; m < request.methods.size(); ++m)
        names.append(QString::fromStdString(request.methodLabel(m)));
    return names.join(QLatin1Char('+'));
}

// The runs a request makes, in no order: a compare started with --methods in the user's order and
// the same methods ticked in the form's order are the same results.
QStringList sortedEntries(const RunRequest &request)
{
    QStringList names;
    for (std::size_t m = 0; m < request.methods.size(); ++m)
        names.append(QString::fromStdString(request.methodLabel(m)));
    names.sort();
    return names;
}

} // namespace

StaleBanner::StaleBanner(QWidget *parent) : QFrame(parent)
{
    setObjectName(QStringLiteral("staleBanner"));
    setFrameShape(QFrame::StyledPanel);
    // Amber, the colour of "look here" rather than of an error.
    setStyleSheet(QStringLiteral("#staleBanner { background: #fff3cd; border: 1px solid #e0b040; }"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    m_text = new QLabel(this);
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText);
    m_run = new QPushButton(tr("Run with the form's settings"), this);
    m_run->setToolTip(tr("The same as Run (Ctrl+R)"));
    layout->addWidget(m_text, 1);
    layout->addWidget(m_run);
    connect(m_run, &QPushButton::clicked, this, &StaleBanner::runRequested);
    hide();
}

QString StaleBanner::settingLabel(const std::string &key)
{
    static const std::map<std::string, QString> labels{
        {"temperature", QStringLiteral("T")}, {"step", QStringLiteral("step")},
        {"sigma", QStringLiteral("σ")},       {"lambda", QStringLiteral("λ")},
        {"batch", QStringLiteral("m")},       {"batch_growth", QStringLiteral("growth")},
        {"delta", QStringLiteral("δ")},       {"epsilon", QStringLiteral("ε")},
        {"gamma", QStringLiteral("γ")},       {"n_data_requested", QStringLiteral("N")},
    };
    const auto found = labels.find(key);
    if (found != labels.end())
        return found->second;
    QString label = QString::fromStdString(key);
    label.replace(QLatin1Char('_'), QLatin1Char(' '));
    return label;
}

QString StaleBanner::describeRun(const RunRequest &request)
{
    const core::RunConfig &config = request.config;
    QStringList parts{QString::fromStdString(config.dataset), methodList(request)};
    if (const core::DatasetEntry *data = core::findDataset(config.dataset); data && data->generated)
        parts.append(QStringLiteral("N = %1").arg(config.nData));
    parts.append(QStringLiteral("T = %1").arg(config.temperature, 0, 'g', 6));
    parts.append(QStringLiteral("step = %1").arg(config.step, 0, 'g', 6));
    if (std::any_of(request.methods.begin(), request.methods.end(), core::needsCorrection))
        parts.append(QStringLiteral("σ = %1").arg(config.correction.sigma, 0, 'g', 6));
    parts.append(tr("seed %1").arg(config.seed));
    parts.append(tr("%1 samples").arg(config.samples));
    if (request.chains > 1)
        parts.append(tr("%1 chains").arg(request.chains));
    return parts.join(QStringLiteral(", "));
}

QStringList StaleBanner::describeDifferences(const RunRequest &shown, const RunRequest &form)
{
    QStringList lines;
    for (const core::SettingDifference &difference : core::settingDifferences(shown.config, form.config)) {
        // The first method is config.method; the methods line below covers it.
        if (difference.spec->key == "method")
            continue;
        // With control variates chosen per entry (a compare's "minibatch+taylor2"), the form's
        // own setting applies to no entry; the entries' labels below carry each one's.
        if (difference.spec->key == "control_variates"
            && (!shown.controlVariates.empty() || !form.controlVariates.empty()))
            continue;
        lines.append(QStringLiteral("%1 %2 → %3")
                         .arg(settingLabel(difference.spec->key), QString::fromStdString(difference.before),
                              QString::fromStdString(difference.after)));
    }
    if (sortedEntries(shown) != sortedEntries(form))
        lines.append(tr("method %1 → %2").arg(methodList(shown), methodList(form)));
    if (shown.chains != form.chains)
        lines.append(tr("chains %1 → %2").arg(shown.chains).arg(form.chains));
    return lines;
}

void StaleBanner::compare(const std::optional<RunRequest> &shown, const RunRequest &form, bool running)
{
    m_differences = shown ? describeDifferences(*shown, form) : QStringList();
    if (m_differences.isEmpty()) {
        hide();
        return;
    }
    QStringList listed = m_differences.mid(0, kListed);
    if (m_differences.size() > kListed)
        listed.append(tr("%n more", nullptr, static_cast<int>(m_differences.size() - kListed)));
    const QString what = running ? tr("The running chains use other settings than the form: %1.")
                                 : tr("These results are from other settings than the form's: %1.");
    const QString advice = running ? tr("The run restarts with the form's settings in a moment, or press Run (Ctrl+R) after it ends.")
                                   : tr("Press Run (Ctrl+R) to see the form's settings.");
    m_text->setText(what.arg(listed.join(QStringLiteral(", "))) + QLatin1Char(' ') + advice);
    m_run->setVisible(!running);
    show();
}

QString StaleBanner::text() const
{
    return isHidden() ? QString() : m_text->text();
}

} // namespace ui
