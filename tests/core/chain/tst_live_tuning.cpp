// Temperature and step changes during a run: where they take effect, how they are recorded,
// and that the segment after a change samples the new tempered posterior.
#include <QtTest>

#include <memory>
#include <thread>

#include <boost/math/distributions/normal.hpp>

#include "core/chain/chain_runner.h"
#include "core/chain/live_tuning.h"
#include "core/experiment/run_config.h"
#include "core/models/gaussian_mean_model.h"
#include "tests/support/statistics.h"

using namespace core;

class tst_LiveTuning : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<GaussianMeanModel> m_model;
    std::unique_ptr<AcceptanceTest> m_test;

    ChainSettings settings(std::int64_t samples, double temperature, const LiveTuning *tuning)
    {
        ChainSettings chain;
        chain.samples = samples;
        chain.seed = 7;
        chain.temperature = temperature;
        chain.progressInterval = std::chrono::milliseconds(0);
        chain.tuning = tuning;
        return chain;
    }

private slots:
    void initTestCase()
    {
        Rng rng(11);
        Eigen::VectorXd x(5000);
        for (Eigen::Index i = 0; i < x.size(); ++i)
            x[i] = -0.3 + rng.normal();
        m_model = std::make_unique<GaussianMeanModel>(x, 1.0);
        RunConfig config;
        config.method = TestMethod::Barker;
        m_test = makeAcceptanceTest(config, nullptr);
    }

    void withoutChangesThereIsOneSegment()
    {
        LiveTuning tuning;
        const RandomWalkProposal proposal(0.05);
        const ChainResult chain = runChain(*m_model, proposal, *m_test, settings(500, 10.0, &tuning));
        QCOMPARE(chain.segments.size(), std::size_t(1));
        QCOMPARE(chain.segments[0].start, std::int64_t(0));
        QCOMPARE(chain.segments[0].temperature, 10.0);
        QCOMPARE(chain.segments[0].step, 0.05);
        QCOMPARE(chain.finalSegmentStart(), std::int64_t(0));
    }

    void requestBeforeStartReplacesFirstSegment()
    {
        LiveTuning tuning;
        tuning.setTemperature(3.0);
        const RandomWalkProposal proposal(0.05);
        const ChainResult chain = runChain(*m_model, proposal, *m_test, settings(200, 10.0, &tuning));
        QCOMPARE(chain.segments.size(), std::size_t(1));
        QCOMPARE(chain.segments[0].temperature, 3.0);
        QCOMPARE(chain.segments[0].step, 0.05);
    }

    // The progress callback runs on the chain's thread after iteration `last - 1`, so a change
    // made there must start exactly at iteration `last`.
    void changeStartsSegmentAtNextIteration()
    {
        LiveTuning tuning;
        const RandomWalkProposal proposal(0.05);
        std::int64_t temperatureAt = -1, stepAt = -1;
        const ChainResult chain = runChain(*m_model, proposal, *m_test, settings(2000, 10.0, &tuning), {},
                                           [&](const ChainResult &, std::int64_t, std::int64_t last) {
                                               if (temperatureAt < 0 && last >= 500) {
                                                   tuning.setTemperature(40.0);
                                                   temperatureAt = last;
                                               } else if (stepAt < 0 && last >= 1200) {
                                                   tuning.setStep(0.2);
                                                   stepAt = last;
                                               }
                                           });
        QCOMPARE(chain.segments.size(), std::size_t(3));
        QCOMPARE(chain.segments[1].start, temperatureAt);
        QCOMPARE(chain.segments[1].temperature, 40.0);
        QCOMPARE(chain.segments[1].step, 0.05);
        QCOMPARE(chain.segments[2].start, stepAt);
        QCOMPARE(chain.segments[2].temperature, 40.0);
        QCOMPARE(chain.segments[2].step, 0.2);
        QCOMPARE(chain.finalSegmentStart(), stepAt);
    }

    void repeatingTheCurrentValueStartsNoSegment()
    {
        LiveTuning tuning;
        const RandomWalkProposal proposal(0.05);
        bool asked = false;
        const ChainResult chain = runChain(*m_model, proposal, *m_test, settings(1000, 10.0, &tuning), {},
                                           [&](const ChainResult &, std::int64_t, std::int64_t last) {
                                               if (!asked && last >= 300) {
                                                   tuning.setTemperature(10.0);
                                                   tuning.setStep(0.05);
                                                   asked = true;
                                               }
                                           });
        QVERIFY(asked);
        QCOMPARE(chain.segments.size(), std::size_t(1));
    }

    // Start at a temperature 50 times too cold, switch to T = 20 after 3000 iterations, and test
    // the final segment (after its own burn-in) against the exact tempered posterior at T = 20:
    // mean, variance (χ²) and a KS test on thinned draws.
    void finalSegmentSamplesTheNewPosterior()
    {
        constexpr double kNewTemperature = 20.0;
        const double mean = m_model->posteriorMean(kNewTemperature);
        const double sd = std::sqrt(m_model->posteriorVariance(kNewTemperature));
        LiveTuning tuning;
        const RandomWalkProposal proposal(sd / 7.0); // right for T = 0.4, far too small for T = 20
        std::int64_t switchedAt = -1;
        const ChainResult chain =
            runChain(*m_model, proposal, *m_test, settings(3000 + 61000, kNewTemperature / 50.0, &tuning), {},
                     [&](const ChainResult &, std::int64_t, std::int64_t last) {
                         if (switchedAt < 0 && last >= 3000) {
                             tuning.setTemperature(kNewTemperature);
                             tuning.setStep(sd);
                             switchedAt = last;
                         }
                     });
        QCOMPARE(chain.segments.size(), std::size_t(2));
        QCOMPARE(chain.finalSegmentStart(), switchedAt);
        std::vector<double> thinned;
        for (std::int64_t t = switchedAt + 1000; t < chain.completed; t += 30)
            thinned.push_back(chain.samples(t, 0));
        const double n = static_cast<double>(thinned.size());
        QVERIFY(n > 1800);
        const Eigen::Map<const Eigen::ArrayXd> values(thinned.data(), static_cast<Eigen::Index>(thinned.size()));
        const double sampleMean = values.mean();
        const double sampleVariance = (values - sampleMean).square().sum() / (n - 1.0);
        const double alpha = 1e-4;
        QVERIFY2(std::abs(sampleMean - mean) < teststats::zCritical(alpha) * sd / std::sqrt(n),
                 qPrintable(QString("mean %1 vs %2").arg(sampleMean).arg(mean)));
        const double ratio = sampleVariance / (sd * sd) * (n - 1.0);
        QVERIFY2(ratio > teststats::chiSquaredLower(n - 1.0, alpha / 2) && ratio < teststats::chiSquaredUpper(n - 1.0, alpha / 2),
                 qPrintable(QString("variance %1 vs %2").arg(sampleVariance).arg(sd * sd)));
        const boost::math::normal posterior(mean, sd);
        const double d = teststats::ksStatistic(thinned, [&](double v) { return boost::math::cdf(posterior, v); });
        QVERIFY2(teststats::ksPValue(d, thinned.size()) > alpha, qPrintable(QString("KS D = %1").arg(d)));

        // The cold first segment is far narrower: the test above can tell the two apart.
        std::vector<double> cold;
        for (std::int64_t t = 1000; t < switchedAt; t += 5)
            cold.push_back(chain.samples(t, 0));
        const double dCold = teststats::ksStatistic(cold, [&](double v) { return boost::math::cdf(posterior, v); });
        QVERIFY2(teststats::ksPValue(dCold, cold.size()) < alpha, qPrintable(QString("cold KS D = %1").arg(dCold)));
    }

    // During a burn-in the schedule's own temperature runs on, so a change starts its segment
    // where the burn-in ends, wherever it was made.
    void changeDuringBurnInStartsAfterIt()
    {
        LiveTuning tuning;
        const RandomWalkProposal proposal(0.05);
        ChainSettings chain = settings(1000, 10.0, &tuning);
        chain.burnIn = 400;
        chain.burnInTemperature = 100.0;
        bool asked = false;
        const ChainResult result = runChain(*m_model, proposal, *m_test, chain, {},
                                            [&](const ChainResult &, std::int64_t, std::int64_t last) {
                                                if (!asked && last >= 100) {
                                                    tuning.setTemperature(20.0);
                                                    asked = true;
                                                }
                                            });
        QVERIFY(asked);
        QCOMPARE(result.segments.size(), std::size_t(2)); // the burn-in, then the target with the change
        QVERIFY(result.segments[0].burnIn);
        QCOMPARE(result.segments[1].start, std::int64_t(400));
        QCOMPARE(result.segments[1].temperature, 20.0);
        QVERIFY(result.segments[1].startSeconds > 0.0);
        // Asked before the start: the same, not a replaced first segment.
        LiveTuning early;
        early.setTemperature(30.0);
        chain.tuning = &early;
        const ChainResult second = runChain(*m_model, proposal, *m_test, chain);
        QCOMPARE(second.segments.size(), std::size_t(2));
        QVERIFY(second.segments[0].burnIn);
        QCOMPARE(second.segments[0].temperature, 100.0); // the burn-in's own T₀
        QCOMPARE(second.segments[1].start, std::int64_t(400));
        QCOMPARE(second.segments[1].temperature, 30.0);
        QVERIFY(!second.segments[1].burnIn);
    }

    void changesFromAnotherThread()
    {
        LiveTuning tuning;
        const RandomWalkProposal proposal(0.05);
        std::atomic<bool> started{false};
        std::jthread changer([&] {
            while (!started.load())
                std::this_thread::yield();
            tuning.setStep(0.1);
        });
        const ChainResult chain = runChain(*m_model, proposal, *m_test, settings(400'000, 10.0, &tuning), {},
                                           [&](const ChainResult &, std::int64_t, std::int64_t) { started = true; });
        changer.join();
        QCOMPARE(chain.segments.back().step, 0.1);
        QVERIFY(chain.segments.size() <= 2);
    }

    void onlyPreDesignedTestsRefuseLiveChanges()
    {
        for (TestMethod method : allMethods()) {
            RunConfig config;
            config.method = method;
            QVERIFY(followsLiveTuning(config)); // AustereMH(c) at the paper's fixed (m, ε) included
            config.austereErrorBound = 0.01;
            QCOMPARE(followsLiveTuning(config), method != TestMethod::AustereConservative);
        }
    }

    void rejectsBadValues()
    {
        LiveTuning tuning;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, tuning.setTemperature(0.0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, tuning.setTemperature(-2.0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, tuning.setTemperature(std::nan("")));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, tuning.setStep(0.0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, tuning.setStep(INFINITY));
        QCOMPARE(tuning.version(), std::uint64_t(0));
        tuning.setStep(0.3);
        tuning.clear();
        QVERIFY(std::isnan(tuning.latest().step));
        QCOMPARE(tuning.version(), std::uint64_t(1));
    }
};

QTEST_APPLESS_MAIN(tst_LiveTuning)
#include "tst_live_tuning.moc"
