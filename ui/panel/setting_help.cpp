#include "ui/panel/setting_help.h"

#include <QCoreApplication>
#include <QTextDocument>
#include <QWidget>

#include "core/experiment/settings/settings_table.h"

namespace ui {

QString withSettingHelp(const QString &tooltip, std::string_view key)
{
    const core::SettingSpec *spec = core::findSettingByKey(key);
    if (!spec)
        return wrappedToolTip(tooltip);
    const QString flag = spec->flag.empty() ? QString() : QStringLiteral(" --%1").arg(QString::fromStdString(spec->flag));
    return wrappedToolTip(QCoreApplication::translate("ui::SettingHelp", "%1\n\nSetting “%2” (command line%3): %4.")
                              .arg(tooltip, QString::fromStdString(spec->key), flag, QString::fromStdString(spec->help)));
}

QString wrappedToolTip(const QString &text)
{
    if (text.isEmpty() || Qt::mightBeRichText(text))
        return text;
    // Only '&' and '<' start markup; '>' stays as written ("m >= 2" reads the same in both).
    QString html = text;
    html.replace(QLatin1Char('&'), QLatin1String("&amp;"))
        .replace(QLatin1Char('<'), QLatin1String("&lt;"))
        .replace(QLatin1Char('\n'), QLatin1String("<br>"));
    return QLatin1String("<qt>") + html + QLatin1String("</qt>");
}

void wrapToolTips(QWidget *root)
{
    QList<QWidget *> widgets = root->findChildren<QWidget *>();
    widgets.prepend(root);
    for (QWidget *widget : widgets)
        if (!widget->toolTip().isEmpty())
            widget->setToolTip(wrappedToolTip(widget->toolTip()));
}

} // namespace ui
