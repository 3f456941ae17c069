#pragma once
// A chart's redraw put off and coalesced: new points schedule() it, and it runs at most once
// an interval, and only while the chart is visible. Replacing 5k-point lines nobody sees would
// take GUI-thread time from the visible charts; a hidden chart catches up when it is shown.
#include <functional>

#include <QEvent>
#include <QTimer>
#include <QWidget>

namespace ui {

class DeferredRedraw : public QObject {
public:
    /// `redraw` is the chart's flush(); it should cancel() what is scheduled, since an export
    /// flushes at once.
    DeferredRedraw(QWidget *chart, int intervalMs, std::function<void()> redraw)
        : m_chart(chart), m_redraw(std::move(redraw))
    {
        m_timer.setSingleShot(true);
        m_timer.setInterval(intervalMs);
        connect(&m_timer, &QTimer::timeout, this, [this] {
            if (m_chart->isVisible())
                m_redraw();
        });
        chart->installEventFilter(this);
    }

    /// New points arrived: redraw within the interval, unless a redraw is already due.
    void schedule()
    {
        if (!m_timer.isActive())
            m_timer.start();
    }
    void cancel() { m_timer.stop(); }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == m_chart && event->type() == QEvent::Show)
            m_redraw();
        return false;
    }

private:
    QWidget *m_chart;
    std::function<void()> m_redraw;
    QTimer m_timer;
};

} // namespace ui
