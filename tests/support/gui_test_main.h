#pragma once
// main() for the GUI suites: QTEST_MAIN's, with the application that makes queued hand-offs
// between threads visible to ThreadSanitizer in a TSan build (ui/run/queued_hand_off.h). In every
// other build HandOffApplication is QApplication and this is QTEST_MAIN.
#include <QtTest>

#include "ui/run/queued_hand_off.h"

#define MHX_GUI_TEST_MAIN(TestObject)                                                                                 \
    int main(int argc, char *argv[])                                                                                  \
    {                                                                                                                 \
        ui::HandOffApplication app(argc, argv);                                                                       \
        app.setAttribute(Qt::AA_Use96Dpi, true);                                                                      \
        TestObject tc;                                                                                                \
        QTEST_SET_MAIN_SOURCE_PATH                                                                                    \
        return QTest::qExec(&tc, argc, argv);                                                                         \
    }
