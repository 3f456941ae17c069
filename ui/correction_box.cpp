#include "ui/correction_box.h"

#include <algorithm>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>

#include "core/experiment/run_config.h"
#include "ui/spin_box_values.h"
#include "ui/setting_help.h"

namespace ui {
namespace {

// σ must stay below the logistic's standard deviation sqrt(π²/3) ≈ 1.814.
constexpr double kMinSigma = 0.1, kMaxSigma = 1.8;

} // namespace

CorrectionBox::CorrectionBox(QWidget *parent) : QGroupBox(tr("Correction C_σ (minibatch test)"), parent)
{
    m_sigma = new QDoubleSpinBox;
    m_sigma->setDecimals(2);
    m_sigma->setRange(kMinSigma, kMaxSigma);
    m_sigma->setSingleStep(0.05);
    m_sigma->setToolTip(withSettingHelp(tr("σ: standard deviation of the Gaussian part X_norm ~ N(0, σ²) of the test noise; the "
                           "minibatch grows until the variance of Δ* is below σ² (Seita et al. Sec. 4). Larger σ "
                           "allows smaller minibatches but a less accurate correction C_σ (appendix Table 3); σ must "
                           "stay below sqrt(π²/3) ≈ 1.81."), "sigma"));
    m_lambda = new QDoubleSpinBox;
    m_lambda->setDecimals(3);
    m_lambda->setRange(0.001, 1000.0);
    m_lambda->setSingleStep(1.0);
    m_lambda->setToolTip(withSettingHelp(tr("λ: ridge weight of the correction solve, Eq. 15 (Seita et al. Sec. 4); the paper uses "
                            "λ = 10, which gives an L∞ error of 8.9e-4 at σ = 1 (appendix Table 3). The NNLS solver "
                            "does not use it."), "lambda"));
    m_solver = new QComboBox;
    m_solver->addItem(tr("NNLS (non-negative least squares)"), QStringLiteral("nnls"));
    m_solver->addItem(tr("ridge (the paper's Eq. 15)"), QStringLiteral("ridge"));
    m_solver->setToolTip(withSettingHelp(tr("How C_σ is solved: the paper's ridge regression with negative masses clipped (Sec. 4, "
                            "Eq. 15; L∞ ≈ 9e-4 at σ = 1, appendix Table 3) or non-negative least squares on the "
                            "same grid (L∞ ≈ 1e-7 at σ = 1)."), "solver"));
    auto *form = new QFormLayout(this);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("&σ (noise sd)"), m_sigma);
    form->addRow(tr("&λ (ridge)"), m_lambda);
    form->addRow(tr("S&olver"), m_solver);

    connect(m_sigma, &QDoubleSpinBox::valueChanged, this, [this] {
        if (!m_loading)
            emit edited(tr("σ"));
    });
    connect(m_lambda, &QDoubleSpinBox::valueChanged, this, [this] {
        if (!m_loading)
            emit edited(tr("λ"));
    });
    connect(m_solver, &QComboBox::currentIndexChanged, this, [this] {
        updateLambda();
        if (!m_loading)
            emit edited(tr("the solver"));
    });
    updateLambda();
}

core::CorrectionParams CorrectionBox::params(const core::CorrectionParams &base) const
{
    core::CorrectionParams params = base;
    params.sigma = keptValue(m_sigma, base.sigma);
    params.lambda = keptValue(m_lambda, base.lambda);
    params.solver = core::parseSolver(m_solver->currentData().toString().toStdString());
    return params;
}

void CorrectionBox::applyParams(const core::CorrectionParams &params)
{
    m_loading = true;
    m_sigma->setValue(params.sigma);
    m_lambda->setValue(params.lambda);
    m_solver->setCurrentIndex(std::max(m_solver->findData(QString::fromStdString(core::solverName(params.solver))), 0));
    m_loading = false;
    updateLambda();
}

void CorrectionBox::updateLambda()
{
    // NNLS has no ridge weight; greying λ out says so without losing its value.
    m_lambda->setEnabled(m_solver->currentData().toString() == QStringLiteral("ridge"));
}

} // namespace ui
