#include "ui/wheel_guard.h"

#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QEvent>
#include <QWidget>

namespace ui {

WheelGuard::WheelGuard(QObject *parent) : QObject(parent) {}

void WheelGuard::guardChildren(QWidget *root)
{
    auto *guard = new WheelGuard(root);
    QList<QWidget *> widgets = root->findChildren<QWidget *>();
    widgets.prepend(root);
    for (QWidget *widget : widgets) {
        if (!qobject_cast<QAbstractSpinBox *>(widget) && !qobject_cast<QComboBox *>(widget)
            && !qobject_cast<QAbstractSlider *>(widget))
            continue;
        widget->setFocusPolicy(Qt::StrongFocus);
        widget->installEventFilter(guard);
    }
}

bool WheelGuard::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Wheel) {
        if (auto *widget = qobject_cast<QWidget *>(watched); widget && !widget->hasFocus()) {
            // Ignored and filtered: QApplication then offers the event to the parents, and the
            // scroll area around the form scrolls.
            event->ignore();
            return true;
        }
    }
    return QObject::eventFilter(watched, event);
}

} // namespace ui
