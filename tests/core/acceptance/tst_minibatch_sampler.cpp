// Minibatch rows are a uniform random subset drawn without replacement within each test.
#include <QtTest>

#include <map>
#include <set>

#include "core/acceptance/minibatch_sampler.h"
#include "tests/support/statistics.h"

using namespace core;

class tst_MinibatchSampler : public QObject {
    Q_OBJECT

private slots:
    void noRepeatsWithinATest()
    {
        MinibatchSampler sampler(1000);
        Rng rng(3);
        for (int test = 0; test < 50; ++test) {
            sampler.beginTest();
            std::set<DataIndex> seen;
            for (int look = 0; look < 12; ++look)
                for (DataIndex row : sampler.drawMore(100, rng)) {
                    QVERIFY(row >= 0 && row < 1000);
                    QVERIFY2(seen.insert(row).second, "a row was drawn twice in one test");
                }
            QCOMPARE(sampler.drawn(), DataIndex(1000)); // capped at N
            QCOMPARE(seen.size(), std::size_t(1000));
        }
    }

    // Every 3-subset of 7 rows must be equally likely: chi-squared over the 35 subsets.
    void subsetsAreUniform()
    {
        MinibatchSampler sampler(7);
        Rng rng(5);
        std::map<std::set<DataIndex>, int> counts;
        const int draws = 70000;
        for (int k = 0; k < draws; ++k) {
            sampler.beginTest();
            const auto first = sampler.drawMore(1, rng);
            const auto rest = sampler.drawMore(2, rng); // grown in two looks, as tests do
            std::set<DataIndex> subset{first[0], rest[0], rest[1]};
            QCOMPARE(subset.size(), std::size_t(3));
            ++counts[subset];
        }
        QCOMPARE(counts.size(), std::size_t(35));
        const double expected = draws / 35.0;
        double chi2 = 0.0;
        for (const auto &[subset, count] : counts)
            chi2 += (count - expected) * (count - expected) / expected;
        QVERIFY2(chi2 < teststats::chiSquaredUpper(34, 1e-4), qPrintable(QString("chi2 = %1").arg(chi2)));
    }

    // Not contiguous slices: on sorted data the first batch must look like the whole set.
    void notContiguous()
    {
        MinibatchSampler sampler(100000);
        Rng rng(9);
        sampler.beginTest();
        const auto rows = sampler.drawMore(1000, rng);
        double mean = 0.0;
        for (DataIndex row : rows)
            mean += row;
        mean /= 1000.0;
        // Uniform on 0..99999: mean 49999.5, sd of the mean ≈ 28868/√1000 ≈ 913.
        QVERIFY2(std::abs(mean - 49999.5) < 5 * 913.0, qPrintable(QString("mean row %1").arg(mean)));
    }

    void rejectsEmptyPopulation()
    {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, MinibatchSampler(0));
    }
};

QTEST_APPLESS_MAIN(tst_MinibatchSampler)
#include "tst_minibatch_sampler.moc"
