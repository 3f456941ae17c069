#include "ui/panel/data_selection_text.h"

#include <stdexcept>

#include <QObject>

#include "core/data/classification_data.h"
#include "core/experiment/settings/dataset_registry.h"

namespace ui {

qint64 selectionTrainingRows(const DataSelection &s)
{
    if (const core::DatasetEntry *entry = core::findDataset(s.dataset); !entry || entry->generated || !s.probe.ok)
        return 0;
    qint64 rows = s.probe.rows;
    if (!s.probe.regression.isEmpty())
        return rows; // a regression holds out no test rows
    if (!s.probe.labelCounts.isEmpty())
        rows = s.probe.labelCounts.value(s.spec.classes.first) + s.probe.labelCounts.value(s.spec.classes.second);
    if (s.probe.hasTestFiles)
        return rows;
    try {
        return rows - core::heldOutRows(rows, s.spec.testSize, s.spec.testFraction);
    } catch (const std::invalid_argument &) {
        return 0; // fewer than two rows: nothing to train on
    }
}

QString selectionStatus(const DataSelection &s)
{
    if (const core::DatasetEntry *entry = core::findDataset(s.dataset); entry && entry->generated) {
        const QString description = QObject::tr(std::string(entry->boxDescription).c_str());
        return description.contains(QLatin1String("%1")) ? description.arg(s.spec.model.priorSd) : description;
    }
    if (s.checking)
        return QObject::tr("Checking the data…");
    if (s.userFile && s.files.isEmpty())
        return QObject::tr("No file chosen: press Choose files…, or drop a CSV file or an IDX image and label file on the "
                  "window.");
    if (!s.probe.ok)
        return QObject::tr("Cannot use this data: %1").arg(s.probe.error);
    if (const QString problem = selectionProblem(s); !problem.isEmpty())
        return QObject::tr("Cannot use this data: %1").arg(problem);
    if (!s.probe.regression.isEmpty())
        return QObject::tr("%1; every row trains the model.").arg(s.probe.regression);
    if (!s.probe.csvClassNames.isEmpty())
        return QObject::tr("%1: %L2 rows, %L3 features, labels %4 (0) and %5 (1); %L6 training rows after the test split.")
            .arg(s.files.displayName())
            .arg(s.probe.rows)
            .arg(s.probe.features)
            .arg(s.probe.csvClassNames.value(0), s.probe.csvClassNames.value(1))
            .arg(selectionTrainingRows(s));
    const qint64 a = s.probe.labelCounts.value(s.spec.classes.first), b = s.probe.labelCounts.value(s.spec.classes.second);
    if (s.spec.classes.first == s.spec.classes.second)
        return QObject::tr("Choose two different classes.");
    if (a == 0 || b == 0)
        return QObject::tr("The data hold no row of class %1.").arg(a == 0 ? s.spec.classes.first : s.spec.classes.second);
    return QObject::tr("%L1 + %L2 rows of the two classes; %L3 for training%4.")
        .arg(a)
        .arg(b)
        .arg(selectionTrainingRows(s))
        .arg(s.probe.hasTestFiles ? QObject::tr(", the source's own test files for testing")
                                  : QObject::tr(", %L1 random rows for testing").arg(s.spec.testSize));
}

QString selectionProblem(const DataSelection &s)
{
    // Without files the core would fall back to an image source: say so instead.
    const core::DatasetEntry *entry = core::findDataset(s.dataset);
    const bool readsFiles = entry && !entry->generated;
    if (readsFiles && core::modelIsChosen(*entry))
        return s.files.csv.isEmpty() && s.files.data.isEmpty()
                   ? QObject::tr("Choose your data file first: a CSV, LIBSVM or NumPy file with a numeric response "
                                 "(Choose files…, or drop it on the window).")
                   : QString();
    if (readsFiles && s.userFile && !s.files.isComplete())
        return s.files.isEmpty() ? QObject::tr("Choose a data file first (Choose files…, or drop it on the window).")
                                 : probeFiles(s.files).error;
    if (readsFiles && s.probe.ok && selectionTrainingRows(s) == 0 && s.spec.classes.first != s.spec.classes.second)
        return QObject::tr("0 training rows: the data hold %L1 row(s) of the chosen classes, and a test split needs at least "
                  "2 (one to test, one to train on).")
            .arg(s.probe.labelCounts.isEmpty() ? s.probe.rows
                                               : s.probe.labelCounts.value(s.spec.classes.first)
                                                     + s.probe.labelCounts.value(s.spec.classes.second));
    return {};
}

} // namespace ui
