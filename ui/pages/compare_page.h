#pragma once
// The posterior tab: one posterior chart per method on the same θ window and, when methods
// are compared, their minibatch-size histogram next to them, so one page shows the whole
// comparison (Seita et al. Sec. 6.1, Figure 4). The cells are arranged in the number of
// columns that keeps each chart closest to square for the page's current size: two methods
// and the histogram sit in a row on a wide window and in a 2 × 2 grid on a 1280 × 800 one.
#include <QList>
#include <QStringList>
#include <QWidget>

#include "ui/charts/posterior_chart.h"

QT_BEGIN_NAMESPACE
class QGridLayout;
QT_END_NAMESPACE

namespace ui {

class BatchSizeHistogram;
struct PosteriorImage;

class ComparePage : public QWidget {
    Q_OBJECT
public:
    explicit ComparePage(QWidget *parent = nullptr);

    /// Replaces the charts: one posterior chart per title, plus a histogram of `methods`
    /// (for data of size nData) when there are two or more.
    void setUp(const QStringList &titles, const QStringList &methods, qint64 nData);
    void setPosteriorImage(const PosteriorImage &image);

    const QList<PosteriorChart *> &charts() const { return m_charts; }
    /// The side-by-side histogram, or null for a single method.
    BatchSizeHistogram *histogram() const { return m_histogram; }
    int columns() const { return m_columns; }

    /// The column count that makes `cells` cells in an area of `size` closest to square, among
    /// those whose cells keep at least `minimumCellWidth` pixels (more columns would overflow the
    /// width; the page then scrolls down, not sideways).
    static int bestColumns(int cells, QSize size, int minimumCellWidth = PosteriorChart::kMinimumWidth);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void arrange(int columns);

    QGridLayout *m_grid = nullptr;
    QList<PosteriorChart *> m_charts;
    BatchSizeHistogram *m_histogram = nullptr;
    int m_columns = 0;
};

} // namespace ui
