#pragma once
// The chart pages that show one chart (or a chart and its companion) per tab: the minibatch
// sizes, the correction distribution, the traces with FlyMC's bright points, the diagnostics
// table and, for logistic regression, the test accuracy. Each routes a run's snapshots to its
// chart; the posterior and the trade-offs have pages of their own.
#include "ui/pages/chart_page.h"

namespace ui {

class AccuracyChart;
class BatchSizeHistogram;
class BrightPointsChart;
class CorrectionChart;
class DiagnosticsTable;
class TraceChart;

/// How many data points each test read, per method.
class SizesPage : public ChartPage {
public:
    SizesPage();
    void beginRun(const RunLayout &layout, const PinnedRun &pin) override;
    void applySnapshot(const RunSnapshot &snapshot, const RunLayout &layout) override;
    void flush() override;
    void pinInto(PinnedRun &pin) const override;
    void showPin(const PinnedRun &pin) override;
    QList<NamedChart> exportViews() const override;
    BatchSizeHistogram *histogram() const { return m_histogram; }

private:
    BatchSizeHistogram *m_histogram;
};

/// The correction distribution for the panel's σ, λ and solver; it follows the panel, not runs.
class CorrectionPage : public ChartPage {
public:
    CorrectionPage();
    void beginRun(const RunLayout &, const PinnedRun &) override {}
    QList<NamedChart> exportViews() const override;
    CorrectionChart *chart() const { return m_chart; }

private:
    CorrectionChart *m_chart;
};

/// θ₁ and θ₂ against the iteration per chain, and FlyMC's bright points under them.
class TracesPage : public ChartPage {
public:
    TracesPage();
    void beginRun(const RunLayout &layout, const PinnedRun &pin) override;
    void applySnapshot(const RunSnapshot &snapshot, const RunLayout &layout) override;
    void flush() override;
    void setComponentNames(const QStringList &names) override;
    void pinInto(PinnedRun &pin) const override;
    void showPin(const PinnedRun &pin) override;
    QList<NamedChart> exportViews() const override;
    TraceChart *traces() const { return m_traces; }
    BrightPointsChart *brightPoints() const { return m_bright; }

private:
    TraceChart *m_traces;
    BrightPointsChart *m_bright;
    int m_dimension = 2;
};

/// One row per chain, filled when a run ends.
class DiagnosticsPage : public ChartPage {
public:
    DiagnosticsPage();
    bool scrolls() const override { return false; } // the table scrolls itself
    void beginRun(const RunLayout &layout, const PinnedRun &pin) override;
    void finishRun(const RunOutcome &outcome) override;
    DiagnosticsTable *table() const { return m_table; }

private:
    DiagnosticsTable *m_table;
};

/// Logistic regression: test accuracy and log-likelihood against the data read.
class AccuracyPage : public ChartPage {
public:
    AccuracyPage();
    void beginRun(const RunLayout &layout, const PinnedRun &pin) override;
    void applySnapshot(const RunSnapshot &snapshot, const RunLayout &layout) override;
    void flush() override;
    QList<NamedChart> exportViews() const override;
    AccuracyChart *chart() const { return m_chart; }

private:
    AccuracyChart *m_chart;
};

} // namespace ui
