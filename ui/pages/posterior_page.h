#pragma once
// The posterior tab as a chart page: the compare page's charts (one posterior chart per method
// and, comparing, their minibatch sizes side by side), set up for each run with titles that say
// what the plane shows, fed the draws after the burn-in, and the mixture's exact posterior
// drawn behind them.
#include <optional>

#include "ui/charts/posterior_heat_map.h"
#include "ui/pages/chart_page.h"

namespace ui {

class ComparePage;
class PosteriorChart;

class PosteriorPage : public ChartPage {
public:
    PosteriorPage();

    void beginRun(const RunLayout &layout, const PinnedRun &pin) override;
    void applySnapshot(const RunSnapshot &snapshot, const RunLayout &layout) override;
    void flush() override;
    void setComponentNames(const QStringList &names) override;
    void pinInto(PinnedRun &pin) const override;
    void showPin(const PinnedRun &pin) override;
    QList<NamedChart> exportViews() const override;

    /// The mixture's exact tempered posterior, behind every chart; kept for charts set up again.
    void setPosteriorImage(const PosteriorImage &image);
    /// Draws the latest posterior image again (after charts were set up for the form).
    void showLastImage();
    ComparePage *comparePage() const { return m_page; }

private:
    ComparePage *m_page; // the page's widget
    RunRequest m_request;
    std::optional<PosteriorImage> m_lastImage;
};

} // namespace ui
