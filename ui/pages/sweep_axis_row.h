#pragma once
// The first row of the Trade-offs tab: which setting a sweep varies, over which range, at how
// many points and with what spacing (core::SweepAxis). Choosing another setting suggests a
// range around the form's value of it.
#include <string>

#include <QWidget>

#include "core/experiment/settings/settings_table.h"
#include "core/experiment/sweep/sweep.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QLineEdit;
class QSpinBox;
QT_END_NAMESPACE

namespace ui {

/// A setting's value as a number; NaN for a text setting.
double settingNumber(const core::SettingValue &value);

class SweepAxisRow : public QWidget {
    Q_OBJECT
public:
    explicit SweepAxisRow(QWidget *parent = nullptr);

    /// Shows `axis`. A setting that cannot be swept on the dataset is shown all the same, so
    /// that the sweep's validation names it.
    void setAxis(const core::SweepAxis &axis);
    /// The axis shown (not validated: an unreadable bound is NaN).
    core::SweepAxis axis() const;
    /// Offers the settings that can be swept on `dataset`, keeping the chosen one when it is
    /// still among them.
    void offerSettings(const std::string &dataset);
    /// The chosen setting's entry in the settings table; null when none is chosen.
    const core::SettingSpec *setting() const;
    /// Sensible bounds for the chosen setting: σ's useful range, else half to twice its value
    /// in `config`.
    void suggestBounds(const core::RunConfig &config);
    /// Ticks "step 1/√N per point" where `config`'s step is its preset's 1/√N, as the command
    /// line's sweep does when no step is given (core::SweepRequest::stepFollowsDataSize).
    void suggestStepRule(const core::RunConfig &config);
    /// The axis is n-data and each point takes the step 1/√N at its own N.
    bool stepFollowsDataSize() const;

signals:
    /// The user chose another setting to vary.
    void settingChosen();

private:
    QComboBox *m_setting = nullptr;
    QLineEdit *m_from = nullptr;
    QLineEdit *m_to = nullptr;
    QSpinBox *m_count = nullptr;
    QCheckBox *m_log = nullptr;
    QCheckBox *m_stepFollowsN = nullptr; ///< shown on an n-data axis only

    bool variesDataSize() const;
    void showStepRule();
};

} // namespace ui
