#include "ui/pages/sweep_axis_row.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <variant>

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStringList>

#include "ui/panel/spin_box_values.h"

namespace ui {
namespace {

QString number(double value)
{
    return QString::number(value, 'g', 6);
}

} // namespace

double settingNumber(const core::SettingValue &value)
{
    return std::visit(
        [](const auto &v) -> double {
            using V = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<V, std::string>)
                return std::nan("");
            else
                return static_cast<double>(v);
        },
        value);
}

SweepAxisRow::SweepAxisRow(QWidget *parent) : QWidget(parent)
{
    m_setting = new QComboBox;
    m_setting->setToolTip(tr("The setting to vary; every other setting is the form's."));
    m_from = new QLineEdit(QStringLiteral("0.4"));
    m_to = new QLineEdit(QStringLiteral("1.7"));
    m_from->setObjectName(QStringLiteral("sweepFrom"));
    m_to->setObjectName(QStringLiteral("sweepTo"));
    for (QLineEdit *edit : {m_from, m_to})
        edit->setMaximumWidth(90);
    m_count = integerBox(2, core::SweepRequest::kMaxPoints, 1);
    m_count->setValue(8);
    m_count->setAccessibleName(tr("Points"));
    m_count->setObjectName(QStringLiteral("sweepCount"));
    m_log = new QCheckBox(tr("Log spacing"));
    m_stepFollowsN = new QCheckBox(tr("Step 1/√N per point"));
    m_stepFollowsN->setObjectName(QStringLiteral("sweepStepFollowsN"));
    m_stepFollowsN->setToolTip(tr("Each point runs at the step 1/√N of its own N, as a run at that N would with the "
                                  "preset's step (on tall data and the worst case the posterior's width shrinks like "
                                  "1/√N, and so do a random walk's step and a Zig-Zag's spacing). Unticked, every "
                                  "point runs at the form's step."));

    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel(tr("Vary")));
    row->addWidget(m_setting);
    row->addWidget(new QLabel(tr("from")));
    row->addWidget(m_from);
    row->addWidget(new QLabel(tr("to")));
    row->addWidget(m_to);
    row->addWidget(new QLabel(tr("points")));
    row->addWidget(m_count);
    row->addWidget(m_log);
    row->addWidget(m_stepFollowsN);
    row->addStretch(1);

    connect(m_setting, &QComboBox::currentIndexChanged, this, &SweepAxisRow::showStepRule);
    connect(m_setting, &QComboBox::currentIndexChanged, this, &SweepAxisRow::settingChosen);
    showStepRule();
}

bool SweepAxisRow::variesDataSize() const
{
    const core::SettingSpec *spec = setting();
    return spec && spec->flag == "n-data";
}

void SweepAxisRow::showStepRule()
{
    m_stepFollowsN->setVisible(variesDataSize());
}

void SweepAxisRow::suggestStepRule(const core::RunConfig &config)
{
    m_stepFollowsN->setChecked(core::stepIsInverseRootOfDataSize(config));
}

bool SweepAxisRow::stepFollowsDataSize() const
{
    return variesDataSize() && m_stepFollowsN->isChecked();
}

void SweepAxisRow::offerSettings(const std::string &dataset)
{
    const QString current = m_setting->count() > 0 ? m_setting->currentData().toString() : QStringLiteral("sigma");
    QStringList keys;
    for (const core::SettingSpec *spec : core::sweepableSettings(dataset))
        keys.append(QString::fromStdString(spec->key));
    QStringList shown;
    for (int i = 0; i < m_setting->count(); ++i)
        shown.append(m_setting->itemData(i).toString());
    if (keys == shown)
        return;
    const QSignalBlocker quiet(m_setting);
    m_setting->clear();
    for (const QString &key : keys)
        m_setting->addItem(key, key);
    m_setting->setCurrentIndex(std::max<int>(0, static_cast<int>(keys.indexOf(current))));
    showStepRule();
}

const core::SettingSpec *SweepAxisRow::setting() const
{
    return core::findSettingByKey(m_setting->currentData().toString().toStdString());
}

void SweepAxisRow::suggestBounds(const core::RunConfig &config)
{
    suggestStepRule(config);
    const core::SettingSpec *spec = setting();
    if (spec && spec->key == "sigma") {
        m_from->setText(QStringLiteral("0.4"));
        m_to->setText(QStringLiteral("1.7"));
    } else if (spec) {
        const double value = settingNumber(spec->get(config));
        if (std::isfinite(value) && value > 0.0) {
            m_from->setText(number(value / 2.0));
            m_to->setText(number(value * 2.0));
        }
    }
}

void SweepAxisRow::setAxis(const core::SweepAxis &axis)
{
    // The combo lists keys; the axis may name the command-line flag.
    QString key = QString::fromStdString(axis.setting);
    for (const core::SettingSpec &spec : core::settingsTable())
        if (spec.flag == axis.setting)
            key = QString::fromStdString(spec.key);
    int index = m_setting->findData(key);
    if (index < 0) {
        m_setting->addItem(key, key);
        index = m_setting->count() - 1;
    }
    m_setting->setCurrentIndex(index);
    m_from->setText(number(axis.from));
    m_to->setText(number(axis.to));
    m_count->setValue(axis.count);
    m_log->setChecked(axis.logSpacing);
    showStepRule();
}

core::SweepAxis SweepAxisRow::axis() const
{
    core::SweepAxis axis;
    axis.setting = m_setting->currentData().toString().toStdString();
    bool fromOk = false, toOk = false;
    axis.from = m_from->text().trimmed().toDouble(&fromOk);
    axis.to = m_to->text().trimmed().toDouble(&toOk);
    // Unreadable bounds become NaN, which validate() refuses with a message naming the setting.
    if (!fromOk)
        axis.from = std::numeric_limits<double>::quiet_NaN();
    if (!toOk)
        axis.to = std::numeric_limits<double>::quiet_NaN();
    axis.count = m_count->value();
    axis.logSpacing = m_log->isChecked();
    return axis;
}

} // namespace ui
