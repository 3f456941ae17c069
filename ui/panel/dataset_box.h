#pragma once
// The dataset part of the control panel: the Welling–Teh Gaussian mixture (Seita et al.
// Sec. 6.1), the worst-case Gaussian (Sec. 2.1), or Bayesian logistic regression (Sec. 6.2)
// on each image source found on this machine or on the user's own files (a CSV of label +
// features, or an IDX image file with its label file), with the two classes to tell apart.
//
// A selection of real data is checked once on a pool thread, as a run would load it: the box
// then shows its size and labels, or the loader's message naming the file, and the window
// stays responsive meanwhile. Settings the box does not show (augmentation, the prior)
// are kept as last given, and so are the user's files while another dataset is shown.
#include <optional>
#include <string>
#include <vector>

#include <QGroupBox>

#include "core/experiment/settings/capability_check.h"
#include "core/experiment/settings/run_config.h"
#include "ui/files/data_files.h"
#include "ui/panel/data_selection_text.h"
#include "ui/panel/model_picker.h"
#include "ui/run/latest_job.h"

QT_BEGIN_NAMESPACE
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QPushButton;
class QWidget;
QT_END_NAMESPACE

namespace ui {

class ClassPairRow;
class TableOptionsRow;
class TestSplitRow;

class DatasetBox : public QGroupBox {
    Q_OBJECT
public:
    explicit DatasetBox(QWidget *parent = nullptr);

    /// Writes the dataset name and the logistic-regression data settings into `config`.
    void fillConfig(core::RunConfig &config) const;
    /// Shows `config`'s dataset. A named source that is not found here is offered as missing
    /// rather than replaced, so loading a session from another machine loses nothing.
    void applyConfig(const core::RunConfig &config);
    /// The logistic model's prior and bias, which the box keeps without showing them (a
    /// preset sets them).
    void setModel(const core::LogisticRegressionOptions &model) { m_spec.model = model; }
    /// Whether a user's table is standardised: a preset decides it with the model.
    void setStandardize(bool standardize);
    /// "gmm", "worst-case", "logreg", "tall-logreg", "tall-glm" or "glm".
    std::string dataset() const { return m_dataset; }
    /// What the model the selection samples offers (capability_check.h): the dataset's model,
    /// or the one the Model box chooses for tall-glm (a plugin's declarations included).
    const core::ModelOffer &modelOffer() const { return m_offer; }
    /// True for the generated data sets (mixture, worst case), whose size is N.
    bool isGenerated() const { return !readsFiles(); }
    /// What the presets tell apart: the dataset name, or "logreg-table" for a user's CSV file,
    /// which gets defaults of its own (T = 1, standardised features; core/experiment/settings/presets.h).
    std::string defaultsKind() const;
    /// Training rows of the selected real data once checked; 0 while unknown.
    qint64 trainingRows() const;
    /// Shows "Your file" with these files and checks them in the background.
    void selectFiles(const DataFileChoice &choice);
    const DataFileChoice &files() const { return m_files; }
    /// Whether a check of the selection is still running.
    bool isChecking() const { return m_checksRunning > 0; }
    /// File dialogs open only when interactive (tests and scripted runs turn it off).
    void setInteractive(bool interactive);
    /// Why a run cannot start with this selection ("Your file" without a complete file
    /// choice); empty when it can. Malformed contents are found by the check and by the run.
    QString runProblem() const;
    /// The loader's message when the selected file's check ended in an error; empty otherwise
    /// (no file, a check still running, or one that passed).
    QString failedCheck() const;
    /// Whether the user's files are all there and failedCheck() is about what they hold (a
    /// ragged CSV, a truncated IDX): a file the window should not offer again at its next start.
    bool failedOnContents() const;
    /// Writes into `config` the last data selection whose check passed (the dataset and its
    /// files), or the image source "auto" when none did: what a session keeps in place of a
    /// file that failed to load.
    void fillLastGoodData(core::RunConfig &config) const;
    /// One line on the selected data: its size and labels, or why it cannot be used.
    QString statusText() const;

    QComboBox *datasetCombo() const { return m_kind; }
    ModelPicker *modelCombo() const { return m_model; }
    QDoubleSpinBox *nuBox() const { return m_nu; }
    QDoubleSpinBox *noiseScaleBox() const { return m_noiseScale; }
    QComboBox *firstClassCombo() const;
    QComboBox *secondClassCombo() const;
    QPushButton *chooseButton() const { return m_choose; }
    TestSplitRow *testSplitRow() const { return m_split; }
    TableOptionsRow *tableOptionsRow() const { return m_table; }

public slots:
    /// Opens the file dialog for "Your file" (CSV, or IDX images and labels).
    void chooseFiles();

signals:
    /// The user picked another dataset (not emitted by applyConfig()).
    void datasetPicked();
    /// The user changed the data: another dataset, other files or other classes (never emitted
    /// by applyConfig() or by a finished background check).
    void userEdited();
    /// Any setting changed.
    void settingsChanged();
    /// A check of the selection ended: ok, or the loader's message (which names the file).
    void checked(bool ok, const QString &message);

private:
    void buildKindBox();
    QString currentKey() const;
    /// "Logistic: your file" or "Regression: your file" is shown.
    bool userFileShown() const;
    /// "Regression: your file" is shown (dataset "glm").
    bool isRegressionFile() const;
    /// The spec the table row shows: a regression's response column in place of the label's.
    core::LogisticDataSpec tableSpec() const;
    /// The settings a regression's file check reads the file with.
    core::RunConfig regressionCheckConfig() const;
    DataSelection selection() const;
    /// After the user picked a dataset or files: classes, background check, widgets, signals.
    void announcePick();
    QString keyFor(const core::RunConfig &config) const;
    int selectKey(const QString &key);
    const core::ImageSource *selectedSource() const;
    void onKindActivated();
    void onModelActivated();
    void startCheck();
    void fillClasses();
    void updateWidgets();
    void refreshModelOffer();

    QFormLayout *m_form = nullptr;
    QComboBox *m_kind = nullptr;
    ModelPicker *m_model = nullptr; // the model, for a dataset whose model is chosen (tall-glm)
    QDoubleSpinBox *m_nu = nullptr;         // the Student-t's degrees of freedom (robust linear)
    QDoubleSpinBox *m_noiseScale = nullptr; // the noise's sd or scale (linear, robust linear)
    core::GlmFamilySpec m_glm;     // as last given or chosen, shown or not
    std::string m_responseColumn;  // a regression's response column, kept beside the label's
    core::ModelOffer m_offer;      // what the model of m_dataset and m_glm offers
    ClassPairRow *m_classes = nullptr;
    TestSplitRow *m_split = nullptr;
    TableOptionsRow *m_table = nullptr;
    QPushButton *m_choose = nullptr;
    QLabel *m_status = nullptr;
    std::vector<core::ImageSource> m_sources;
    // Whether the dataset picked reads files (images or a user's table), not generated rows.
    bool readsFiles() const;
    std::string m_dataset = "gmm";
    core::LogisticDataSpec m_spec; // as last given or edited, shown or not
    DataFileChoice m_files;        // the user's files, kept across dataset switches
    DataProbe m_probe;
    std::optional<core::RunConfig> m_lastGood; // the last data that loaded: a check passed, or generated
    QString m_probeKey;            // the selection m_probe describes; empty when none
    LatestJob m_checks;            // answers of older checks are dropped
    int m_checksRunning = 0;
    bool m_loading = false;
    bool m_interactive = true;
};

} // namespace ui
