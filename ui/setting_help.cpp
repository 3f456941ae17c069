#include "ui/setting_help.h"

#include <QCoreApplication>

#include "core/experiment/settings_table.h"

namespace ui {

QString withSettingHelp(const QString &tooltip, std::string_view key)
{
    const core::SettingSpec *spec = core::findSettingByKey(key);
    if (!spec)
        return tooltip;
    const QString flag = spec->flag.empty() ? QString() : QStringLiteral(" --%1").arg(QString::fromStdString(spec->flag));
    return QCoreApplication::translate("ui::SettingHelp", "%1\n\nSetting “%2” (command line%3): %4.")
        .arg(tooltip, QString::fromStdString(spec->key), flag, QString::fromStdString(spec->help));
}

} // namespace ui
