// An annealing burn-in (Seita et al., 003_…txt Sec. 6.2) samples at its own T₀: its rows must
// never count as draws of the target. The chain marks them as a segment of their own, the
// target segment starts where the burn-in ends, and every statistic of the target (ESS, R-hat,
// the posterior metrics) and the lp__ column follow that.
#include <QtTest>

#include <memory>

#include <boost/math/distributions/normal.hpp>

#include "core/chain/chain_runner.h"
#include "core/diagnostics/chain_convergence.h"
#include "core/diagnostics/effective_sample_size.h"
#include "core/experiment/datasets.h"
#include "core/experiment/experiment_runner.h"
#include "core/experiment/log_posterior_column.h"
#include "core/models/gaussian_mean_model.h"
#include "tests/support/statistics.h"

using namespace core;

class tst_BurnIn : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<GaussianMeanModel> m_model;
    std::unique_ptr<AcceptanceTest> m_test;
    static constexpr double kTemperature = 20.0;
    static constexpr double kBurnInTemperature = 2000.0; // 100× hotter: a 10× wider posterior
    static constexpr std::int64_t kBurnIn = 5000;

    ChainResult annealedChain(std::int64_t samples)
    {
        const double sd = std::sqrt(m_model->posteriorVariance(kTemperature));
        const RandomWalkProposal proposal(sd);
        const RandomWalkProposal hotProposal(10.0 * sd);
        ChainSettings settings;
        settings.samples = samples;
        settings.seed = 4;
        settings.temperature = kTemperature;
        settings.burnIn = kBurnIn;
        settings.burnInTemperature = kBurnInTemperature;
        settings.burnInProposal = &hotProposal;
        return runChain(*m_model, proposal, *m_test, settings);
    }

private slots:
    void initTestCase()
    {
        Rng rng(8);
        Eigen::VectorXd x(5000);
        for (Eigen::Index i = 0; i < x.size(); ++i)
            x[i] = 0.5 + rng.normal();
        m_model = std::make_unique<GaussianMeanModel>(x, 1.0);
        RunConfig config;
        config.method = TestMethod::Metropolis;
        m_test = makeAcceptanceTest(config, nullptr);
    }

    void burnInIsItsOwnSegment()
    {
        const ChainResult chain = annealedChain(8000);
        QCOMPARE(chain.segments.size(), std::size_t(2));
        QVERIFY(chain.hasBurnIn());
        QCOMPARE(chain.segments[0].start, std::int64_t(0));
        QCOMPARE(chain.segments[0].temperature, kBurnInTemperature);
        QVERIFY(!chain.segments[1].burnIn);
        QCOMPARE(chain.segments[1].start, kBurnIn);
        QCOMPARE(chain.segments[1].temperature, kTemperature);
        QVERIFY(chain.segments[1].startSeconds > 0.0);
        QCOMPARE(chain.finalSegmentStart(), kBurnIn);
        QCOMPARE(chain.targetSegmentCount(), std::size_t(1));
        QVERIFY(!chain.retuned(kTemperature, chain.segments[1].step));
        QCOMPARE(chain.temperatureAt(0), kBurnInTemperature);
        QCOMPARE(chain.temperatureAt(kBurnIn - 1), kBurnInTemperature);
        QCOMPARE(chain.temperatureAt(kBurnIn), kTemperature);
    }

    void burnInMustLeaveSamples()
    {
        const RandomWalkProposal proposal(0.1);
        ChainSettings settings;
        settings.samples = 100;
        settings.burnIn = 100;
        settings.burnInTemperature = 10.0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, runChain(*m_model, proposal, *m_test, settings));
        RunConfig config;
        config.samples = 100;
        config.burnIn = 100;
        config.annealFrom = 10.0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, validate(config));
    }

    // The diagnostics describe the target segment only: ESS equals that of rows [B, n) exactly.
    void diagnosticsSkipTheBurnIn()
    {
        const ChainResult chain = annealedChain(8000);
        std::vector<double> target;
        for (std::int64_t t = kBurnIn; t < chain.completed; ++t)
            target.push_back(chain.samples(t, 0));
        const std::vector<double> ess = bulkEssPerComponent(chain);
        QCOMPARE(ess.size(), std::size_t(1));
        QCOMPARE(ess[0], bulkEffectiveSampleSize({target}));
    }

    // The target segment samples the exact posterior at T; the burn-in rows, from a 10× wider
    // one, fail the same KS test, so counting them (as the chain did when its only segment
    // started at 0) visibly distorts the figures.
    void targetSegmentSamplesThePosterior()
    {
        const ChainResult chain = annealedChain(kBurnIn + 60'000);
        const double mean = m_model->posteriorMean(kTemperature);
        const double sd = std::sqrt(m_model->posteriorVariance(kTemperature));
        const boost::math::normal posterior(mean, sd);
        const auto cdf = [&](double v) { return boost::math::cdf(posterior, v); };
        const double alpha = 1e-4;
        std::vector<double> target;
        for (std::int64_t t = chain.finalSegmentStart() + 200; t < chain.completed; t += 25)
            target.push_back(chain.samples(t, 0));
        const double d = teststats::ksStatistic(target, cdf);
        QVERIFY2(teststats::ksPValue(d, target.size()) > alpha, qPrintable(QString("target KS D = %1").arg(d)));
        std::vector<double> burnIn;
        for (std::int64_t t = 0; t < kBurnIn; t += 10)
            burnIn.push_back(chain.samples(t, 0));
        const double dBurnIn = teststats::ksStatistic(burnIn, cdf);
        QVERIFY2(teststats::ksPValue(dBurnIn, burnIn.size()) < alpha, qPrintable(QString("burn-in KS D = %1").arg(dBurnIn)));
    }

    // lp__ of each row at the temperature it was sampled at.
    void logPosteriorUsesEachRowsTemperature()
    {
        const ChainResult chain = annealedChain(8000);
        const std::vector<double> lp = logPosteriorColumn(chain, *m_model);
        QCOMPARE(lp.size(), std::size_t(8000));
        for (std::int64_t t : {std::int64_t(0), std::int64_t(17), kBurnIn - 1, kBurnIn, std::int64_t(7999)}) {
            const Vector theta = chain.samples.row(t).transpose();
            const double expected = m_model->logPrior(theta) + m_model->logLikelihoodSum(theta) / chain.temperatureAt(t);
            QCOMPARE(lp[static_cast<std::size_t>(t)], expected);
        }
        std::stop_source stop;
        stop.request_stop();
        QVERIFY(logPosteriorColumn(chain, *m_model, stop.get_token()).empty());
    }

    // Through the run used by the CLI: the mixture's posterior metrics and its binned lp__ both
    // leave the burn-in rows out or evaluate them at T₀.
    void mixtureRunMeasuresTheTargetOnly()
    {
        RunConfig config;
        config.method = TestMethod::Barker;
        config.nData = 20'000;
        config.temperature = 200.0;
        config.samples = 3000;
        config.burnIn = 1000;
        config.annealFrom = 20'000.0;
        config.seed = 3;
        const DatasetInstance dataset = makeDataset(config, true);
        const ExperimentOutcome outcome = runExperiment(config, dataset, nullptr);
        QVERIFY(outcome.posterior.has_value());
        QCOMPARE(outcome.posterior->samples, std::int64_t(2000)); // rows [1000, 3000) only
        const std::vector<double> lp = logPosteriorColumn(outcome.chain, *dataset.gmmPosterior);
        const auto &s = outcome.chain.samples;
        QCOMPARE(lp[10], dataset.gmmPosterior->logDensity(s(10, 0), s(10, 1), 20'000.0));
        QCOMPARE(lp[2500], dataset.gmmPosterior->logDensity(s(2500, 0), s(2500, 1), 200.0));
    }
};

QTEST_APPLESS_MAIN(tst_BurnIn)
#include "tst_burn_in.moc"
