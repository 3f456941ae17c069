#pragma once
// The correction settings of the control panel (Seita et al. Sec. 4): σ of the Gaussian part
// of the test noise, the ridge weight λ of Eq. 15 and the solver. λ is greyed out while the
// NNLS solver, which has no ridge term, is chosen.
#include <QGroupBox>

#include "core/correction/correction_distribution.h"

QT_BEGIN_NAMESPACE
class QComboBox;
class QDoubleSpinBox;
class QLabel;
QT_END_NAMESPACE

namespace ui {

class SliderSpinBox;

class CorrectionBox : public QGroupBox {
    Q_OBJECT
public:
    explicit CorrectionBox(QWidget *parent = nullptr);

    /// The settings shown, on top of `base` (grid, range… which the box does not show; values
    /// beyond a box's range or decimals are kept until edited).
    core::CorrectionParams params(const core::CorrectionParams &base) const;
    /// Shows `params` without emitting edited().
    void applyParams(const core::CorrectionParams &params);

    QDoubleSpinBox *sigmaBox() const;
    QDoubleSpinBox *lambdaBox() const;
    QComboBox *solverBox() const { return m_solver; }
    SliderSpinBox *sigmaSlider() const { return m_sigmaSlider; }
    SliderSpinBox *lambdaSlider() const { return m_lambdaSlider; }
    /// The largest σ whose correction, with the chosen solver, has an L∞ CDF error ≤ 1e-3.
    double accurateSigmaLimit() const;
    /// Whether the warning beside σ (the correction is inaccurate at this σ) is shown.
    bool sigmaWarningShown() const;

signals:
    /// The user changed a setting; `setting` names it ("σ", "λ", "the solver").
    void edited(const QString &setting);

private:
    void updateLambda();
    void updateSigmaWarning();

    // The σ and λ spin boxes are the sliders' boxes.
    SliderSpinBox *m_sigmaSlider = nullptr;
    SliderSpinBox *m_lambdaSlider = nullptr;
    QLabel *m_sigmaWarning = nullptr;
    QComboBox *m_solver = nullptr;
    bool m_loading = false;
};

} // namespace ui
