#pragma once
// Solved correction tables along the σ slider, kept in memory so that a σ (or λ, solver) the
// user has seen, or that the background has solved ahead, is drawn at once instead of after a
// solve of a few tenths of a second (the ridge solve is O(grid³)).
//
// After a table is drawn, prewarm() solves the slider's other σ values for the same λ, solver,
// grid and range (and, for the ridge solver, the λ slider's stops for the same σ), nearest first, on one thread at idle priority (SCHED_IDLE on Linux: it only
// uses a core nothing else wants, so it never slows a running chain or the GUI). Each table also
// lands in the disk cache (core::CorrectionCache), so the next launch reads instead of solving.
#include <cstddef>
#include <memory>
#include <vector>

#include <QObject>

#include "ui/charts/correction_plot.h"

QT_BEGIN_NAMESPACE
class QThread;
QT_END_NAMESPACE

namespace ui {

class CorrectionPlotCache : public QObject {
    Q_OBJECT
public:
    /// Tables kept: enough for every slider σ at two (λ, solver) pairs.
    static constexpr std::size_t kCapacity = 80;

    explicit CorrectionPlotCache(QObject *parent = nullptr);
    /// Stops the background solves and waits for them (a solve checks its stop token often).
    ~CorrectionPlotCache() override;

    /// The σ values the slider stops at, 0.05 apart up to the largest below sqrt(π²/3).
    static const std::vector<double> &sliderSigmas();
    /// The λ values the slider stops at: 1, 2 and 5 per decade from 0.001 to 1000, each the
    /// double a spin box with three decimals holds for it.
    static const std::vector<double> &sliderLambdas();

    /// The cached curves for exactly these parameters, or null. GUI thread; the pointer is
    /// valid until the next insert().
    const CorrectionPlot *find(const core::CorrectionParams &params) const;
    void insert(const CorrectionPlot &plot);

    /// Solves, in the background, the slider's σ values around `around.sigma` that are not
    /// cached, with around's other parameters, and for the ridge solver (the one that uses λ)
    /// the slider's λ values around `around.lambda` at around's σ; nearest slider step first.
    /// Replaces an earlier prewarm.
    void prewarm(const core::CorrectionParams &around);
    /// Stops the background solves (the user asked for a table, which should have the cores).
    void stopPrewarm();
    /// Whether background solves are still going.
    bool isPrewarming() const;

signals:
    /// A background solve added `params` to the cache.
    void prewarmed(const core::CorrectionParams &params);

private:
    std::vector<CorrectionPlot> m_plots; // most recently used last
    struct Prewarm;
    std::unique_ptr<Prewarm> m_prewarm;
};

} // namespace ui
