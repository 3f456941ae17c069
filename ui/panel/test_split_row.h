#pragma once
// The logistic-regression test split in the dataset box: the rows held out for testing (the
// paper's 1000, Seita et al. Sec. 6.2) and the largest share of the data they may take, so a
// small CSV file still leaves rows to train on. Sources with their own test files ignore it.
#include <QSpinBox> // QSpinBox and QDoubleSpinBox, which the getters return

#include "ui/panel/logistic_spec_row.h"

namespace ui {

class TestSplitRow : public LogisticSpecRow {
    Q_OBJECT
public:
    explicit TestSplitRow(QWidget *parent = nullptr);

    void apply(const core::LogisticDataSpec &spec) override;
    void fill(core::LogisticDataSpec &spec) const override;

    QSpinBox *sizeBox() const { return m_size; }
    QDoubleSpinBox *fractionBox() const { return m_fraction; }

private:
    QSpinBox *m_size = nullptr;
    QDoubleSpinBox *m_fraction = nullptr;
};

} // namespace ui
