#pragma once
// The logistic-regression test split in the dataset box: the rows held out for testing (the
// paper's 1000, Seita et al. Sec. 6.2) and the largest share of the data they may take, so a
// small CSV file still leaves rows to train on. Sources with their own test files ignore it.
#include <QWidget>

#include "core/experiment/inputs/logistic_dataset.h"

QT_BEGIN_NAMESPACE
class QDoubleSpinBox;
class QSpinBox;
QT_END_NAMESPACE

namespace ui {

class TestSplitRow : public QWidget {
    Q_OBJECT
public:
    explicit TestSplitRow(QWidget *parent = nullptr);

    /// Shows the spec's test size and fraction without emitting edited().
    void apply(const core::LogisticDataSpec &spec);
    /// Writes the shown test size and fraction into `spec`.
    void fill(core::LogisticDataSpec &spec) const;

    QSpinBox *sizeBox() const { return m_size; }
    QDoubleSpinBox *fractionBox() const { return m_fraction; }

signals:
    void edited();

private:
    QSpinBox *m_size = nullptr;
    QDoubleSpinBox *m_fraction = nullptr;
    bool m_loading = false;
};

} // namespace ui
