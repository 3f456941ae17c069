#pragma once
// For a person to look at: MHX_SCREENSHOT_DIR=DIR keeps the window as the test left it.
#include <QString>
#include <QTest>
#include <QWidget>

#include "ui/files/window_picture.h"

namespace testruns {

inline void saveScreenshot(QWidget &window, const QString &name)
{
    const QString directory = qEnvironmentVariable("MHX_SCREENSHOT_DIR");
    if (!directory.isEmpty())
        QVERIFY(ui::settledPicture(window).save(directory + QLatin1Char('/') + name));
}

} // namespace testruns
