// Pr(accept) of every acceptance test against the exact Barker or Metropolis probability, on
// synthetic populations of log-likelihood ratios with a known Δ and spread.
#include <QtTest>

#include <memory>

#include "core/acceptance/full_data_tests.h"
#include "core/acceptance/minibatch_barker_test.h"
#include "tests/support/acceptance_sampling.h"
#include "tests/support/population_model.h"
#include "tests/support/statistics.h"

using namespace core;

namespace {

constexpr int kRepetitions = 40000;
using Outcome = teststats::AcceptanceOutcome;

Outcome acceptanceRate(AcceptanceTest &test, const Model &model, double temperature, double logPriorProposal,
                       std::uint64_t seed)
{
    return teststats::measureAcceptance(test, model, temperature, logPriorProposal, seed, kRepetitions);
}

double tolerance(double p, double extra = 0.0)
{
    return teststats::acceptanceTolerance(p, extra, kRepetitions);
}

} // namespace

class tst_AcceptanceProbability : public QObject {
    Q_OBJECT

private:
    std::shared_ptr<const CorrectionDistribution> m_correction;

private slots:
    void initTestCase()
    {
        CorrectionParams params;
        params.grid = 2000; // Table 3 (002_…txt): L∞ 1.3e-3 at σ = 1, λ = 10; solves in seconds
        m_correction = std::make_shared<const CorrectionDistribution>(CorrectionDistribution::solve(params));
        QVERIFY(m_correction->linfError() < 2e-3);
    }

    void fullData_data()
    {
        QTest::addColumn<double>("delta");
        for (double delta : {-4.0, -1.5, -0.3, 0.0, 0.7, 2.0, 5.0})
            QTest::newRow(qPrintable(QString("delta=%1").arg(delta))) << delta;
    }

    // Λ_i = (N/T) l_i with mean Δ − (log prior/proposal term): both full-data tests must hit
    // their exact probabilities, and read all N points.
    void fullData()
    {
        QFETCH(double, delta);
        const DataIndex n = 500;
        const double temperature = 2.0, logPriorProposal = 0.25;
        const auto model = teststats::PopulationModel::make(n, (delta - logPriorProposal) * temperature / n, 0.3, 1, 7);
        MetropolisTest metropolis;
        BarkerTest barker;
        const Outcome mh = acceptanceRate(metropolis, model, temperature, logPriorProposal, 11);
        const Outcome bk = acceptanceRate(barker, model, temperature, logPriorProposal, 12);
        const double pMh = teststats::metropolisProbability(delta), pBk = teststats::barkerProbability(delta);
        QVERIFY2(std::abs(mh.rate - pMh) <= tolerance(pMh),
                 qPrintable(QString("MH %1 vs exact %2").arg(mh.rate).arg(pMh)));
        QVERIFY2(std::abs(bk.rate - pBk) <= tolerance(pBk),
                 qPrintable(QString("Barker %1 vs exact %2").arg(bk.rate).arg(pBk)));
        QCOMPARE(mh.meanPoints, double(n));
        QCOMPARE(bk.meanPoints, double(n));
    }

    void minibatch_data()
    {
        QTest::addColumn<double>("delta");
        QTest::addColumn<double>("lambdaSd");
        QTest::addColumn<int>("shape");
        // lambdaSd is the sd of Λ_i: 8 needs b ≥ 64 (one look), 25 needs b ≥ 625 (several).
        for (double delta : {-3.0, -0.5, 0.0, 1.0, 4.0}) {
            QTest::newRow(qPrintable(QString("normal sd=8 delta=%1").arg(delta))) << delta << 8.0 << 0;
            QTest::newRow(qPrintable(QString("normal sd=25 delta=%1").arg(delta))) << delta << 25.0 << 0;
            QTest::newRow(qPrintable(QString("skewed sd=25 delta=%1").arg(delta))) << delta << 25.0 << 1;
        }
    }

    // MHminibatch matches Barker's probability within Monte Carlo error plus the correction's
    // L∞ error (Corollary 2) plus a small CLT allowance for the skewed population; the naive
    // test instead matches the Barker probability smeared by the batch noise.
    void minibatch()
    {
        QFETCH(double, delta);
        QFETCH(double, lambdaSd);
        QFETCH(int, shape);
        const DataIndex n = 100000;
        const double temperature = 1.0;
        // Λ_i = N l_i: choose l_i so that mean Λ = Δ and sd Λ = lambdaSd.
        const auto model = teststats::PopulationModel::make(n, delta / n, lambdaSd / n, shape, 21);
        MinibatchSettings settings;
        settings.initialBatch = 100;
        settings.batchGrowth = 100;
        MinibatchBarkerTest corrected(m_correction, settings);
        const Outcome outcome = acceptanceRate(corrected, model, temperature, 0.0, 31);
        const double exact = teststats::barkerProbability(delta);
        const double clt = shape == 1 ? 0.004 : 0.0;
        QVERIFY2(std::abs(outcome.rate - exact) <= tolerance(exact, m_correction->linfError() + clt),
                 qPrintable(QString("minibatch %1 vs Barker %2").arg(outcome.rate).arg(exact)));
        // The batch is the smallest multiple of 100 with s² < 1 (± sampling noise of s²).
        const double minimal = std::ceil(lambdaSd * lambdaSd / 100.0) * 100.0;
        QVERIFY2(outcome.meanPoints >= minimal * 0.8 && outcome.meanPoints <= minimal * 1.5 + 100,
                 qPrintable(QString("mean batch %1, expected about %2").arg(outcome.meanPoints).arg(minimal)));
        QCOMPARE(outcome.fallbacks, 0);
    }

    void smallPopulation_data()
    {
        QTest::addColumn<double>("delta");
        QTest::addColumn<bool>("factor");
        for (double delta : {-2.0, 0.0, 1.0, 2.5}) {
            QTest::newRow(qPrintable(QString("factor on delta=%1").arg(delta))) << delta << true;
            QTest::newRow(qPrintable(QString("factor off delta=%1").arg(delta))) << delta << false;
        }
    }

    // N = 2000 and sd Λ = 35, so the batch is a large part of N (≈ 800 rows drawn without
    // replacement with the finite-population factor, ≈ 1300 with replacement without it): the
    // variance tested must be that of the Δ* used, or X_nc is too small and the test too
    // decisive (without replacement, tested as s²/b, the noise falls ~20% short of σ²).
    void smallPopulation()
    {
        QFETCH(double, delta);
        QFETCH(bool, factor);
        const DataIndex n = 2000;
        const auto model = teststats::PopulationModel::make(n, delta / n, 35.0 / n, 0, 23);
        MinibatchSettings settings;
        settings.finitePopulationCorrection = factor;
        MinibatchBarkerTest corrected(m_correction, settings);
        const Outcome outcome = acceptanceRate(corrected, model, 1.0, 0.0, 37);
        const double exact = teststats::barkerProbability(delta);
        QVERIFY2(std::abs(outcome.rate - exact) <= tolerance(exact, m_correction->linfError()),
                 qPrintable(QString("minibatch %1 vs Barker %2 (mean batch %3)")
                                .arg(outcome.rate)
                                .arg(exact)
                                .arg(outcome.meanPoints)));
        QVERIFY(outcome.meanPoints < n);
    }

    void naiveShowsBias()
    {
        // A fixed batch whose Δ* has variance 0.9: the naive test is Barker smeared by N(0, 0.9).
        const DataIndex n = 200000;
        const double delta = 2.5, lambdaSd = std::sqrt(0.9 * 100.0);
        const auto model = teststats::PopulationModel::make(n, delta / n, lambdaSd / n, 0, 41);
        MinibatchSettings settings;
        settings.initialBatch = 100;
        settings.batchGrowth = 100;
        // σ = 1.8 for the naive test: its batch then never grows (s² ≈ 0.9 < 3.24), so Δ* has
        // exactly the variance the smeared probability assumes.
        NaiveMinibatchBarkerTest naive(1.8, settings);
        MinibatchBarkerTest corrected(m_correction, settings);
        const Outcome naiveOutcome = acceptanceRate(naive, model, 1.0, 0.0, 51);
        const Outcome correctedOutcome = acceptanceRate(corrected, model, 1.0, 0.0, 52);
        const double barker = teststats::barkerProbability(delta);
        const double smeared = teststats::smearedBarkerProbability(delta, std::sqrt(0.9 * (n - 100.0) / (n - 1.0)));
        QVERIFY(barker - smeared > 3.0 * tolerance(barker)); // the bias is large enough to see
        QVERIFY2(std::abs(naiveOutcome.rate - smeared) <= tolerance(smeared),
                 qPrintable(QString("naive %1 vs smeared %2").arg(naiveOutcome.rate).arg(smeared)));
        QVERIFY2(std::abs(naiveOutcome.rate - barker) > tolerance(barker),
                 qPrintable(QString("naive %1 should differ from Barker %2").arg(naiveOutcome.rate).arg(barker)));
        QVERIFY2(std::abs(correctedOutcome.rate - barker) <= tolerance(barker, m_correction->linfError()),
                 qPrintable(QString("corrected %1 vs Barker %2").arg(correctedOutcome.rate).arg(barker)));
    }

    void fallbackIsExactBarker()
    {
        // sd of Λ so large that even b = N − 1 rows leave s² ≥ 1: the test must reach N and
        // decide with the exact Barker probability.
        const DataIndex n = 400;
        const double delta = 0.8;
        const auto model = teststats::PopulationModel::make(n, delta / n, 400.0 / n, 0, 61);
        MinibatchSettings settings;
        settings.initialBatch = 50;
        settings.batchGrowth = 50;
        settings.finitePopulationCorrection = false;
        MinibatchBarkerTest corrected(m_correction, settings);
        const Outcome outcome = acceptanceRate(corrected, model, 1.0, 0.0, 71);
        const double exact = teststats::barkerProbability(delta);
        QCOMPARE(outcome.fallbacks, kRepetitions);
        QCOMPARE(outcome.meanPoints, double(n));
        QVERIFY2(std::abs(outcome.rate - exact) <= tolerance(exact),
                 qPrintable(QString("fallback %1 vs Barker %2").arg(outcome.rate).arg(exact)));
    }

    void cltBoundGrowsBatch()
    {
        // With δ on, the batch grows past the variance rule until ε = (6.4E|X|³+2E|X|)/√b ≤ δ.
        const DataIndex n = 50000;
        const auto model = teststats::PopulationModel::make(n, 0.0, 1.0 / n, 0, 81);
        MinibatchSettings settings;
        settings.cltBound = 0.5; // standardised normal: 6.4·1.596 + 2·0.798 ≈ 11.8 → b ≥ 560
        MinibatchBarkerTest corrected(m_correction, settings);
        Rng rng(5);
        const Vector a = Vector::Zero(1), b = Vector::Ones(1);
        const Decision decision = corrected.decide(TestProblem{model, a, b, 1.0, 0.0}, rng);
        QVERIFY2(decision.pointsUsed >= 500 && decision.pointsUsed <= 700,
                 qPrintable(QString("batch %1").arg(decision.pointsUsed)));
    }

    void rejectsBadSettings()
    {
        MinibatchSettings settings;
        settings.initialBatch = 1;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, MinibatchBarkerTest(m_correction, settings));
        settings.initialBatch = 100;
        settings.batchGrowth = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, MinibatchBarkerTest(m_correction, settings));
        settings.batchGrowth = 100;
        settings.cltBound = -1.0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, MinibatchBarkerTest(m_correction, settings));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, MinibatchBarkerTest(nullptr, MinibatchSettings{}));
    }
};

QTEST_APPLESS_MAIN(tst_AcceptanceProbability)
#include "tst_acceptance_probability.moc"
