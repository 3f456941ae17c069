#include "core/experiment/settings/dataset_registry.h"

#include <algorithm>
#include <stdexcept>

#include "core/experiment/settings/dataset_presets.h"
#include "core/experiment/settings/prose.h"
#include "core/models/glm/glm_family.h"

namespace core {

const std::vector<DatasetEntry> &datasetTable()
{
    // Columns: name, label, help, model, generated, exactPosteriorMap, fixedDimension,
    // dimensionSetting, exportAs, boxLabel, boxToolTip, boxDescription, paperDefaults,
    // recommended, burnInShare, presetSizeReason.
    static const std::vector<DatasetEntry> table = {
        {"gmm", "Gaussian mixture", "gmm (the paper's mixture)", "gmm", true, true, 2, false, DatasetExport::MixturePoints,
         "Gaussian mixture (Welling–Teh)", "",
         "N points generated from the data seed: x ~ ½ N(θ₁, 2) + ½ N(θ₁ + θ₂, 2) (Sec. 6.1).", nullptr,
         mixtureRecommended, 10, ""},
        {"worst-case", "worst case", "worst-case", "gaussian-mean", true, false, 1, false, DatasetExport::None,
         "Worst-case Gaussian",
         "", "N points x ~ N(0.5, 1) with a flat prior; one parameter θ (Sec. 2.1).", worstCasePaperDefaults,
         worstCaseRecommended, 10, "the test reads about a third of N at any N"},
        {"logreg", "logistic regression", "logreg (images or a file)", "logreg", false, false, 0, false,
         DatasetExport::None, "",
         "", "", fileLogisticPaperDefaults, fileLogisticRecommended, 6, ""},
        {"tall-logreg", "tall data", "tall-logreg (synthetic, --n-data x --dimension)", "logreg", true, false, 0, true,
         DatasetExport::LogisticRows, "Logistic: synthetic tall data",
         "N rows of 19 standard normal covariates and a bias, labels drawn at θ* = (1, …, 1) (Cornish et al. 2019); "
         "--dimension sets d",
         "N rows generated from the data seed: N(0, 1) covariates and a bias, labels drawn at θ* = (1, …, 1); prior "
         "N(0, s²I) with s = %1.",
         tallPaperDefaults, tallRecommended, 10, ""},
        {"tall-glm", "tall GLM", "tall-glm (synthetic, --model, --n-data x --dimension)", "", true, false, 0, true,
         DatasetExport::RegressionRows,
         "Regression: synthetic tall data",
         "N rows of 19 standard normal covariates and a bias, responses drawn from the chosen model at θ* = "
         "(1/√19, …, 1/√19, ½); --model chooses probit, Poisson, linear or robust linear regression",
         "N rows generated from the data seed: N(0, 1) covariates and a bias, responses drawn from the model at θ*; "
         "prior N(0, s²I) with s = %1.",
         tallPaperDefaults, tallRecommended, 10, ""},
        {"glm", "regression on a file", "glm (your file: --data, --model, --response-column)", "", false, false, 0, false,
         DatasetExport::None, "", "", "", fileGlmPaperDefaults, tallRecommended, 10, ""},
    };
    return table;
}

const DatasetEntry *findDataset(std::string_view name)
{
    const auto &table = datasetTable();
    const auto found = std::find_if(table.begin(), table.end(), [name](const DatasetEntry &row) { return row.name == name; });
    return found != table.end() ? &*found : nullptr;
}

const DatasetEntry &fileDataset()
{
    for (const DatasetEntry &entry : datasetTable())
        if (!entry.generated && !modelIsChosen(entry))
            return entry;
    throw std::logic_error("the dataset table has no dataset read from files");
}

std::string datasetNames(std::string_view conjunction, bool (*which)(const DatasetEntry &))
{
    return joinNamesAsProse(datasetTable(), conjunction, which);
}

bool modelIsChosen(const DatasetEntry &dataset)
{
    return dataset.model.empty();
}

const ModelEntry &modelOf(const DatasetEntry &dataset, std::string_view chosen)
{
    if (!modelIsChosen(dataset))
        return modelEntry(dataset.model);
    const std::string name = chosen.empty() ? GlmFamilySpec{}.name : std::string(chosen);
    const auto &names = glmFamilyNames();
    if (std::find(names.begin(), names.end(), name) == names.end()) {
        const std::vector<std::string_view> choices(names.begin(), names.end());
        throw std::invalid_argument("model must be " + joinAsProse(choices, "or") + " for " + std::string(dataset.name)
                                    + "; got '" + name + "'");
    }
    return modelEntry(name);
}

const DatasetEntry &datasetEntry(std::string_view name)
{
    if (const DatasetEntry *entry = findDataset(name))
        return *entry;
    std::string message = "dataset must be ";
    message += datasetNames();
    message += "; got '";
    message += name;
    message += "'";
    throw std::invalid_argument(message);
}

} // namespace core
