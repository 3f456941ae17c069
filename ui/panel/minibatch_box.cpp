#include "ui/panel/minibatch_box.h"

#include <limits>

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSpinBox>

#include "ui/panel/slider_spin_box.h"
#include "ui/panel/spin_box_values.h"
#include "ui/panel/setting_help.h"

namespace ui {

MinibatchBox::MinibatchBox(QWidget *parent) : QGroupBox(tr("Minibatch test"), parent)
{
    m_batch = integerBox(2, std::numeric_limits<int>::max(), 10);
    m_batch->setToolTip(withSettingHelp(tr("m: the size of the first minibatch of each test, also used by AustereMH(c) and MHSubLhd "
                           "once edited (Seita et al. Algorithm 1; Sec. 6.1 uses 100)."), "batch"));
    m_growth = integerBox(1, std::numeric_limits<int>::max(), 10);
    m_growth->setToolTip(withSettingHelp(tr("Rows added to the minibatch at each further look while the variance of Δ* is still "
                            "above σ² (Seita et al. Algorithm 1; Sec. 6.1 grows by 100)."), "batch_growth"));
    m_delta = realBox(4, 0.0, 10.0, 0.01);
    m_delta->setSpecialValueText(tr("off"));
    m_delta->setToolTip(withSettingHelp(tr("δ: also grow the batch until the CLT error bound ε = (6.4 E|X|³ + 2 E|X|)/√b is at most "
                           "δ (Seita et al. Sec. 5.1, Corollary 1); 0 switches the bound off, and δ = 0.01 needs "
                           "b ≥ 640,000."), "delta"));
    m_austereBound = realBox(4, 0.0, 0.5, 0.005);
    m_austereBound->setSpecialValueText(tr("off: m = 100, ε = 0.005"));
    m_austereBound->setToolTip(withSettingHelp(tr("Bound on AustereMH's mean acceptance-probability error |ΔP| (Korattikara et al. "
                                  "Sec. D; Seita et al. appendix C.2.1). Off, AustereMH(c) uses the paper's m = 100, "
                                  "ε = 0.005 (Sec. 6.1). Above 0 the design grid picks (m, ε): once from a pilot for "
                                  "austere-c, at every iteration for austere-nc, which needs it."), "error_bound"));
    auto *form = new QFormLayout(this);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    using Scale = SliderSpinBox::Scale;
    form->addRow(tr("First &batch m"), new SliderSpinBox(m_batch, tr("m"), Scale::Logarithmic, 2, 1e6));
    form->addRow(tr("&Growth per look"), new SliderSpinBox(m_growth, tr("The growth per look"), Scale::Logarithmic, 1, 1e6));
    form->addRow(tr("CLT bound δ"), m_delta);
    form->addRow(tr("AustereMH |ΔP| bound"), m_austereBound);

    auto edited = [this] {
        if (!m_loading)
            emit settingsChanged();
    };
    connect(m_batch, &QSpinBox::valueChanged, this, [this, edited] {
        if (!m_loading)
            m_batchEdited = true;
        edited();
    });
    connect(m_growth, &QSpinBox::valueChanged, this, edited);
    connect(m_delta, &QDoubleSpinBox::valueChanged, this, edited);
    connect(m_austereBound, &QDoubleSpinBox::valueChanged, this, edited);
    applyConfig(core::RunConfig{});
}

void MinibatchBox::fillConfig(core::RunConfig &config) const
{
    config.minibatch = m_base;
    config.minibatch.initialBatch = static_cast<core::DataIndex>(keptValue(m_batch, m_base.initialBatch));
    config.minibatch.batchGrowth = static_cast<core::DataIndex>(keptValue(m_growth, m_base.batchGrowth));
    config.minibatch.cltBound = keptValue(m_delta, m_base.cltBound);
    config.austereErrorBound = keptValue(m_austereBound, m_baseAustereBound);
    if (m_batchEdited) {
        config.austere.batch = config.minibatch.initialBatch;
        config.sublhd.batch = config.minibatch.initialBatch;
    }
}

void MinibatchBox::applyConfig(const core::RunConfig &config)
{
    m_loading = true;
    m_base = config.minibatch;
    m_batchEdited = false;
    m_batch->setValue(shownValue(m_batch, m_base.initialBatch));
    m_growth->setValue(shownValue(m_growth, m_base.batchGrowth));
    m_delta->setValue(m_base.cltBound);
    m_baseAustereBound = config.austereErrorBound;
    m_austereBound->setValue(config.austereErrorBound);
    m_loading = false;
}

} // namespace ui
