#include "ui/panel/test_split_row.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>

#include "ui/panel/setting_help.h"
#include "ui/panel/spin_box_values.h"

namespace ui {

TestSplitRow::TestSplitRow(QWidget *parent) : LogisticSpecRow(parent)
{
    m_size = integerBox(1, 10'000'000, 100);
    m_size->setToolTip(withSettingHelp(tr("Rows held out at random to measure test accuracy; the paper holds out 1000 "
                                          "(Seita et al. Sec. 6.2)."),
                                       "test_size"));
    m_fraction = realBox(2, 0.01, 0.99, 0.05);
    m_fraction->setToolTip(withSettingHelp(tr("At most this share of the rows is held out, so that small data keep rows "
                                              "to train on; 1000 of the paper's 13,007 MNIST rows (Sec. 6.2) are well "
                                              "below it."),
                                           "test_fraction"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_size, 3);
    layout->addWidget(new QLabel(tr("rows, at most")));
    layout->addWidget(m_fraction, 2);
    const auto changed = [this] { emitUnlessApplying(); };
    connect(m_size, &QSpinBox::valueChanged, this, changed);
    connect(m_fraction, &QDoubleSpinBox::valueChanged, this, changed);
    setFocusProxy(m_size);
}

void TestSplitRow::apply(const core::LogisticDataSpec &spec)
{
    m_applying = true;
    m_size->setValue(shownValue(m_size, spec.testSize));
    m_fraction->setValue(spec.testFraction);
    m_applying = false;
}

void TestSplitRow::fill(core::LogisticDataSpec &spec) const
{
    spec.testSize = static_cast<core::DataIndex>(keptValue(m_size, spec.testSize));
    spec.testFraction = keptValue(m_fraction, spec.testFraction);
}

} // namespace ui
