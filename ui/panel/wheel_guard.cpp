#include "ui/panel/wheel_guard.h"

#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QCoreApplication>
#include <QWheelEvent>
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
            // The scroll area around the form scrolls instead. Handed to it directly: whether
            // QApplication passes an ignored wheel event on to the parents depends on how the
            // event arrived.
            for (QWidget *parent = widget->parentWidget(); parent; parent = parent->parentWidget()) {
                auto *area = qobject_cast<QAbstractScrollArea *>(parent);
                if (!area)
                    continue;
                const auto *wheel = static_cast<QWheelEvent *>(event);
                const QPointF at = area->viewport()->mapFromGlobal(wheel->globalPosition());
                QWheelEvent passed(at, wheel->globalPosition(), wheel->pixelDelta(), wheel->angleDelta(),
                                   wheel->buttons(), wheel->modifiers(), wheel->phase(), wheel->inverted(),
                                   wheel->source());
                QCoreApplication::sendEvent(area->viewport(), &passed);
                break;
            }
            return true;
        }
    }
    return QObject::eventFilter(watched, event);
}

} // namespace ui
