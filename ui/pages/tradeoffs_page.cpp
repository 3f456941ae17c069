#include "ui/pages/tradeoffs_page.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <utility>

#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QStringList>
#include <QVBoxLayout>

#include "core/experiment/settings/settings_table.h"
#include "core/experiment/reports/sweep_report.h"
#include "ui/panel/checked_spin_box.h"
#include "ui/panel/control_panel.h"
#include "ui/panel/spin_box_values.h"
#include "ui/run/sweep_runner.h"
#include "ui/pages/sweep_axis_row.h"
#include "ui/pages/tradeoffs_grid.h"

namespace ui {
QList<NamedChart> TradeoffsPage::exportViews() const
{
    QList<NamedChart> charts;
    if (!hasRows())
        return charts;
    const QString setting = QString::fromStdString(m_outcome.settingKey);
    for (int figure = 0; figure < TradeoffsGrid::FigureCount; ++figure)
        charts.append({QStringLiteral("tradeoffs-%1-%2").arg(setting, TradeoffsGrid::figureStem(figure)),
                       tr("%1 against %2").arg(m_grid->figureTitle(figure), setting), m_grid->view(figure)});
    return charts;
}

TradeoffsPage::TradeoffsPage(QWidget *parent)
    : QWidget(parent),
      ChartPage(this, tr("Trade-offs"), // every letter is some other control's Alt key
                tr("Sweep one setting over a range with the form's methods: minibatch size, correction error, "
                   "fidelity and speed against it (Seita et al. Sec. 4–5)."))
{
    m_axisRow = new SweepAxisRow;
    m_samples = integerBox(0, 10'000'000, 1000);
    // 0: the form's samples and burn-in, which the preset chose to give a mixed chain; a
    // sweep of unmixed chains draws noise where a trend should be.
    m_samples->setSpecialValueText(tr("the form's"));
    m_samples->setAccessibleName(tr("Samples per point"));
    m_samples->setValue(0);
    m_samples->setToolTip(tr("Samples of every chain at every point: the form's (with its burn-in), or a number of "
                             "your own."));
    m_trials = integerBox(1, 100, 1);
    m_trials->setValue(3);
    m_trials->setAccessibleName(tr("Trials"));
    m_trials->setObjectName(QStringLiteral("sweepTrials"));
    m_trials->setToolTip(tr("Chains per method at every point, with seeds seed, seed + 1, …; the lines show their "
                            "mean and the error bars one standard error of it, so that a step between two points "
                            "can be told from noise."));
    m_sweep = new QPushButton(tr("Sweep"));
    m_stop = new QPushButton(tr("Stop"));
    m_save = new QPushButton(tr("Save rows as CSV…"));
    m_progress = new QLabel;
    m_stale = new QLabel;
    m_stale->setObjectName(QStringLiteral("sweepStale"));
    m_stale->setWordWrap(true);
    m_stale->setStyleSheet(QStringLiteral("QLabel { background: palette(highlight); color: palette(highlighted-text); "
                                          "padding: 3px; }"));
    m_stale->setVisible(false);
    m_grid = new TradeoffsGrid;
    m_runner = new SweepRunner(this);

    auto *runRow = new QHBoxLayout;
    runRow->addWidget(new QLabel(tr("Samples per point")));
    runRow->addWidget(m_samples);
    runRow->addWidget(new QLabel(tr("Trials")));
    runRow->addWidget(m_trials);
    runRow->addWidget(m_sweep);
    runRow->addWidget(m_stop);
    runRow->addWidget(m_progress, 1);
    runRow->addWidget(m_save);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_axisRow);
    layout->addLayout(runRow);
    layout->addWidget(m_stale);
    layout->addWidget(m_grid, 1);

    connect(m_sweep, &QPushButton::clicked, this, &TradeoffsPage::startSweep);
    connect(m_stop, &QPushButton::clicked, this, &TradeoffsPage::stopSweep);
    connect(m_save, &QPushButton::clicked, this, &TradeoffsPage::saveCsvFromDialog);
    connect(m_grid, &TradeoffsGrid::pointClicked, this, &TradeoffsPage::loadValue);
    connect(m_runner, &SweepRunner::pointFinished, this, &TradeoffsPage::onPointFinished);
    connect(m_runner, &SweepRunner::finished, this, &TradeoffsPage::onSweepFinished);
    connect(m_runner, &SweepRunner::failed, this, &TradeoffsPage::onSweepFailed);
    connect(m_axisRow, &SweepAxisRow::settingChosen, this, [this] {
        m_axisRow->suggestBounds(m_form ? m_form->config() : core::RunConfig{});
        refreshMarker();
    });
    refreshSettings();
    updateButtons();
}

TradeoffsPage::~TradeoffsPage()
{
    m_runner->stopAndJoin(); // before any widget the reports would touch is gone
}

void TradeoffsPage::setForm(ControlPanel *form)
{
    m_form = form;
    connect(m_form, &ControlPanel::settingsChanged, this, [this] {
        m_axisRow->suggestStepRule(m_form->config()); // a step typed into the form is not overridden
        refreshSettings();
        refreshMarker();
        refreshStale();
    });
    refreshSettings();
    refreshMarker();
}

void TradeoffsPage::refreshSettings()
{
    m_axisRow->offerSettings(m_form ? m_form->config().dataset : core::RunConfig{}.dataset);
}

QString TradeoffsPage::staleNote() const
{
    if (!m_form || m_outcome.rows.empty())
        return {};
    const core::RunRequest &swept = m_outcome.request.base;
    const core::RunRequest form = m_form->request();
    QStringList changes;
    if (swept.config.dataset != form.config.dataset)
        changes.append(tr("dataset %1 → %2")
                           .arg(QString::fromStdString(swept.config.dataset), QString::fromStdString(form.config.dataset)));
    std::vector<std::string> sweptLabels, formLabels;
    for (std::size_t m = 0; m < swept.methods.size(); ++m)
        sweptLabels.push_back(swept.methodLabel(m));
    for (std::size_t m = 0; m < form.methods.size(); ++m)
        formLabels.push_back(form.methodLabel(m));
    if (sweptLabels != formLabels)
        changes.append(tr("methods"));
    // The swept setting and the page's own samples are the sweep's, not the form's.
    for (const core::SettingDifference &difference : core::settingDifferences(swept.config, form.config)) {
        const std::string &key = difference.spec->key;
        if (key == m_outcome.settingKey || key == "dataset" || (key == "samples" && m_samples->value() > 0)
            || key == "method")
            continue;
        changes.append(QStringLiteral("%1 %2 → %3")
                           .arg(QString::fromStdString(key), QString::fromStdString(difference.before),
                                QString::fromStdString(difference.after)));
    }
    if (changes.isEmpty())
        return {};
    if (changes.size() > 3) {
        const qsizetype more = changes.size() - 2;
        changes = changes.mid(0, 2);
        changes.append(tr("%1 more").arg(more));
    }
    return tr("swept before the form changed: %1").arg(changes.join(QStringLiteral(", ")));
}

void TradeoffsPage::refreshStale()
{
    if (isRunning())
        return; // a running sweep keeps the request it started with; it is marked when it ends
    const QString note = staleNote();
    m_grid->setStaleNote(note);
    m_stale->setVisible(!note.isEmpty());
    m_stale->setText(note.isEmpty() ? QString()
                                    : tr("These points were %1. Press Sweep to sweep the form's settings.").arg(note));
}

void TradeoffsPage::refreshMarker()
{
    const core::SettingSpec *spec = m_axisRow->setting();
    const core::RunConfig config = m_form ? m_form->config() : core::RunConfig{};
    m_grid->setMarker(spec ? settingNumber(spec->get(config)) : std::nan(""));
}

void TradeoffsPage::setAxis(const core::SweepAxis &axis)
{
    m_axisRow->setAxis(axis);
    m_axisRow->suggestStepRule(m_form ? m_form->config() : core::RunConfig{});
}

core::SweepAxis TradeoffsPage::axis() const
{
    return m_axisRow->axis();
}

void TradeoffsPage::setSamplesPerPoint(qint64 samples)
{
    m_samples->setValue(static_cast<int>(samples));
}

void TradeoffsPage::setTrials(int trials)
{
    m_trials->setValue(trials);
}

core::SweepRequest TradeoffsPage::sweepRequest() const
{
    core::SweepRequest request;
    request.base = m_form ? m_form->request() : core::RunRequest::single(core::RunConfig{});
    request.base.chains = m_trials->value();
    if (m_samples->value() > 0)
        request.base.config.samples = m_samples->value();
    request.axis = axis();
    request.stepFollowsDataSize = m_axisRow->stepFollowsDataSize();
    return request;
}

QString TradeoffsPage::inputProblem() const
{
    return firstRefusal(*this, [](const QAbstractSpinBox *box) { return box->accessibleName(); });
}

bool TradeoffsPage::startSweep()
{
    m_runner->stopAndJoin();
    const core::SweepRequest request = sweepRequest();
    QString message = inputProblem();
    if (message.isEmpty()) {
        try {
            core::validate(request);
        } catch (const std::exception &problem) {
            message = QString::fromStdString(problem.what());
        }
    }
    if (!message.isEmpty()) {
        m_progress->setText(tr("Not started: %1").arg(message));
        emit statusMessage(tr("Sweep not started: %1").arg(message));
        emit sweepFailed(message);
        return false;
    }
    const core::SettingSpec &spec = core::findSweepSetting(request.axis.setting, request.base.config.dataset);
    m_outcome = core::SweepOutcome{};
    m_outcome.request = request;
    m_outcome.settingKey = spec.key;
    m_outcome.values = core::sweepValues(request.axis, spec);
    m_points.clear();
    m_pointCount = request.axis.count;
    std::vector<std::string> labels;
    for (std::size_t m = 0; m < request.base.methods.size(); ++m)
        labels.push_back(request.base.methodLabel(m));
    m_grid->reset(QString::fromStdString(spec.key), request.axis.from, request.axis.to, request.axis.logSpacing,
                  labels, core::isLogisticDataset(request.base.config.dataset));
    refreshMarker();
    m_stale->setVisible(false);
    m_progress->setText(tr("point 0 of %1").arg(m_pointCount));
    m_runner->start(request);
    updateButtons();
    emit statusMessage(tr("Sweeping %1 over %2 points…").arg(QString::fromStdString(spec.key)).arg(m_pointCount));
    return true;
}

bool TradeoffsPage::isRunning() const
{
    return m_runner->isRunning();
}

void TradeoffsPage::stopSweep()
{
    if (!isRunning())
        return;
    m_runner->requestStop();
    m_progress->setText(tr("Stopping after %1 of %2 points…").arg(m_points.size()).arg(m_pointCount));
}

void TradeoffsPage::onPointFinished(int index, int count, const std::vector<core::SweepRow> &rows,
                                    const std::vector<core::SweepPooled> &pooled)
{
    m_points[index] = {rows, pooled};
    m_outcome.rows.clear();
    m_outcome.pooled.clear();
    for (const auto &[point, arrived] : m_points) {
        m_outcome.rows.insert(m_outcome.rows.end(), arrived.rows.begin(), arrived.rows.end());
        m_outcome.pooled.insert(m_outcome.pooled.end(), arrived.pooled.begin(), arrived.pooled.end());
    }
    m_outcome.pointsCompleted = static_cast<int>(m_points.size());
    m_grid->showRows(m_outcome.rows, m_outcome.pooled);
    m_progress->setText(progressText());
    updateButtons();
    emit pointArrived(index, count);
}

void TradeoffsPage::onSweepFinished(const core::SweepOutcome &outcome)
{
    m_outcome = outcome;
    m_grid->showRows(m_outcome.rows, m_outcome.pooled);
    refreshStale();
    updateButtons();
    m_progress->setText(progressText());
    emit statusMessage(m_outcome.stopped ? tr("Sweep stopped: %1").arg(progressText())
                                         : tr("Sweep done: %1 points in %2 s")
                                               .arg(m_outcome.pointsCompleted)
                                               .arg(m_outcome.wallSeconds, 0, 'f', 1));
    emit sweepFinished(m_outcome.stopped);
}

void TradeoffsPage::onSweepFailed(const QString &error)
{
    // The points that completed stay as they arrived.
    updateButtons();
    m_progress->setText(tr("Failed after %1 of %2 points: %3").arg(m_points.size()).arg(m_pointCount).arg(error));
    emit statusMessage(tr("Sweep failed: %1").arg(error));
    emit sweepFailed(error);
}

QString TradeoffsPage::progressText() const
{
    QString text = tr("point %1 of %2").arg(m_outcome.pointsCompleted).arg(m_pointCount);
    if (!isRunning() && m_outcome.stopped)
        text += tr(" (stopped)");
    return text;
}

void TradeoffsPage::updateButtons()
{
    m_stop->setEnabled(isRunning());
    m_save->setEnabled(hasRows());
}

void TradeoffsPage::loadValue(double value)
{
    if (m_outcome.values.empty() || m_outcome.settingKey.empty())
        return;
    // A click lands near a point, not on it: take the nearest value the sweep ran.
    double nearest = m_outcome.values.front();
    for (double candidate : m_outcome.values)
        if (std::abs(candidate - value) < std::abs(nearest - value))
            nearest = candidate;
    const core::SettingSpec *spec = core::findSettingByKey(m_outcome.settingKey);
    if (!spec || !m_form)
        return;
    core::RunConfig config = m_form->config();
    const bool integer = spec->type == core::SettingType::Integer || spec->type == core::SettingType::Seed;
    const std::string text = integer ? std::to_string(std::llround(nearest)) : core::settingText(nearest);
    try {
        spec->set(config, spec->key, text);
        if (m_outcome.request.stepFollowsDataSize && spec->flag == "n-data")
            config.step = core::sweepPointRequest(m_outcome.request, nearest).config.step; // the step it ran at
    } catch (const std::exception &problem) {
        emit statusMessage(tr("Cannot load %1 = %2: %3")
                               .arg(QString::fromStdString(spec->key), QString::fromStdString(text), problem.what()));
        return;
    }
    m_form->setConfig(config);
    refreshMarker();
    emit statusMessage(tr("Loaded %1 = %2 into the form.").arg(QString::fromStdString(spec->key), QString::fromStdString(text)));
}

bool TradeoffsPage::saveCsv(const QString &path, QString *error) const
{
    try {
        core::writeSweepCsv(m_outcome, path.toStdString());
        return true;
    } catch (const std::exception &problem) {
        if (error)
            *error = QString::fromStdString(problem.what());
        return false;
    }
}

void TradeoffsPage::saveCsvFromDialog()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Save sweep rows"),
                                                      QStringLiteral("tradeoffs-%1.csv").arg(QString::fromStdString(m_outcome.settingKey)),
                                                      tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (saveCsv(path, &error))
        emit statusMessage(tr("Wrote %1 rows to %2").arg(m_outcome.rows.size()).arg(path));
    else
        emit statusMessage(tr("Could not save the rows: %1").arg(error));
}

} // namespace ui
