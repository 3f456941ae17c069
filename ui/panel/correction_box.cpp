#include "ui/panel/correction_box.h"

#include <algorithm>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSlider>

#include "core/experiment/settings/run_config.h"
#include "ui/charts/correction_plot_cache.h"
#include "ui/panel/slider_spin_box.h"
#include "ui/panel/spin_box_values.h"
#include "ui/panel/setting_help.h"

namespace ui {
namespace {

// σ must stay below the logistic's standard deviation sqrt(π²/3) ≈ 1.814.
constexpr double kMinSigma = 0.1, kMaxSigma = 1.8;
// The correction's L∞ CDF error is at most 1e-3 up to this σ (grid 4000, V = 20; λ = 10 for
// ridge), measured with `mh-explorer-cli correction --sigma S [--solver ridge]` in steps of
// 0.01: NNLS 9.3e-4 at 1.43, 1.05e-3 at 1.44 (2.0e-3 at 1.5, 0.021 at 1.8); ridge 9.0e-4 at
// 1.03, 1.04e-3 at 1.04. tst_control_panel re-solves both ends. Above it the test's acceptance
// probabilities are visibly off.
constexpr double kAccurateSigmaNnls = 1.43, kAccurateSigmaRidge = 1.03;

} // namespace

CorrectionBox::CorrectionBox(QWidget *parent) : QGroupBox(tr("Correction C_σ (minibatch test)"), parent)
{
    auto *sigma = realBox(2, kMinSigma, kMaxSigma, 0.05);
    sigma->setToolTip(withSettingHelp(tr("σ: standard deviation of the Gaussian part X_norm ~ N(0, σ²) of the test noise; the "
                           "minibatch grows until the variance of Δ* is below σ² (Seita et al. Sec. 4). Larger σ "
                           "allows smaller minibatches but a less accurate correction C_σ (appendix Table 3); σ must "
                           "stay below sqrt(π²/3) ≈ 1.81."), "sigma"));
    auto *lambda = realBox(3, 0.001, 1000.0, 1.0);
    lambda->setToolTip(withSettingHelp(tr("λ: ridge weight of the correction solve, Eq. 15 (Seita et al. Sec. 4); the paper uses "
                            "λ = 10, which gives an L∞ error of 8.9e-4 at σ = 1 (appendix Table 3). The NNLS solver "
                            "does not use it."), "lambda"));
    m_solver = narrowComboBox();
    m_solver->addItem(tr("NNLS (non-negative least squares)"), QStringLiteral("nnls"));
    m_solver->addItem(tr("ridge (the paper's Eq. 15)"), QStringLiteral("ridge"));
    m_solver->setToolTip(withSettingHelp(tr("How C_σ is solved: the paper's ridge regression with negative masses clipped (Sec. 4, "
                            "Eq. 15; L∞ ≈ 9e-4 at σ = 1, appendix Table 3) or non-negative least squares on the "
                            "same grid (L∞ ≈ 1e-7 at σ = 1)."), "solver"));
    m_sigmaSlider = new SliderSpinBox(sigma, tr("σ"), SliderSpinBox::Scale::Linear, kMinSigma, kMaxSigma);
    // The slider stops where the correction chart solves tables ahead (CorrectionPlotCache::
    // sliderSigmas(): multiples of 0.05), so a drag draws each new table at once.
    m_sigmaSlider->setLinearStep(0.05);
    m_sigmaWarning = new QLabel;
    m_sigmaWarning->setWordWrap(true);
    m_sigmaWarning->setStyleSheet(QStringLiteral("color: #b3261e;"));
    m_sigmaWarning->hide();
    auto *form = new QFormLayout(this);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("σ (&noise sd)"), m_sigmaSlider);
    form->addRow(m_sigmaWarning);
    m_lambdaSlider = new SliderSpinBox(lambda, tr("λ"), SliderSpinBox::Scale::Logarithmic, 0.001, 1000.0);
    // The slider stops where the correction chart solves ridge tables ahead
    // (CorrectionPlotCache::sliderLambdas(): 1, 2, 5 per decade), so a drag draws at once too.
    m_lambdaSlider->setStops(CorrectionPlotCache::sliderLambdas());
    form->addRow(tr("λ (ridge &weight)"), m_lambdaSlider);
    form->addRow(tr("Sol&ver"), m_solver);

    connect(sigmaBox(), &QDoubleSpinBox::valueChanged, this, [this] {
        updateSigmaWarning();
        if (!m_loading)
            emit edited(tr("σ"));
    });
    connect(lambdaBox(), &QDoubleSpinBox::valueChanged, this, [this] {
        if (!m_loading)
            emit edited(tr("λ"));
    });
    connect(m_solver, &QComboBox::currentIndexChanged, this, [this] {
        updateLambda();
        updateSigmaWarning();
        if (!m_loading)
            emit edited(tr("the solver"));
    });
    updateLambda();
    updateSigmaWarning();
}

QDoubleSpinBox *CorrectionBox::sigmaBox() const
{
    return static_cast<QDoubleSpinBox *>(m_sigmaSlider->spinBox());
}

QDoubleSpinBox *CorrectionBox::lambdaBox() const
{
    return static_cast<QDoubleSpinBox *>(m_lambdaSlider->spinBox());
}

core::CorrectionParams CorrectionBox::params(const core::CorrectionParams &base) const
{
    core::CorrectionParams params = base;
    params.sigma = keptValue(sigmaBox(), base.sigma);
    params.lambda = keptValue(lambdaBox(), base.lambda);
    params.solver = core::parseSolver(m_solver->currentData().toString().toStdString());
    return params;
}

void CorrectionBox::applyParams(const core::CorrectionParams &params)
{
    m_loading = true;
    sigmaBox()->setValue(params.sigma);
    lambdaBox()->setValue(params.lambda);
    m_solver->setCurrentIndex(std::max(m_solver->findData(QString::fromStdString(core::solverName(params.solver))), 0));
    m_loading = false;
    updateLambda();
    updateSigmaWarning();
}

void CorrectionBox::updateLambda()
{
    // NNLS has no ridge weight; greying λ out says so without losing its value.
    lambdaBox()->setEnabled(m_solver->currentData().toString() == QStringLiteral("ridge"));
}

double CorrectionBox::accurateSigmaLimit() const
{
    return m_solver->currentData().toString() == QStringLiteral("ridge") ? kAccurateSigmaRidge : kAccurateSigmaNnls;
}

bool CorrectionBox::sigmaWarningShown() const
{
    return !m_sigmaWarning->isHidden();
}

void CorrectionBox::updateSigmaWarning()
{
    const double limit = accurateSigmaLimit();
    m_sigmaSlider->setMarkedRange(kMinSigma, limit);
    m_sigmaSlider->slider()->setToolTip(
        wrappedToolTip(tr("σ from %L1 to %L2; the green band, up to σ = %L3 with this solver, is where the correction's "
                          "L∞ CDF error stays below 1e-3 (Seita et al. Sec. 4, appendix Table 3).")
                           .arg(kMinSigma)
                           .arg(kMaxSigma)
                           .arg(limit)));
    const double sigma = sigmaBox()->value();
    m_sigmaWarning->setText(
        tr("⚠ σ = %L1 is above %L2: the correction's L∞ CDF error exceeds 1e-3 here, so the test's acceptance "
           "probabilities are inaccurate (NNLS: L∞ 2e-3 at σ = 1.5, 0.021 at σ = 1.8, where the table's variance collapses to 0).")
            .arg(sigma)
            .arg(limit));
    m_sigmaWarning->setVisible(sigma > limit);
}

} // namespace ui
