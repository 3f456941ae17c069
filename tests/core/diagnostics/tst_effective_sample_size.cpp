// ESS and split R-hat against chains with known autocorrelation: AR(1) x_t = φ x_{t−1} + e_t
// has ρ_k = φ^k and ESS/n = (1 − φ)/(1 + φ).
#include <QtTest>

#include "core/diagnostics/chain_convergence.h"
#include "core/diagnostics/effective_sample_size.h"
#include "core/random/rng.h"

using namespace core;

namespace {

ChainDraws ar1Chains(int chains, int length, double phi, std::uint64_t seed, double shiftLast = 0.0)
{
    Rng rng(seed);
    ChainDraws draws(static_cast<std::size_t>(chains));
    const double innovation = std::sqrt(1.0 - phi * phi); // stationary variance 1
    for (int c = 0; c < chains; ++c) {
        double x = rng.normal(); // start in the stationary law: no burn-in needed
        auto &chain = draws[static_cast<std::size_t>(c)];
        for (int t = 0; t < length; ++t) {
            x = phi * x + innovation * rng.normal();
            chain.push_back(x + (c == chains - 1 ? shiftLast : 0.0));
        }
    }
    return draws;
}

} // namespace

class tst_EffectiveSampleSize : public QObject {
    Q_OBJECT

private slots:
    void autocorrelationOfAr1()
    {
        const auto chains = ar1Chains(1, 200000, 0.8, 1);
        const auto rho = autocorrelation(chains[0]);
        QCOMPARE(rho[0], 1.0);
        for (int k = 1; k <= 5; ++k)
            QVERIFY2(std::abs(rho[static_cast<std::size_t>(k)] - std::pow(0.8, k)) < 0.02,
                     qPrintable(QString("lag %1: %2").arg(k).arg(rho[static_cast<std::size_t>(k)])));
    }

    void essOfAr1_data()
    {
        QTest::addColumn<double>("phi");
        QTest::newRow("independent") << 0.0;
        QTest::newRow("phi=0.5") << 0.5;
        QTest::newRow("phi=0.9") << 0.9;
        QTest::newRow("phi=0.97") << 0.97;
    }

    void essOfAr1()
    {
        QFETCH(double, phi);
        const int chains = 4, length = 50000;
        const auto draws = ar1Chains(chains, length, phi, 7);
        const double expected = chains * length * (1.0 - phi) / (1.0 + phi);
        const double ess = effectiveSampleSize(draws), bulk = bulkEffectiveSampleSize(draws);
        QVERIFY2(std::abs(ess / expected - 1.0) < 0.15, qPrintable(QString("ESS %1 expected %2").arg(ess).arg(expected)));
        QVERIFY2(std::abs(bulk / expected - 1.0) < 0.15, qPrintable(QString("bulk %1 expected %2").arg(bulk).arg(expected)));
    }

    void rhatSeparatesAgreeingFromDisagreeingChains()
    {
        const double agreeing = splitRhat(ar1Chains(4, 20000, 0.9, 3));
        const double disagreeing = splitRhat(ar1Chains(4, 20000, 0.9, 3, 2.0));
        QVERIFY2(agreeing < 1.01, qPrintable(QString::number(agreeing)));
        QVERIFY2(disagreeing > 1.1, qPrintable(QString::number(disagreeing)));
        // A trend inside one chain shows through the split halves.
        ChainDraws trend(1);
        for (int t = 0; t < 4000; ++t)
            trend[0].push_back(t / 1000.0);
        QVERIFY(splitRhat(trend) > 1.5);
    }

    // A retuned chain: the first segment is a far-off constant drift, the final one AR(1).
    // The wrappers must look at the final segment only.
    void chainWrappersUseTheFinalSegment()
    {
        const int before = 20000, length = 20000;
        std::vector<ChainResult> chains(3);
        for (std::size_t c = 0; c < chains.size(); ++c) {
            const auto ar = ar1Chains(1, length, 0.5, 40 + c)[0];
            ChainResult &chain = chains[c];
            chain.samples.resize(before + length, 1);
            for (int t = 0; t < before; ++t)
                chain.samples(t, 0) = 50.0 + t * (1.0 + static_cast<double>(c));
            for (int t = 0; t < length; ++t)
                chain.samples(before + t, 0) = ar[static_cast<std::size_t>(t)];
            chain.completed = before + length;
            chain.segments = {{0, 1.0, 0.1}, {before, 2.0, 0.1}};
        }
        const std::vector<double> ess = bulkEssPerComponent(chains[0]);
        QCOMPARE(ess.size(), std::size_t(1));
        const double expected = length / 3.0; // (1 − φ)/(1 + φ) at φ = 0.5
        QVERIFY2(std::abs(ess[0] / expected - 1.0) < 0.15, qPrintable(QString::number(ess[0])));
        const double rhat = maxSplitRhat({&chains[0], &chains[1], &chains[2]});
        QVERIFY2(rhat < 1.01, qPrintable(QString::number(rhat)));
        // Over the whole chains the drift dominates and R-hat is far from 1.
        for (ChainResult &chain : chains)
            chain.segments = {{0, 2.0, 0.1}};
        QVERIFY(maxSplitRhat({&chains[0], &chains[1], &chains[2]}) > 1.1);
        // Final segments at different temperatures target different laws: no R-hat.
        chains[2].segments = {{0, 3.0, 0.1}};
        QVERIFY(std::isnan(maxSplitRhat({&chains[0], &chains[1], &chains[2]})));
        // One chain: its two halves disagree just as well.
        QVERIFY(maxSplitRhat({&chains[0]}) > 1.1);
    }

    void rejectsBadInput()
    {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, effectiveSampleSize({}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, effectiveSampleSize({{1, 2, 3, 4}, {1, 2, 3}}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, splitRhat({{1, 2}}));
        // A constant chain is not an error: every draw carries full information.
        QCOMPARE(effectiveSampleSize({{2, 2, 2, 2, 2, 2}}), 6.0);
    }
};

QTEST_APPLESS_MAIN(tst_EffectiveSampleSize)
#include "tst_effective_sample_size.moc"
