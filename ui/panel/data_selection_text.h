#pragma once
// The data box's selection in words: how many rows train the model, the one line shown under
// the dataset, and why a run cannot start with it. Functions of the selection alone, kept apart
// from the widgets that edit it (DatasetBox) so that the wording is read and tested in one place.
#include <string>

#include <QString>

#include "core/experiment/inputs/logistic_dataset.h"
#include "ui/files/data_files.h"

namespace ui {

/// A view of what the box holds; it refers to the box's members and lives no longer than a call.
struct DataSelection {
    const std::string &dataset;         ///< "gmm", "worst-case", "logreg", "glm", …
    bool userFile;                      ///< "Your file" rather than an image source
    const DataFileChoice &files;        ///< the user's files (kept while another dataset is shown)
    const DataProbe &probe;             ///< the latest finished check of the selection
    const core::LogisticDataSpec &spec; ///< classes and test split
    bool checking;                      ///< a check is still running
};

/// Training rows of the checked real data: the two classes' rows less the test split (all of
/// them when the source has its own test files); 0 while unknown or for generated data.
qint64 selectionTrainingRows(const DataSelection &selection);
/// One line on the selection: its size and labels, or why it cannot be used.
QString selectionStatus(const DataSelection &selection);
/// Why a run cannot start ("Your file" without a complete file choice, no training rows);
/// empty when it can. Malformed contents are found by the check and by the run.
QString selectionProblem(const DataSelection &selection);

} // namespace ui
