// The dataset table (dataset_registry.h): every trait a row states is what validation, the
// settings table and the loader do with that dataset.
#include <boost/test/unit_test.hpp>

#include <set>
#include <stdexcept>
#include <string>

#include "core/experiment/inputs/datasets.h"
#include "core/experiment/settings/dataset_registry.h"
#include "core/experiment/settings/run_config.h"
#include "core/models/glm/glm_family.h"
#include "tests/support/validation_probe.h"
#include "core/experiment/settings/settings_table.h"

using namespace core;

namespace {

using testsupport::validates;

RunConfig smallRun(const DatasetEntry &entry)
{
    RunConfig config;
    config.dataset = std::string(entry.name);
    config.nData = 2000;
    config.dimension = 3;
    if (!entry.generated && modelIsChosen(entry))
        config.logreg.data = "rows.csv"; // a regression on a file needs one; validation does not read it
    return config;
}

} // namespace

BOOST_AUTO_TEST_CASE(namesAreUniqueAndUnknownNamesAreRefusedWithTheList)
{
    std::set<std::string_view> names;
    for (const DatasetEntry &entry : datasetTable()) {
        BOOST_TEST(names.insert(entry.name).second);
        BOOST_TEST(&datasetEntry(entry.name) == &entry);
        BOOST_TEST(!entry.label.empty());
        BOOST_TEST(entry.help.substr(0, entry.name.size()) == entry.name);
        // A generated dataset has its entry and its line in the app's data box.
        BOOST_TEST(!entry.generated == entry.boxLabel.empty(), entry.name);
        BOOST_TEST(!entry.generated == entry.boxDescription.empty(), entry.name);
        // Every row can be made: makeDataset has its loader.
        BOOST_TEST(hasDatasetLoader(entry.name), entry.name);
    }
    BOOST_TEST(!hasDatasetLoader("mnist"));
    BOOST_TEST(allDatasets().size() == datasetTable().size());
    BOOST_TEST(!fileDataset().generated);
    try {
        datasetEntry("mnist");
        BOOST_FAIL("an unknown dataset was accepted");
    } catch (const std::invalid_argument &error) {
        BOOST_TEST(std::string(error.what()) == "dataset must be " + datasetNames() + "; got 'mnist'");
    }
    RunConfig unknown;
    unknown.dataset = "mnist";
    try {
        makeDataset(unknown, false);
        BOOST_FAIL("makeDataset made an unknown dataset");
    } catch (const std::invalid_argument &error) {
        BOOST_TEST(std::string(error.what()) == "dataset must be " + datasetNames() + "; got 'mnist'");
    }
}

BOOST_AUTO_TEST_CASE(validationAndSettingScopesFollowTheTraits)
{
    const SettingSpec &dimension = *findSettingByKey("dimension");
    const SettingSpec &source = *findSettingByKey("source");
    const SettingSpec &data = *findSettingByKey("data");
    const SettingSpec &response = *findSettingByKey("response_column");
    for (const DatasetEntry &entry : datasetTable()) {
        BOOST_TEST_INFO(entry.name);
        const ModelEntry &model = modelOf(entry);
        BOOST_TEST(isLogisticDataset(std::string(entry.name)) == model.classifier);
        BOOST_TEST(appliesTo(dimension, std::string(entry.name)) == entry.dimensionSetting);
        // The image sources are the classifier's; a file and its response column are a regression's too.
        BOOST_TEST(appliesTo(source, std::string(entry.name)) == (!entry.generated && !modelIsChosen(entry)));
        BOOST_TEST(appliesTo(data, std::string(entry.name)) == !entry.generated);
        BOOST_TEST(appliesTo(response, std::string(entry.name)) == (!entry.generated && modelIsChosen(entry)));

        RunConfig laplace = smallRun(entry);
        laplace.proposal = ProposalKind::LaplaceCrankNicolson;
        laplace.burnIn = 100;
        BOOST_TEST(validates(laplace) == model.capabilities.has(ModelCapability::LaplaceFit));

        RunConfig proxies = smallRun(entry);
        proxies.controlVariates = ControlVariates::Taylor2;
        BOOST_TEST(validates(proxies) == model.capabilities.has(ModelCapability::TaylorProxies));

        RunConfig sublhd = proxies;
        sublhd.method = TestMethod::SubLhd;
        BOOST_TEST(validates(sublhd)
                   == (model.capabilities.has(ModelCapability::TaylorProxies)
                       && model.capabilities.has(ModelCapability::ResidualRange)));
    }
}

// The generated datasets' models have the dimension the row states, and the mixture (the row
// with a known posterior) comes with its binned posterior; a dataset whose model --model
// chooses makes each model it may choose.
BOOST_AUTO_TEST_CASE(generatedDataHaveTheStatedDimensionAndPosterior)
{
    for (const DatasetEntry &entry : datasetTable()) {
        if (!entry.generated)
            continue;
        const std::vector<std::string> models = modelIsChosen(entry) ? glmFamilyNames() : std::vector<std::string>{""};
        for (const std::string &chosen : models) {
            BOOST_TEST_INFO(entry.name << " " << chosen);
            RunConfig config = smallRun(entry);
            config.glm.name = chosen.empty() ? config.glm.name : chosen;
            applyDatasetDefaults(config, false, false);
            const DatasetInstance data = makeDataset(config, true);
            BOOST_TEST_REQUIRE(data.model != nullptr);
            if (entry.fixedDimension > 0)
                BOOST_TEST(data.model->dimension() == entry.fixedDimension);
            if (entry.dimensionSetting)
                BOOST_TEST(data.model->dimension() == config.dimension);
            BOOST_TEST((data.gmmPosterior != nullptr) == entry.exactPosteriorMap);
            BOOST_TEST((data.classifier != nullptr) == modelOf(config).classifier);
            // The model made is the row's, with the row's capabilities.
            BOOST_TEST(data.model->name() == std::string(modelOf(config).name));
            BOOST_TEST((data.model->capabilities() == modelOf(config).capabilities));
        }
    }
}
