// The AustereMH dynamic program (001_…txt Sec. A, Eq. 18–20) agrees with simulation of the
// actual sequential t-test, as the supplement's Figure 10 shows for data usage.
#include <QtTest>

#include "core/acceptance/austere_design.h"
#include "core/acceptance/sequential_tests.h"
#include "tests/support/population_model.h"

using namespace core;

class tst_AustereDesign : public QObject {
    Q_OBJECT

private slots:
    void dynamicProgramMatchesSimulation_data()
    {
        QTest::addColumn<double>("muStd");
        for (double mu : {0.25, 1.0, 2.0, 4.0})
            QTest::newRow(qPrintable(QString("muStd=%1").arg(mu))) << mu;
    }

    void dynamicProgramMatchesSimulation()
    {
        QFETCH(double, muStd);
        const DataIndex n = 20000, m = 100;
        const double epsilon = 0.01, sd = 30.0, mean = 2.0;
        const auto model = teststats::PopulationModel::make(n, mean / n, sd / n, 0, 77); // Λ_i: mean 2, sd 30
        const double psi = mean - muStd * sd / std::sqrt(n - 1.0);
        AustereSettings settings;
        settings.batch = m;
        settings.epsilon = epsilon;
        AustereTest test(settings);
        Rng rng(5);
        const Vector a = Vector::Zero(1), b = Vector::Ones(1);
        const TestProblem problem{model, a, b, 1.0, 0.0};
        const int repetitions = 20000;
        int wrong = 0, all = 0;
        double fraction = 0.0;
        for (int r = 0; r < repetitions; ++r) {
            const Decision decision = test.decideAgainst(problem, psi, rng);
            wrong += !decision.accepted; // μ > μ₀: accepting is right
            all += decision.pointsUsed == n;
            fraction += static_cast<double>(decision.pointsUsed) / n / repetitions;
        }
        const SequentialTestProfile dp = austereProfile(muStd, n, m, epsilon, 120);
        const double simulatedError = static_cast<double>(wrong) / repetitions;
        const double errorTolerance = 4.9 * std::sqrt(std::max(dp.error * (1 - dp.error), 1e-4) / repetitions) + 0.01;
        QVERIFY2(std::abs(simulatedError - dp.error) <= errorTolerance,
                 qPrintable(QString("error: simulated %1, dynamic program %2").arg(simulatedError).arg(dp.error)));
        const double usageTolerance = 0.05 * dp.dataFraction + 4.9 * 0.5 / std::sqrt(double(repetitions));
        QVERIFY2(std::abs(fraction - dp.dataFraction) <= usageTolerance,
                 qPrintable(QString("data usage: simulated %1, dynamic program %2").arg(fraction).arg(dp.dataFraction)));
        const double simulatedAll = static_cast<double>(all) / repetitions;
        QVERIFY2(std::abs(simulatedAll - dp.allDataProbability)
                     <= 4.9 * std::sqrt(std::max(dp.allDataProbability, 1e-4) / repetitions) + 0.01,
                 qPrintable(QString("all-N: simulated %1, dynamic program %2").arg(simulatedAll).arg(dp.allDataProbability)));
    }

    // The worst case μ_std → 0: the error is half the probability of stopping early (Eq. 20),
    // and data usage is largest there.
    void worstCaseIsTheMaximum()
    {
        const auto zero = austereProfile(1e-12, 100000, 100, 0.005, 80);
        const auto near = austereProfile(0.5, 100000, 100, 0.005, 80);
        const auto far = austereProfile(5.0, 100000, 100, 0.005, 80);
        QVERIFY(zero.error > near.error && near.error > far.error);
        QVERIFY(zero.dataFraction > near.dataFraction && near.dataFraction > far.dataFraction);
        QVERIFY(zero.allDataProbability > 0.0085); // Lemma 1's constant is easily exceeded here
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, austereProfile(0.0, 100, 200, 0.01));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, austereProfile(0.0, 100, 10, 0.6));
    }
};

QTEST_APPLESS_MAIN(tst_AustereDesign)
#include "tst_austere_design.moc"
