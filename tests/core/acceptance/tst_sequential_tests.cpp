// The sequential baselines: AustereMH(c) and MHSubLhd match the exact Metropolis probability
// within their design error, count their full-data passes, and on the worst-case dataset of
// Lemma 1 read all N points with probability ≥ c ≈ 0.0085, where MHminibatch does not.
#include <QtTest>

#include <boost/math/distributions/binomial.hpp>

#include "core/acceptance/austere_design.h"
#include "core/acceptance/sequential_tests.h"
#include "core/chain/chain_runner.h"
#include "core/data/worst_case_data.h"
#include "core/diagnostics/chain_summary.h"
#include "core/experiment/run_config.h"
#include "core/models/gaussian_mean_model.h"
#include "tests/support/acceptance_sampling.h"
#include "tests/support/population_model.h"
#include "tests/support/statistics.h"

using namespace core;

namespace {

constexpr int kRepetitions = 40000;
using Outcome = teststats::AcceptanceOutcome;

Outcome run(AcceptanceTest &test, const Model &model, std::uint64_t seed, int repetitions = kRepetitions)
{
    return teststats::measureAcceptance(test, model, 1.0, 0.0, seed, repetitions);
}

double tolerance(double p, double designError, int repetitions = kRepetitions)
{
    return teststats::acceptanceTolerance(p, designError, repetitions);
}

// Clopper–Pearson bounds on a binomial proportion at one-sided level alpha.
double lowerBound(std::int64_t successes, std::int64_t trials, double alpha)
{
    return boost::math::binomial_distribution<>::find_lower_bound_on_p(static_cast<double>(trials),
                                                                       static_cast<double>(successes), alpha);
}
double upperBound(std::int64_t successes, std::int64_t trials, double alpha)
{
    return boost::math::binomial_distribution<>::find_upper_bound_on_p(static_cast<double>(trials),
                                                                       static_cast<double>(successes), alpha);
}

} // namespace

class tst_SequentialTests : public QObject {
    Q_OBJECT

private slots:
    void acceptanceProbability_data()
    {
        QTest::addColumn<double>("delta");
        QTest::addColumn<double>("lambdaSd");
        for (double delta : {-3.0, -0.7, 0.0, 0.5, 2.0})
            for (double sd : {5.0, 40.0})
                QTest::newRow(qPrintable(QString("delta=%1 sd=%2").arg(delta).arg(sd))) << delta << sd;
    }

    // Δ = mean Λ_i; Pr(accept) of the exact Metropolis test is min(1, e^Δ). AustereMH's error
    // is controlled by ε (004_…txt Sec. 3.1) and MHSubLhd's by δ.
    void acceptanceProbability()
    {
        QFETCH(double, delta);
        QFETCH(double, lambdaSd);
        const DataIndex n = 10000;
        const auto model = teststats::PopulationModel::make(n, delta / n, lambdaSd / n, 0, 5);
        const double exact = teststats::metropolisProbability(delta);

        // AustereMH's error is not bounded by its per-look ε: it is what the dynamic program
        // of the supplement predicts (001_…txt Eq. 18–21), which can exceed ε when Δ ≈ 0.
        AustereSettings austereSettings;
        austereSettings.epsilon = 0.01;
        AustereTest austere(austereSettings);
        const Outcome a = run(austere, model, 17);
        static const AustereDesignTable errorTable(n, austereSettings.batch, austereSettings.epsilon);
        const double predicted = exact + errorTable.acceptanceError(delta, lambdaSd, 0.0);
        QVERIFY2(std::abs(a.rate - predicted) <= tolerance(predicted, 0.005),
                 qPrintable(QString("AustereMH %1 vs predicted %2 (Metropolis %3)").arg(a.rate).arg(predicted).arg(exact)));
        QCOMPARE(a.meanFullScan, 0.0);

        SubLhdSettings sublhdSettings;
        SubLhdTest sublhd(sublhdSettings);
        const int sublhdRepetitions = 10000; // each test also scans all N rows for C
        const Outcome s = run(sublhd, model, 19, sublhdRepetitions);
        QVERIFY2(std::abs(s.rate - exact) <= tolerance(exact, sublhdSettings.delta, sublhdRepetitions),
                 qPrintable(QString("MHSubLhd %1 vs Metropolis %2").arg(s.rate).arg(exact)));
        QCOMPARE(s.meanFullScan, double(n)); // the range bound C costs one pass per test
        QVERIFY(s.meanPoints >= 100.0 && s.meanPoints <= n);
    }

    void sublhdUsesModelBoundWhenAsked()
    {
        Rng rng(3);
        Eigen::VectorXd x(5000);
        for (Eigen::Index i = 0; i < x.size(); ++i)
            x[i] = 0.5 + rng.normal();
        const GaussianMeanModel model(x, 1.0);
        const Vector a = Vector::Constant(1, 0.5), b = Vector::Constant(1, 0.52);
        const double scanned = model.maxAbsLogLikelihoodRatio(a, b);
        const auto bound = model.logLikelihoodRatioBound(a, b);
        QVERIFY(bound.has_value());
        QVERIFY(std::abs(*bound - scanned) <= 1e-12 * scanned); // exact for this model
        SubLhdSettings settings;
        settings.useModelBound = true;
        SubLhdTest test(settings);
        const Decision decision = test.decide(TestProblem{model, a, b, 1.0, 0.0}, rng);
        QCOMPARE(decision.fullScanPoints, std::int64_t(0));
    }

    // Lemma 1 (000_…txt Sec. 2.1, appendix A.1): on x_i ~ N(0.5, 1) with proposal N(θ, 1/N),
    // AustereMH and MHSubLhd read all N points with probability ≥ 0.0085 per iteration.
    void worstCaseNeedsAllData_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<bool>("readsAll");
        QTest::newRow("austere-c") << "austere-c" << true;
        QTest::newRow("sublhd") << "sublhd" << true;
        QTest::newRow("minibatch") << "minibatch" << false;
    }

    void worstCaseNeedsAllData()
    {
        QFETCH(QString, method);
        QFETCH(bool, readsAll);
        RunConfig config;
        config.dataset = "worst-case";
        config.nData = 10000;
        config.method = parseMethod(method.toStdString());
        applyDatasetDefaults(config, false, false);
        QCOMPARE(config.temperature, 1.0);
        QCOMPARE(config.step, 0.01);
        const GaussianMeanModel model(generateWorstCaseGaussian(config.nData, 1), 1.0);
        std::shared_ptr<const CorrectionDistribution> correction;
        if (needsCorrection(config.method)) {
            CorrectionParams params = RunConfig::defaultCorrection();
            params.grid = 1000;
            correction = std::make_shared<const CorrectionDistribution>(CorrectionDistribution::solve(params));
        }
        auto test = makeAcceptanceTest(config, correction);
        const RandomWalkProposal proposal(config.step);
        ChainSettings settings;
        settings.samples = 4000;
        settings.seed = 23;
        settings.temperature = config.temperature;
        const ChainResult chain = runChain(model, proposal, *test, settings);
        const ChainSummary summary = summarize(chain, config.nData);
        const double c = 0.0085;
        // The chain's iterations are not independent; the proportion's binomial bounds at
        // 1e-4 one-sided still leave a wide margin on both sides of c.
        if (readsAll) {
            const double low = lowerBound(summary.allDataIterations, summary.iterations, 1e-4);
            QVERIFY2(low >= c, qPrintable(QString("%1: %2 of %3 iterations read all N; lower bound %4")
                                              .arg(method).arg(summary.allDataIterations).arg(summary.iterations).arg(low)));
        } else {
            const double high = upperBound(summary.allDataIterations, summary.iterations, 1e-4);
            QVERIFY2(high < c, qPrintable(QString("%1: %2 of %3 iterations read all N; upper bound %4")
                                              .arg(method).arg(summary.allDataIterations).arg(summary.iterations).arg(high)));
        }
    }

    void rejectsBadSettings()
    {
        AustereSettings austere;
        austere.epsilon = 0.0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, AustereTest{austere});
        austere.epsilon = 0.6;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, AustereTest{austere});
        austere = {};
        austere.batch = 1;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, AustereTest{austere});
        SubLhdSettings sublhd;
        sublhd.gamma = 1.0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, SubLhdTest{sublhd});
        sublhd = {};
        sublhd.p = 1.0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, SubLhdTest{sublhd});
        sublhd = {};
        sublhd.delta = 1.0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, SubLhdTest{sublhd});
    }
};

QTEST_APPLESS_MAIN(tst_SequentialTests)
#include "tst_sequential_tests.moc"
