#pragma once
// A picture of a window as a person would see it once its layout has settled.
#include <QCoreApplication>
#include <QEvent>
#include <QPixmap>
#include <QWidget>

namespace ui {

/// Grabs `window` after delivering its pending layout requests. A label that grew (a wrapped
/// notice) asks its parents for room one level at a time, through posted events: grabbed before
/// they arrive, the window shows the label cut by its old height.
inline QPixmap settledPicture(QWidget &window)
{
    for (int level = 0; level < 8; ++level)
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    return window.grab();
}

} // namespace ui
