#include "ui/panel/method_texts.h"

#include <QCoreApplication>

namespace ui {
namespace {

QString translated(std::string_view text)
{
    return QCoreApplication::translate("ui::MethodTexts", std::string(text).c_str());
}

} // namespace

QVector<core::TestMethod> allMethods()
{
    QVector<core::TestMethod> methods;
    for (const core::MethodEntry &row : core::methodTable())
        methods.append(row.method);
    return methods;
}

QString methodLabel(core::TestMethod method)
{
    return translated(core::methodRow(method).label);
}

QString methodDescription(core::TestMethod method)
{
    return translated(core::methodRow(method).description);
}

} // namespace ui
