#include "ui/panel/class_pair_row.h"

#include <QHBoxLayout>
#include <QLabel>

namespace ui {

ClassPairRow::ClassPairRow(QWidget *parent) : LogisticSpecRow(parent)
{
    m_first = new QComboBox;
    m_first->setToolTip(tr("The class that becomes label 0; the paper tells MNIST 1s from 7s (Seita et al. Sec. 6.2)."));
    m_second = new QComboBox;
    m_second->setToolTip(tr("The class that becomes label 1; the paper uses digit 7 (Seita et al. Sec. 6.2)."));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_first, 1);
    layout->addWidget(new QLabel(tr("vs")));
    layout->addWidget(m_second, 1);
    for (QComboBox *box : {m_first, m_second})
        connect(box, &QComboBox::currentIndexChanged, this, [this] { emitUnlessApplying(); });
    setFocusProxy(m_first);
}

void ClassPairRow::setChoices(const QList<Choice> &choices)
{
    m_applying = true;
    for (QComboBox *box : {m_first, m_second}) {
        box->clear();
        for (const auto &[value, name] : choices)
            box->addItem(name, value);
    }
    m_applying = false;
}

void ClassPairRow::apply(const core::LogisticDataSpec &spec)
{
    m_applying = true;
    m_first->setCurrentIndex(m_first->findData(spec.classes.first));
    m_second->setCurrentIndex(m_second->findData(spec.classes.second));
    m_applying = false;
}

void ClassPairRow::fill(core::LogisticDataSpec &spec) const
{
    if (m_first->currentIndex() >= 0 && m_second->currentIndex() >= 0)
        spec.classes = {m_first->currentData().toInt(), m_second->currentData().toInt()};
}

} // namespace ui
