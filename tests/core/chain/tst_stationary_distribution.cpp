// Chains on a model with a known posterior (the mean of Gaussian data, flat prior, tempered)
// must reproduce that posterior: mean, variance and a KS test on thinned samples.
#include <QtTest>

#include <memory>

#include <boost/math/distributions/normal.hpp>

#include "core/chain/chain_runner.h"
#include "core/correction/correction_distribution.h"
#include "core/experiment/run_config.h"
#include "core/models/gaussian_mean_model.h"
#include "tests/support/statistics.h"

using namespace core;

class tst_StationaryDistribution : public QObject {
    Q_OBJECT

private:
    std::shared_ptr<const CorrectionDistribution> m_correction;
    std::unique_ptr<GaussianMeanModel> m_model;
    static constexpr double kTemperature = 20.0;

    // 61,000 iterations from the posterior mean, thinned by 30 after 1000 burn-in: about 2000
    // nearly independent draws. The proposal sd equals the posterior sd, the efficient 1-D
    // random walk of 000_…txt Sec. 2.1.
    std::vector<double> thinnedChain(const RunConfig &config)
    {
        auto test = makeAcceptanceTest(config, m_correction);
        const RandomWalkProposal proposal(std::sqrt(m_model->posteriorVariance(kTemperature)));
        ChainSettings settings;
        settings.samples = 61000;
        settings.seed = 99;
        settings.temperature = kTemperature;
        const ChainResult chain = runChain(*m_model, proposal, *test, settings);
        std::vector<double> thinned;
        for (std::int64_t t = 1000; t < chain.completed; t += 30)
            thinned.push_back(chain.samples(t, 0));
        return thinned;
    }

private slots:
    void initTestCase()
    {
        CorrectionParams params;
        params.grid = 2000;
        m_correction = std::make_shared<const CorrectionDistribution>(CorrectionDistribution::solve(params));
        // N/T = 1000, so Λ_i has sd ≈ 1000 |θ' − θ| and the minibatch test must grow its batch.
        Rng rng(2024);
        Eigen::VectorXd x(20000);
        for (Eigen::Index i = 0; i < x.size(); ++i)
            x[i] = 0.5 + rng.normal();
        m_model = std::make_unique<GaussianMeanModel>(x, 1.0);
    }

    void matchesPosterior_data()
    {
        QTest::addColumn<QString>("method");
        QTest::newRow("mh") << "mh";
        QTest::newRow("barker") << "barker";
        QTest::newRow("minibatch") << "minibatch";
    }

    void matchesPosterior()
    {
        QFETCH(QString, method);
        RunConfig config;
        config.method = parseMethod(method.toStdString());
        const double mean = m_model->posteriorMean(kTemperature);
        const double sd = std::sqrt(m_model->posteriorVariance(kTemperature));
        const std::vector<double> thinned = thinnedChain(config);
        const double n = static_cast<double>(thinned.size());
        const Eigen::Map<const Eigen::ArrayXd> values(thinned.data(), static_cast<Eigen::Index>(thinned.size()));
        const double sampleMean = values.mean();
        const double sampleVariance = (values - sampleMean).square().sum() / (n - 1.0);

        const double alpha = 1e-4;
        const double meanTolerance = teststats::zCritical(alpha) * sd / std::sqrt(n);
        QVERIFY2(std::abs(sampleMean - mean) < meanTolerance,
                 qPrintable(QString("mean %1 vs %2 (tolerance %3)").arg(sampleMean).arg(mean).arg(meanTolerance)));
        const double ratio = sampleVariance / (sd * sd) * (n - 1.0);
        QVERIFY2(ratio > teststats::chiSquaredLower(n - 1.0, alpha / 2) && ratio < teststats::chiSquaredUpper(n - 1.0, alpha / 2),
                 qPrintable(QString("variance %1 vs %2").arg(sampleVariance).arg(sd * sd)));
        const boost::math::normal posterior(mean, sd);
        const double d = teststats::ksStatistic(thinned, [&](double v) { return boost::math::cdf(posterior, v); });
        const double p = teststats::ksPValue(d, thinned.size());
        QVERIFY2(p > alpha, qPrintable(QString("KS D = %1, p = %2").arg(d).arg(p)));
    }

    // Without the correction the test is Barker's smeared by the batch noise, which breaks
    // detailed balance: with σ = 1.8 (so s²_Δ* up to 3.24) the chain's spread is visibly too wide.
    void naiveTestIsBiased()
    {
        RunConfig config;
        config.method = TestMethod::NaiveBarker;
        config.correction.sigma = 1.8;
        const double sd = std::sqrt(m_model->posteriorVariance(kTemperature));
        const std::vector<double> thinned = thinnedChain(config);
        const double n = static_cast<double>(thinned.size());
        const Eigen::Map<const Eigen::ArrayXd> values(thinned.data(), static_cast<Eigen::Index>(thinned.size()));
        const double sampleVariance = (values - values.mean()).square().sum() / (n - 1.0);
        const double ratio = sampleVariance / (sd * sd) * (n - 1.0);
        QVERIFY2(ratio > teststats::chiSquaredUpper(n - 1.0, 1e-4),
                 qPrintable(QString("naive variance %1 vs true %2: bias not detected").arg(sampleVariance).arg(sd * sd)));
    }

    void stopTokenStopsEarly()
    {
        RunConfig config;
        config.method = TestMethod::Barker;
        auto test = makeAcceptanceTest(config, m_correction);
        const RandomWalkProposal proposal(0.01);
        ChainSettings settings;
        settings.samples = 1'000'000;
        settings.temperature = kTemperature;
        settings.progressInterval = std::chrono::milliseconds(0);
        std::stop_source source;
        std::int64_t reported = 0;
        const ChainResult chain = runChain(*m_model, proposal, *test, settings, source.get_token(),
                                           [&](const ChainResult &, std::int64_t first, std::int64_t last) {
                                               QCOMPARE(first, reported); // contiguous, non-overlapping
                                               reported = last;
                                               if (last >= 640)
                                                   source.request_stop();
                                           });
        QVERIFY(chain.stopped);
        QVERIFY(chain.completed >= 640 && chain.completed < 1000);
        QCOMPARE(reported, chain.completed);
    }

    void rejectsBadSettings()
    {
        RunConfig config;
        config.method = TestMethod::Barker;
        auto test = makeAcceptanceTest(config, m_correction);
        const RandomWalkProposal proposal(0.01);
        ChainSettings settings;
        settings.temperature = 0.0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, runChain(*m_model, proposal, *test, settings));
        settings.temperature = -1.0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, runChain(*m_model, proposal, *test, settings));
        settings.temperature = 1.0;
        settings.samples = 0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, runChain(*m_model, proposal, *test, settings));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, RandomWalkProposal(0.0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, RandomWalkProposal(-0.1));
        Eigen::VectorXd bad(3);
        bad << 1.0, std::nan(""), 2.0;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, GaussianMeanModel(bad, 1.0));
    }
};

QTEST_APPLESS_MAIN(tst_StationaryDistribution)
#include "tst_stationary_distribution.moc"
