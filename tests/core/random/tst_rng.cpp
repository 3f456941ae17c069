// The random-number engine's uniform draws: ranges at the extreme raw values, and uniformity.
#include <QtTest>

#include <cmath>
#include <cstdint>
#include <vector>

#include "core/random/rng.h"
#include "tests/support/statistics.h"

using namespace core;

class tst_Rng : public QObject {
    Q_OBJECT

private slots:
    // The open interval must hold at both ends for every raw value: log(u) and quantile(u)
    // are taken of it. The largest raw draw used to give exactly 1.0 (probability 2⁻⁵³ per draw).
    void openUnitIntervalExcludesBothEnds()
    {
        const std::uint64_t extremes[] = {0, 1, (std::uint64_t{1} << 11) - 1, std::uint64_t{1} << 63,
                                          ~std::uint64_t{0} - (std::uint64_t{1} << 12), ~std::uint64_t{0}};
        for (std::uint64_t bits : extremes) {
            const double u = Rng::openUnitFromBits(bits);
            QVERIFY2(u > 0.0 && u < 1.0, qPrintable(QString("bits %1 gave %2").arg(bits).arg(u, 0, 'g', 17)));
            QVERIFY(std::isfinite(std::log(u)) && std::isfinite(std::log1p(-u)));
        }
        QCOMPARE(Rng::openUnitFromBits(~std::uint64_t{0}), 1.0 - 0x1.0p-53);
        QCOMPARE(Rng::openUnitFromBits(0), 0x1.0p-53);
    }

    void openUnitDrawsAreUniform()
    {
        Rng rng(11);
        constexpr int kCells = 100;
        constexpr int kDraws = 1'000'000;
        std::vector<double> counts(kCells, 0.0);
        for (int k = 0; k < kDraws; ++k) {
            const double u = rng.uniformOpen01();
            QVERIFY(u > 0.0 && u < 1.0);
            counts[static_cast<std::size_t>(u * kCells)] += 1.0;
        }
        const double expected = static_cast<double>(kDraws) / kCells;
        double chi2 = 0.0;
        for (double c : counts)
            chi2 += (c - expected) * (c - expected) / expected;
        QVERIFY2(chi2 < teststats::chiSquaredUpper(kCells - 1, 1e-4), qPrintable(QString("chi2 %1").arg(chi2)));
    }

    void logisticDrawsAreFinite()
    {
        Rng rng(5);
        for (int k = 0; k < 100000; ++k)
            QVERIFY(std::isfinite(rng.logistic()));
    }
};

QTEST_APPLESS_MAIN(tst_Rng)
#include "tst_rng.moc"
