#include "ui/pages/compare_page.h"

#include <algorithm>

#include <QChart>
#include <QGridLayout>
#include <QLegend>
#include <QResizeEvent>

#include "ui/charts/batch_size_histogram.h"
#include "ui/charts/posterior_chart.h"

namespace ui {

ComparePage::ComparePage(QWidget *parent) : QWidget(parent)
{
    m_grid = new QGridLayout(this);
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setSpacing(0);
}

int ComparePage::bestColumns(int cells, QSize size, int minimumCellWidth)
{
    if (cells <= 1 || size.isEmpty())
        return 1;
    int best = 1;
    double bestScore = -1.0;
    for (int columns = 1; columns <= cells; ++columns) {
        if (columns > 1 && columns * minimumCellWidth > size.width())
            break;
        const int rows = (cells + columns - 1) / columns;
        const double width = static_cast<double>(size.width()) / columns;
        const double height = static_cast<double>(size.height()) / rows;
        // The smaller side of a cell: what limits how readable its square plot can be.
        const double score = std::min(width, height);
        if (score > bestScore + 1.0) {
            bestScore = score;
            best = columns;
        }
    }
    return best;
}

void ComparePage::setUp(const QStringList &titles, const QStringList &methods, qint64 nData)
{
    for (PosteriorChart *chart : m_charts)
        delete chart;
    m_charts.clear();
    delete m_histogram;
    m_histogram = nullptr;
    for (const QString &title : titles) {
        auto *chart = new PosteriorChart;
        chart->chart()->setTitle(title);
        // Side by side, the legend would repeat on every chart and take height from the plot.
        chart->setCompact(titles.size() > 1);
        m_charts.append(chart);
    }
    if (methods.size() > 1) {
        m_histogram = new BatchSizeHistogram;
        m_histogram->setCompact(true);
        m_histogram->reset(methods, nData);
    }
    m_columns = 0;
    arrange(bestColumns(static_cast<int>(m_charts.size()) + (m_histogram ? 1 : 0), size()));
}

void ComparePage::setPosteriorImage(const PosteriorImage &image)
{
    for (PosteriorChart *chart : m_charts)
        chart->setPosteriorImage(image);
}

void ComparePage::arrange(int columns)
{
    if (columns == m_columns)
        return;
    m_columns = columns;
    QList<QWidget *> cells(m_charts.begin(), m_charts.end());
    if (m_histogram)
        cells.append(m_histogram);
    for (QWidget *cell : cells)
        m_grid->removeWidget(cell);
    for (int row = 0; row < m_grid->rowCount(); ++row)
        m_grid->setRowStretch(row, 0);
    for (int column = 0; column < m_grid->columnCount(); ++column)
        m_grid->setColumnStretch(column, 0);
    for (int k = 0; k < cells.size(); ++k) {
        // The last cell (the histogram when comparing) fills the rest of its row.
        const int span = k == cells.size() - 1 ? columns - k % columns : 1;
        m_grid->addWidget(cells[k], k / columns, k % columns, 1, span);
        m_grid->setRowStretch(k / columns, 1);
        m_grid->setColumnStretch(k % columns, 1);
    }
}

void ComparePage::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    arrange(bestColumns(static_cast<int>(m_charts.size()) + (m_histogram ? 1 : 0), event->size()));
}

} // namespace ui
