// The model capability interface: every method, control-variate order and proposal is accepted
// exactly where the dataset's model offers what it needs, refused otherwise with the
// capability's name and the model's reason, and the same check against a model that exists
// (the path a model outside the table takes) agrees with the table.
#include <boost/test/unit_test.hpp>

#include <set>
#include <stdexcept>
#include <string>

#include "core/experiment/inputs/datasets.h"
#include "core/experiment/settings/capability_check.h"
#include "core/experiment/settings/dataset_registry.h"
#include "core/experiment/settings/method_registry.h"
#include "core/experiment/settings/run_config.h"
#include "core/models/model.h"
#include "core/models/model_registry.h"
#include "tests/support/validation_probe.h"

using namespace core;

namespace {

using testsupport::refusal;

RunConfig configFor(const DatasetEntry &dataset, const MethodEntry &method)
{
    RunConfig config;
    config.dataset = std::string(dataset.name);
    config.method = method.method;
    config.nData = 1000;
    config.dimension = 3;
    if (method.method == TestMethod::AustereNonConservative)
        config.austereErrorBound = 0.01;
    if (!dataset.generated && modelIsChosen(dataset))
        config.logreg.data = "rows.csv"; // a regression on a file needs one; validation does not read it
    return config;
}

// The names of a prose list "a, b and c".
std::set<std::string> listedNames(std::string list)
{
    std::set<std::string> names;
    for (std::size_t at; (at = list.find(" and ")) != std::string::npos;)
        list.replace(at, 5, ", ");
    std::size_t start = 0;
    for (std::size_t comma; (comma = list.find(", ", start)) != std::string::npos; start = comma + 2)
        names.insert(list.substr(start, comma - start));
    names.insert(list.substr(start));
    return names;
}

// A model from outside the table: the Gaussian mean's data and likelihood, offering nothing.
class BareModel final : public Model {
public:
    explicit BareModel(std::shared_ptr<const Model> inner) : m_inner(std::move(inner)) {}
    std::string name() const override { return "bare"; }
    int dimension() const override { return m_inner->dimension(); }
    DataIndex dataSize() const override { return m_inner->dataSize(); }
    double logPrior(const Vector &theta) const override { return m_inner->logPrior(theta); }
    void logLikelihoodRatios(const Vector &from, const Vector &to, std::span<const DataIndex> rows,
                             std::span<double> out) const override
    {
        m_inner->logLikelihoodRatios(from, to, rows, out);
    }
    void logLikelihoodRatiosRange(const Vector &from, const Vector &to, DataIndex first,
                                  std::span<double> out) const override
    {
        m_inner->logLikelihoodRatiosRange(from, to, first, out);
    }
    double logLikelihoodSum(const Vector &theta) const override { return m_inner->logLikelihoodSum(theta); }
    Vector initialTheta() const override { return m_inner->initialTheta(); }

private:
    std::shared_ptr<const Model> m_inner;
};

} // namespace

BOOST_AUTO_TEST_CASE(everyCapabilityHasItsOwnNameAndKey)
{
    std::set<std::string_view> names, keys;
    for (ModelCapability capability : allCapabilities()) {
        BOOST_TEST(!capabilityName(capability).empty());
        names.insert(capabilityName(capability));
        keys.insert(capabilityKey(capability));
    }
    BOOST_TEST(names.size() == allCapabilities().size());
    BOOST_TEST(keys.size() == allCapabilities().size());
}

// Each built-in model says why it lacks each capability it lacks, and no reason is given for
// one it has.
BOOST_AUTO_TEST_CASE(everyMissingCapabilityHasItsReason)
{
    for (const ModelEntry &model : modelTable()) {
        BOOST_TEST_INFO(model.name);
        for (ModelCapability capability : allCapabilities()) {
            BOOST_TEST_INFO(capabilityKey(capability));
            if (model.capabilities.has(capability)) {
                BOOST_TEST(model.whyItLacks(capability).empty());
            } else {
                BOOST_TEST(!model.whyItLacks(capability).empty());
                BOOST_TEST(model.whyItLacks(capability) != "it does not implement it");
            }
        }
        for (const ModelEntry::Lack &lack : model.lacks)
            BOOST_TEST(!model.capabilities.has(lack.capability));
    }
}

// Every method on every dataset: refused exactly when the method's row needs what the model
// lacks, and then with the first missing capability's name, the dataset and the reason.
BOOST_AUTO_TEST_CASE(aMethodIsRefusedExactlyWhereTheModelLacksWhatItNeeds)
{
    for (const DatasetEntry &dataset : datasetTable()) {
        const ModelEntry &model = modelOf(dataset);
        for (const MethodEntry &method : methodTable()) {
            BOOST_TEST_INFO(std::string(dataset.name) + " " + std::string(method.name));
            const RunConfig config = configFor(dataset, method);
            const CapabilitySet missing = method.needs.missingFrom(model.capabilities);
            const std::string message = refusal(config);
            if (missing.empty()) {
                BOOST_TEST(message.empty());
                continue;
            }
            const ModelCapability first = missing.members().front();
            BOOST_TEST(message.find("method " + std::string(method.name) + " needs " + std::string(capabilityName(first))) == 0);
            BOOST_TEST(message.find("'" + std::string(dataset.name) + "' (" + std::string(model.label) + ") has none: "
                                    + std::string(model.whyItLacks(first)))
                       != std::string::npos);
            // It names the methods the model runs with, and each of them is accepted there.
            const std::string runsWith = "; the methods it runs with are ";
            const std::size_t listed = message.find(runsWith);
            BOOST_TEST_REQUIRE(listed != std::string::npos);
            const std::set<std::string> named = listedNames(message.substr(listed + runsWith.size()));
            for (const MethodEntry &other : methodTable()) {
                const bool isNamed = named.contains(std::string(other.name));
                BOOST_TEST(isNamed == other.needs.missingFrom(model.capabilities).empty(), other.name);
                if (isNamed)
                    BOOST_TEST(refusal(configFor(dataset, other)).empty(), other.name);
            }
        }
    }
}

// Control variates need Taylor proxies; with MHSubLhd also the remainder's bound; the Laplace
// proposals need the fit, the gradient proposals the gradient.
BOOST_AUTO_TEST_CASE(controlVariatesAndProposalsNeedTheirCapabilities)
{
    for (const DatasetEntry &dataset : datasetTable()) {
        BOOST_TEST_INFO(dataset.name);
        const CapabilitySet offered = modelOf(dataset).capabilities;
        RunConfig proxies = configFor(dataset, methodRow(TestMethod::Minibatch));
        proxies.controlVariates = ControlVariates::Taylor1;
        const std::string proxiesRefusal = refusal(proxies);
        BOOST_TEST(proxiesRefusal.empty() == offered.has(ModelCapability::TaylorProxies));
        if (!proxiesRefusal.empty()) {
            BOOST_TEST(proxiesRefusal.find("control-variates taylor1 needs Taylor proxies") == 0);
            BOOST_TEST(proxiesRefusal.ends_with("; use --control-variates none"), proxiesRefusal);
        }

        RunConfig sublhd = proxies;
        sublhd.method = TestMethod::SubLhd;
        const std::string sublhdRefusal = refusal(sublhd);
        BOOST_TEST(sublhdRefusal.empty()
                   == (offered.has(ModelCapability::TaylorProxies) && offered.has(ModelCapability::ResidualRange)));
        if (offered.has(ModelCapability::TaylorProxies) && !offered.has(ModelCapability::ResidualRange))
            BOOST_TEST(sublhdRefusal.find("control-variates taylor1 with sublhd needs a bound on the residuals' range for each move") == 0,
                       sublhdRefusal);

        RunConfig laplace = proxies;
        laplace.controlVariates = ControlVariates::None;
        laplace.proposal = ProposalKind::LaplaceLangevin;
        laplace.burnIn = 100;
        const std::string laplaceRefusal = refusal(laplace);
        BOOST_TEST(laplaceRefusal.empty() == offered.has(ModelCapability::LaplaceFit));
        if (!laplaceRefusal.empty()) {
            BOOST_TEST(laplaceRefusal.find("proposal laplace-langevin needs a Laplace fit") == 0, laplaceRefusal);
            BOOST_TEST(laplaceRefusal.ends_with("; use --proposal adaptive or adaptive-langevin"), laplaceRefusal);
        }

        RunConfig langevin = laplace;
        langevin.proposal = ProposalKind::AdaptiveLangevin;
        BOOST_TEST(refusal(langevin).empty() == offered.has(ModelCapability::Gradient));
    }
}

// The built models report their row's capabilities, so the check against a model that exists
// agrees with the table for every method; a model outside the table that offers nothing is
// refused by the first need, named.
BOOST_AUTO_TEST_CASE(theCheckOnAModelAgreesWithTheTableAndRefusesAModelOutsideIt)
{
    for (const DatasetEntry &dataset : datasetTable()) {
        if (!dataset.generated)
            continue;
        RunConfig data;
        data.dataset = std::string(dataset.name);
        data.nData = 1000;
        data.dimension = 3;
        applyDatasetDefaults(data, false, false);
        const DatasetInstance instance = makeDataset(data, false);
        BOOST_TEST_REQUIRE(instance.model != nullptr);
        BOOST_TEST((instance.model->capabilities() == modelOf(dataset).capabilities));
        for (const MethodEntry &method : methodTable()) {
            BOOST_TEST_INFO(std::string(dataset.name) + " " + std::string(method.name));
            const RunConfig config = configFor(dataset, method);
            bool accepted = true;
            try {
                requireModelCapabilities(config, *instance.model);
            } catch (const std::invalid_argument &) {
                accepted = false;
            }
            BOOST_TEST(accepted == method.needs.missingFrom(modelOf(dataset).capabilities).empty());
        }
    }

    RunConfig worstCase;
    worstCase.dataset = "worst-case";
    worstCase.nData = 1000;
    const BareModel bare(makeDataset(worstCase, false).model);
    BOOST_TEST(bare.capabilities().empty());
    RunConfig smh = worstCase;
    smh.method = TestMethod::Scalable;
    try {
        requireModelCapabilities(smh, bare);
        BOOST_FAIL("a model without Taylor proxies ran smh");
    } catch (const std::invalid_argument &error) {
        BOOST_TEST(std::string(error.what()) == "method smh needs Taylor proxies; the model 'bare' has none");
    }
}
