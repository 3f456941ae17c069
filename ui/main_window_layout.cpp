// The window's geometry and its status line: a first size that fits the screen, a panel never
// narrower than its form, and status messages elided to the width they have.
#include "ui/main_window.h"

#include <algorithm>

#include <QEvent>
#include <QGuiApplication>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QStatusBar>

#include "ui/panel/control_panel.h"
#include "ui/panel/setting_help.h"

namespace ui {

void MainWindow::fitToScreen(int scrollBarWidth)
{
    // The panel as wide as its form needs, the charts the rest. The window starts at 1280 × 800
    // but never larger than the screen's available area (at QT_SCALE_FACTOR = 1.5 a 1366 × 768
    // screen offers 910 × 512 device-independent pixels).
    // On a narrow screen the panel starts at its minimum width, so the charts and the
    // diagnostics table get the rest; the splitter gives it back.
    const int preferred = m_controls->sizeHint().width() + scrollBarWidth + 4;
    const int least = std::min(leastPanelWidth(), preferred);
    QSize size(1280, 800);
    if (const QScreen *screen = this->screen() ? this->screen() : QGuiApplication::primaryScreen()) {
        const QRect available = screen->availableGeometry();
        size = size.boundedTo(QSize(available.width() * 95 / 100, available.height() * 92 / 100));
    }
    resize(size);
    // Never narrower than the form's minimum: below it the boxes would be cut and scroll
    // sideways, and the charts' pages scroll instead.
    m_splitter->widget(0)->setMinimumWidth(leastPanelWidth());
    const int panelWidth = std::min(std::clamp(size.width() * 36 / 100, least, preferred), size.width() / 2);
    m_splitter->setSizes({panelWidth, size.width() - panelWidth});
}

int MainWindow::leastPanelWidth() const
{
    const auto *form = findChild<QScrollArea *>(QStringLiteral("formScroll"));
    return m_controls->minimumSizeHint().width() + (form ? form->verticalScrollBar()->sizeHint().width() : 0) + 4;
}

bool MainWindow::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_controls && event->type() == QEvent::LayoutRequest && m_splitter) {
        QWidget *panel = m_splitter->widget(0);
        if (const int least = leastPanelWidth(); panel->minimumWidth() != least)
            panel->setMinimumWidth(least);
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::showStatus(const QString &message)
{
    m_statusText = message;
    showStatusElided();
}

void MainWindow::showStatusElided()
{
    // QStatusBar clips a long message mid-word: elide it with "…" instead, whole in the tooltip.
    const int width = std::max(statusBar()->width() - 24, 80);
    statusBar()->showMessage(statusBar()->fontMetrics().elidedText(m_statusText, Qt::ElideRight, width));
    statusBar()->setToolTip(wrappedToolTip(m_statusText));
}

void MainWindow::resizeEvent(QResizeEvent *event)
{
    QMainWindow::resizeEvent(event);
    if (!m_statusText.isEmpty() && statusBar()->currentMessage() != QString())
        showStatusElided();
}

} // namespace ui
