#pragma once
// The two classes of a labelled image source that become labels 0 and 1, in the dataset box:
// the paper tells MNIST 1s from 7s (Seita et al. Sec. 6.2).
#include <utility>

#include <QComboBox>
#include <QList>

#include "ui/panel/logistic_spec_row.h"

namespace ui {

class ClassPairRow : public LogisticSpecRow {
    Q_OBJECT
public:
    /// A class's number and the name shown for it.
    using Choice = std::pair<int, QString>;

    explicit ClassPairRow(QWidget *parent = nullptr);

    /// Offers `choices` in both boxes, emitting nothing; apply() then selects a pair.
    void setChoices(const QList<Choice> &choices);
    void apply(const core::LogisticDataSpec &spec) override;
    /// Writes the selected pair into `spec`; nothing while a box has no selection.
    void fill(core::LogisticDataSpec &spec) const override;

    QComboBox *firstCombo() const { return m_first; }
    QComboBox *secondCombo() const { return m_second; }

private:
    QComboBox *m_first = nullptr;
    QComboBox *m_second = nullptr;
};

} // namespace ui
