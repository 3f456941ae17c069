#pragma once
#include <vector>
// One row per method and chain of the finished run: acceptance, minibatch-size statistics,
// data consumed, bulk ESS, ESS per second, split R-hat and the posterior fit. The numbers are
// computed on the worker thread (SamplerWorker) and arrive in the RunOutcome.
#include <QTableWidget>

#include "ui/run/sampler_worker.h"

namespace ui {

class DiagnosticsTable : public QTableWidget {
    Q_OBJECT
public:
    enum Column {
        MethodColumn,
        ChainColumn,
        AcceptanceColumn,
        MeanBatchColumn,
        SdBatchColumn,
        MaxBatchColumn,
        DataUsedColumn,
        EssTheta1Column,
        EssTheta2Column,
        EssPerSecondColumn,
        RhatColumn,
        PosteriorTvColumn,
        ColumnCount
    };

    explicit DiagnosticsTable(QWidget *parent = nullptr);

    /// Replaces the rows with the outcome's chains.
    void showOutcome(const RunOutcome &outcome);
    /// Removes all rows (a new run starts).
    void clearRows();
    /// The view that keeps the method column in place while the others scroll sideways.
    QTableView *frozenMethodColumn() const { return m_frozen; }
    int methodColumnWidth() const;

protected:
    void resizeEvent(QResizeEvent *event) override;
    void scrollTo(const QModelIndex &index, ScrollHint hint = EnsureVisible) override;
    void updateGeometries() override;

private:
    void buildFrozenMethodColumn();
    void placeFrozenColumn();
    /// The sideways scroll positions at which a column starts exactly at the frozen column's
    /// right edge, in visual order: scrolling stops only there, so no figure is cut under it.
    std::vector<int> columnStops() const;
    /// The stop for scroll position `position`: the next one up (`direction` > 0, a step or a
    /// page right), the one below (< 0), or the nearest (0: a drag, the wheel, a relayout).
    int columnStop(int position, int direction) const;
    /// The column stop next to `position`: the first after it (direction > 0, or the range's
    /// end) or the last before it (direction < 0, or 0), so that an arrow moves one column.
    int neighbourStop(int position, int direction) const;
    /// Moves a scroll the user makes (QAbstractSlider::actionTriggered) onto a stop.
    void stopAtColumn(int action);

    QTableView *m_frozen = nullptr;
};

} // namespace ui
