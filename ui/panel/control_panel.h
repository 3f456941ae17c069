#pragma once
// The run settings form: the dataset, method, N, T, step, samples, seed, chains; the
// minibatch test's m, growth and δ; the correction's σ, λ and solver; compare mode; Run, Stop,
// Pause, Step and Reset.
//
// The form stays editable during a run. Temperature and step apply to the running chains from
// their next iteration (a new, marked chain segment: core::LiveTuning); any other change means
// a different sampler, which the window handles by restarting the run (restartSettingChanged).
#include <cstdint>
#include <string>

#include <QWidget>

#include "core/experiment/settings/run_config.h"
#include "ui/panel/correction_box.h"
#include "ui/run/run_buttons.h"
#include "ui/run/sampler_worker.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QPushButton;
class QSpinBox;
QT_END_NAMESPACE

namespace ui {

class CompareBox;
class DatasetBox;
class MinibatchBox;
class SliderSpinBox;
struct Session;

class ControlPanel : public QWidget {
    Q_OBJECT
public:
    explicit ControlPanel(QWidget *parent = nullptr);

    /// The settings shown, on top of the settings not shown (data seed, minibatch growth, the
    /// baselines' parameters…) as last given to setConfig().
    core::RunConfig config() const;
    /// Shows `config`'s settings (clamped to the widgets' ranges) and keeps the rest.
    void setConfig(const core::RunConfig &config);
    /// The whole request: config() plus compare mode's methods, chains and parallelism.
    RunRequest request() const;
    /// Shows a request; more than one method turns compare mode on.
    void setRequest(const RunRequest &request);
    /// Copies every panel setting into `session` (its window-level fields are left alone).
    void fillSession(Session &session) const;
    /// Shows every panel setting of `session`.
    void applySession(const Session &session);
    /// The correction settings shown (part of config()).
    core::CorrectionParams correctionParams() const;
    /// Tells the form a run is in progress (which buttons are enabled, and whether edits are
    /// live changes).
    void setRunning(bool running);
    /// Continuous mode: the Samples box sizes the moving window (its label and tooltip say so).
    void setUntilStopped(bool on);
    /// The run's SGLD or SGHMC chains run at `step`, which their forecast took in place of the
    /// preset's (RunConfig::sgStepBias): the step box shows it and its label says whose it is.
    /// The form still asks for the preset's step and the bias (config() is unchanged), so the next
    /// run forecasts again. A step typed over it runs as typed; any other edit but T's (a live
    /// change the chains take at their step) asks for another run, and the box shows the
    /// preset's step again.
    void showForecastStep(double step);
    /// The step box shows the forecast's step (showForecastStep), not the form's own.
    bool showsForecastStep() const { return m_forecastStep > 0.0; }

    /// Run, Stop, Pause, Step and Reset. Not in the panel's own layout: the window keeps them
    /// below the scrolling form, always in view.
    RunButtons *runButtons() const { return m_buttons; }
    QComboBox *methodBox() const { return m_method; }
    QComboBox *controlVariatesBox() const { return m_controlVariates; }
    QComboBox *presetBox() const { return m_preset; }
    QDoubleSpinBox *temperatureBox() const { return m_temperature; }
    QDoubleSpinBox *proposalStepBox() const { return m_step; }
    QComboBox *proposalBox() const { return m_proposal; }
    QSpinBox *burnInBox() const { return m_burnIn; }
    QSpinBox *samplesBox() const { return m_samples; }
    QSpinBox *gradBatchBox() const { return m_gradBatch; }
    QSpinBox *leapfrogStepsBox() const { return m_leapfrogSteps; }
    QSpinBox *dataSizeBox() const { return m_nData; }
    CorrectionBox *correctionBox() const { return m_correction; }
    QSpinBox *chainsBox() const { return m_chains; }
    QCheckBox *parallelBox() const { return m_parallel; }
    CompareBox *compareBox() const { return m_compare; }
    DatasetBox *datasetBox() const { return m_dataset; }
    MinibatchBox *minibatchBox() const { return m_minibatch; }
    /// The line under the run settings: posterior sharpness N/T, after a dataset switch
    /// preceded by the defaults it applied.
    QString sharpnessText() const;
    /// The first box in the form whose text was refused (a value out of its range, kept as
    /// typed: CheckedSpinBox), as "Samples: “-5” is outside 1 … 10,000,000; …"; empty when
    /// every box shows its value. Nothing runs while it is not empty.
    QString inputProblem() const;

signals:
    /// A box refused its text (see inputProblem()), or a refusal ended (empty).
    void inputRefused(const QString &problem);
    /// During a run: the user settled on a new temperature or step (after arrow clicks stop for
    /// a moment, or on Enter / leaving the box), to apply to the running chains.
    void liveTemperatureChanged(double temperature);
    void liveStepChanged(double step);
    /// During a run: a setting that defines the sampler changed; `setting` names it.
    void restartSettingChanged(const QString &setting);
    /// σ, λ or the solver changed (also when set from code).
    void correctionChanged(const core::CorrectionParams &params);
    /// Any setting changed (for sessions).
    void settingsChanged();

private:
    QWidget *buildRunGroup();
    void buildMethodControls();
    void buildMoveControls();
    void buildLengthControls();
    void updateSharpness();
    void updateModeWidgets();
    /// Greys out the methods the selected model cannot run, saying why in their tooltips.
    void updateMethodAvailability();
    /// The edits that reach the form's users: refusals, settings changed, the forecast step dropped.
    void connectEditSignals();
    /// T and the step, sent to the running chains once a burst of edits settles.
    void connectLiveChanges();
    /// The settings that define the sampler: a run asks whether to restart.
    void connectRestarts();
    /// During a run (and not while settings are loaded): restartSettingChanged(setting).
    void requestRestart(const QString &setting);
    void onDatasetPicked();
    void onPresetPicked();
    /// Shows the settings a preset decides (T, step, prior, proposal, gradient batch, samples,
    /// burn-in, control variates) as `defaults` has them, and says so beside N/T.
    void showPresetSettings(const core::RunConfig &defaults);
    /// Sets the chains (and parallel, for more than one) to the preset's count for the shown
    /// settings (core::presetChains).
    void showPresetChains();
    /// The step box stops showing the forecast's step; `showFormStep`: it shows the preset's
    /// again (else it keeps what was typed over it).
    void dropForecastStep(bool showFormStep);

    QComboBox *m_method = nullptr;
    QComboBox *m_controlVariates = nullptr;
    QComboBox *m_preset = nullptr;
    QLabel *m_samplesLabel = nullptr;
    QSpinBox *m_nData = nullptr;
    SliderSpinBox *m_nDataSlider = nullptr;
    std::int64_t m_generatedN = 0;     // the generated data's N while the box shows training rows
    bool m_showingTrainingRows = false;
    QDoubleSpinBox *m_temperature = nullptr;
    QDoubleSpinBox *m_step = nullptr;
    QComboBox *m_proposal = nullptr;
    QSpinBox *m_gradBatch = nullptr;
    SliderSpinBox *m_gradBatchSlider = nullptr;
    QSpinBox *m_leapfrogSteps = nullptr;
    SliderSpinBox *m_stepSlider = nullptr;
    QLabel *m_stepLabel = nullptr; // says when the box shows the forecast's step
    double m_forecastStep = 0.0;   // > 0: the box shows this step, the forecast's (showForecastStep)
    SliderSpinBox *m_leapfrogSlider = nullptr;
    QFormLayout *m_runForm = nullptr; // hides the rows the chosen proposal does not use
    QSpinBox *m_samples = nullptr;
    QSpinBox *m_burnIn = nullptr;
    QSpinBox *m_seed = nullptr;
    QSpinBox *m_chains = nullptr;
    QCheckBox *m_parallel = nullptr;
    QLabel *m_sharpness = nullptr;
    CorrectionBox *m_correction = nullptr;
    CompareBox *m_compare = nullptr;
    DatasetBox *m_dataset = nullptr;
    MinibatchBox *m_minibatch = nullptr;
    QString m_defaultsNote;      // what the last dataset switch set, shown with N/T
    std::string m_shownDataset;  // the dataset whose defaults T and step hold
    RunButtons *m_buttons = nullptr;
    core::RunConfig m_base; // the hidden settings, kept as given to setConfig()
    bool m_running = false;
    bool m_loading = false; // setConfig() in progress: one correctionChanged at the end
    double m_liveTemperature = 0.0, m_liveStep = 0.0; // what the running chains were last given
};

} // namespace ui
