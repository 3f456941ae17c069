#pragma once
// How a user's table becomes a classification problem, in the dataset box: which column is the
// label (chosen from the columns the file check found; only those with two values can be), what
// separates the fields, and whether the features are standardised on the training rows and rows
// with a missing value dropped. Shown only for a CSV file; the images need none of it.
#include <vector>

#include "core/data/csv_dataset.h"
#include "ui/panel/logistic_spec_row.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QLabel;
QT_END_NAMESPACE

namespace ui {

class TableOptionsRow : public LogisticSpecRow {
    Q_OBJECT
public:
    explicit TableOptionsRow(QWidget *parent = nullptr);

    /// A label column the file check has not listed yet is shown as given.
    void apply(const core::LogisticDataSpec &spec) override;
    void fill(core::LogisticDataSpec &spec) const override;
    /// The columns the file check found: each becomes a choice, enabled when it has exactly two
    /// values. Keeps the shown choice when the new columns still hold it.
    void setColumns(const std::vector<core::CsvColumnSummary> &columns);
    /// A regression's table: the chosen column is the numeric response (any column of numbers
    /// can be), not a label with two values. The caller keeps the two columns apart.
    void setRegression(bool regression);
    bool isRegression() const { return m_regression; }

    QComboBox *labelColumnCombo() const { return m_label; }
    QCheckBox *standardizeBox() const { return m_standardize; }
    QCheckBox *dropMissingBox() const { return m_dropMissing; }
    QComboBox *delimiterCombo() const { return m_delimiter; }

private:
    /// Selects the choice whose setting text is `labelColumn`, adding it when absent.
    void showLabelColumn(const QString &labelColumn);
    /// Selects the choice whose setting text is `delimiter` ("auto", "tab" or one character),
    /// adding it when absent.
    void showDelimiter(const QString &delimiter);

    bool m_regression = false;
    std::vector<core::CsvColumnSummary> m_columns; // as the last file check found them
    QLabel *m_labelCaption = nullptr;
    QComboBox *m_label = nullptr;
    QCheckBox *m_standardize = nullptr;
    QCheckBox *m_dropMissing = nullptr;
    QComboBox *m_delimiter = nullptr;
};

} // namespace ui
