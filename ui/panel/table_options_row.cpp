#include "ui/panel/table_options_row.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QLabel>
#include <QStandardItemModel>

#include "ui/panel/setting_help.h"

namespace ui {
namespace {

// "0, 1" or "'cat', 'dog'", or the first three values and an ellipsis.
QString valuesText(const core::CsvColumnSummary &column)
{
    QStringList values;
    for (const std::string &value : column.values)
        values << QString::fromStdString(value);
    return column.values.size() > 2 ? QObject::tr("%1, …").arg(values.join(QStringLiteral(", ")))
                                    : values.join(QStringLiteral(", "));
}

// The choice that leaves the label (or a regression's response) to the reader's rule (csv_dataset.h).
QString automaticText(bool regression)
{
    return regression ? QObject::tr("Automatic: 'response' or 'y', else the first")
                      : QObject::tr("Automatic: 'label', else the first");
}

} // namespace

TableOptionsRow::TableOptionsRow(QWidget *parent) : LogisticSpecRow(parent)
{
    m_label = new QComboBox;
    m_label->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_label->setMinimumContentsLength(16);
    m_label->setToolTip(withSettingHelp(
        tr("The column that holds each row's class, the y of logistic regression (Seita et al. Sec. 6.2). Only "
           "columns with exactly two values can be the label; every other column is a feature."),
        "label_column"));
    m_standardize = new QCheckBox(tr("Standardize features"));
    m_standardize->setToolTip(withSettingHelp(
        tr("Centre each feature and divide it by its standard deviation, both from the training rows only, as the "
           "paper scales pixels to [0, 1] (Seita et al. Sec. 6.2): one step size and one N(0, I) prior then suit "
           "every feature. The means and sds are written into the samples file's header."),
        "standardize"));
    m_dropMissing = new QCheckBox(tr("Drop rows with missing values"));
    m_dropMissing->setToolTip(withSettingHelp(
        tr("Leave out the rows that have an empty field, NA, NaN, NULL or ?, and say how many; without it the check "
           "names the first such field (the model of Seita et al. Sec. 6.2 needs every feature)."),
        "drop_missing"));

    m_delimiter = new QComboBox;
    m_delimiter->addItem(tr("Automatic: , ; or tab"), QStringLiteral("auto"));
    m_delimiter->addItem(tr("Comma ,"), QStringLiteral(","));
    m_delimiter->addItem(tr("Semicolon ;"), QStringLiteral(";"));
    m_delimiter->addItem(tr("Tab"), QStringLiteral("tab"));
    m_delimiter->addItem(tr("Vertical bar |"), QStringLiteral("|"));
    m_delimiter->setToolTip(withSettingHelp(
        tr("What separates the fields of a line; each line is one example of the logistic regression (Seita et al. "
           "Sec. 6.2). Automatic takes the comma, semicolon or tab that the first line holds most of; a table "
           "written with decimal commas (1,5) is usually separated by semicolons."),
        "delimiter"));

    auto *layout = new QGridLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_labelCaption = new QLabel(tr("Label column"));
    layout->addWidget(m_labelCaption, 0, 0);
    layout->addWidget(m_label, 0, 1);
    layout->addWidget(new QLabel(tr("Fields separated by")), 1, 0);
    layout->addWidget(m_delimiter, 1, 1);
    layout->addWidget(m_standardize, 2, 0, 1, 2);
    layout->addWidget(m_dropMissing, 3, 0, 1, 2);
    layout->setColumnStretch(1, 1);
    showLabelColumn(QString());

    const auto changed = [this] { emitUnlessApplying(); };
    connect(m_label, &QComboBox::currentIndexChanged, this, changed);
    connect(m_standardize, &QCheckBox::toggled, this, changed);
    connect(m_dropMissing, &QCheckBox::toggled, this, changed);
    connect(m_delimiter, &QComboBox::currentIndexChanged, this, changed);
    setFocusProxy(m_label);
}

void TableOptionsRow::apply(const core::LogisticDataSpec &spec)
{
    m_applying = true;
    showLabelColumn(QString::fromStdString(spec.labelColumn));
    m_standardize->setChecked(spec.standardize);
    m_dropMissing->setChecked(spec.dropMissing);
    showDelimiter(QString::fromStdString(spec.delimiter));
    m_applying = false;
}

void TableOptionsRow::fill(core::LogisticDataSpec &spec) const
{
    spec.labelColumn = m_label->currentData().toString().toStdString();
    spec.standardize = m_standardize->isChecked();
    spec.dropMissing = m_dropMissing->isChecked();
    spec.delimiter = m_delimiter->currentData().toString().toStdString();
}

void TableOptionsRow::setColumns(const std::vector<core::CsvColumnSummary> &columns)
{
    const QString shown = m_label->currentData().toString();
    m_applying = true;
    m_columns = columns;
    m_label->clear();
    m_label->addItem(automaticText(m_regression), QString());
    auto *model = qobject_cast<QStandardItemModel *>(m_label->model());
    for (std::size_t k = 0; k < columns.size(); ++k) {
        const core::CsvColumnSummary &column = columns[k];
        // A header's name is what a session keeps; a file without one is chosen by number.
        const bool named = column.name != "column " + std::to_string(k + 1);
        const QString value = named ? QString::fromStdString(column.name) : QString::number(k + 1);
        m_label->addItem(tr("%1 (%2)").arg(QString::fromStdString(column.name), valuesText(column)), value);
        if (m_regression ? !column.numeric : !column.binary()) {
            model->item(m_label->count() - 1)->setEnabled(false);
            m_label->setItemData(m_label->count() - 1,
                                 m_regression ? tr("Not a response: it holds text.")
                                              : tr("Not a label: it has more than two values."),
                                 Qt::ToolTipRole);
        }
    }
    showLabelColumn(shown);
    m_applying = false;
}

void TableOptionsRow::showDelimiter(const QString &delimiter)
{
    const QString value = delimiter.isEmpty() ? QStringLiteral("auto") : delimiter;
    int index = m_delimiter->findData(value);
    if (index < 0) {
        m_delimiter->addItem(tr("'%1'").arg(value), value);
        index = m_delimiter->count() - 1;
    }
    m_delimiter->setCurrentIndex(index);
}

void TableOptionsRow::showLabelColumn(const QString &labelColumn)
{
    int index = m_label->findData(labelColumn);
    if (index < 0) {
        m_label->addItem(labelColumn.isEmpty() ? automaticText(m_regression)
                                               : tr("%1 (not checked yet)").arg(labelColumn),
                         labelColumn);
        index = m_label->count() - 1;
    }
    m_label->setCurrentIndex(index);
}

void TableOptionsRow::setRegression(bool regression)
{
    if (regression == m_regression)
        return;
    m_regression = regression;
    m_labelCaption->setText(regression ? tr("Response column") : tr("Label column"));
    m_label->setToolTip(withSettingHelp(
        regression ? tr("The column that holds each row's response y: a count for Poisson regression, 0 or 1 for "
                        "probit, any number for the linear models. Every other column is a feature.")
                   : tr("The column that holds each row's class, the y of logistic regression (Seita et al. Sec. 6.2). "
                        "Only columns with exactly two values can be the label; every other column is a feature."),
        regression ? "response_column" : "label_column"));
    // The same columns, judged by the other rule (numbers or two values).
    const QString shown = m_label->currentData().toString();
    setColumns(std::vector<core::CsvColumnSummary>(m_columns));
    if (m_columns.empty()) {
        m_applying = true;
        m_label->clear();
        showLabelColumn(shown);
        m_applying = false;
    }
}

} // namespace ui
