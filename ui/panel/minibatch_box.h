#pragma once
// The minibatch-test settings of the control panel (Seita et al. Algorithm 1 and Sec. 5.1):
// the first minibatch size m, the rows added at each further look, and the CLT bound δ of
// Corollary 1 (0 switches it off); and the bound on AustereMH's acceptance error that chooses
// the baseline's design (Korattikara et al. Sec. D).
#include <QGroupBox>

#include "core/experiment/settings/run_config.h"

QT_BEGIN_NAMESPACE
class QDoubleSpinBox;
class QSpinBox;
QT_END_NAMESPACE

namespace ui {

class MinibatchBox : public QGroupBox {
    Q_OBJECT
public:
    explicit MinibatchBox(QWidget *parent = nullptr);

    /// Writes m, the growth and δ into `config`. Once the user has edited m, it is also the
    /// first batch of AustereMH(c) and MHSubLhd, as the CLI's --batch sets all three.
    void fillConfig(core::RunConfig &config) const;
    /// Shows `config`'s settings (values beyond a box's range are kept until edited).
    void applyConfig(const core::RunConfig &config);

    QSpinBox *batchBox() const { return m_batch; }
    QSpinBox *growthBox() const { return m_growth; }
    QDoubleSpinBox *deltaBox() const { return m_delta; }
    QDoubleSpinBox *austereBoundBox() const { return m_austereBound; }

signals:
    void settingsChanged();

private:
    QSpinBox *m_batch = nullptr;
    QSpinBox *m_growth = nullptr;
    QDoubleSpinBox *m_delta = nullptr;
    QDoubleSpinBox *m_austereBound = nullptr;
    double m_baseAustereBound = 0.0;
    core::MinibatchSettings m_base;
    bool m_batchEdited = false;
    bool m_loading = false;
};

} // namespace ui
