#include "ui/files/data_files.h"

#include <exception>
#include <optional>

#include <QDir>
#include <QFileInfo>
#include <QObject>

#include <algorithm>

#include "core/data/csv_dataset.h"
#include "core/data/data_file.h"
#include "core/data/data_formats.h"
#include "core/data/idx_reader.h"
#include "core/experiment/inputs/datasets.h"

namespace ui {
namespace {

enum class IdxRole { Unknown, Images, Labels };

IdxRole roleByName(const QString &path)
{
    const QString name = QFileInfo(path).fileName().toLower();
    if (name.contains(QLatin1String("label")) || name.contains(QLatin1String("idx1")))
        return IdxRole::Labels;
    if (name.contains(QLatin1String("image")) || name.contains(QLatin1String("idx3")))
        return IdxRole::Images;
    return IdxRole::Unknown;
}

// How the selection holds the file, by its name (data_formats.h); nullopt when the name says nothing.
std::optional<core::FileSelection> selectionByName(const QString &path)
{
    if (const auto format = core::formatFromName(path.toStdString()))
        return core::dataFormatEntry(*format).selection;
    return std::nullopt;
}

bool isCsv(const QString &path)
{
    return selectionByName(path) == core::FileSelection::Table;
}

// The file name with each (from, to) replaced, then with and without ".gz"; the first that
// exists and is not `path` itself.
QString companion(const QString &path, const QList<QPair<QString, QString>> &replacements)
{
    const QFileInfo info(path);
    QString name = info.fileName();
    bool changed = false;
    for (const auto &[from, to] : replacements) {
        if (name.contains(from, Qt::CaseInsensitive)) {
            name.replace(from, to, Qt::CaseInsensitive);
            changed = true;
        }
    }
    if (!changed)
        return {};
    QStringList candidates = {name};
    if (name.endsWith(QLatin1String(".gz"), Qt::CaseInsensitive))
        candidates.append(name.chopped(3));
    else
        candidates.append(name + QStringLiteral(".gz"));
    for (const QString &candidate : candidates) {
        const QFileInfo found(info.dir(), candidate);
        if (found.isFile() && found.absoluteFilePath() != info.absoluteFilePath())
            return found.absoluteFilePath();
    }
    return {};
}

QString fileName(const QString &path)
{
    return QFileInfo(path).fileName();
}

bool isArrayOrLibsvm(const QString &path)
{
    return selectionByName(path) == core::FileSelection::Array;
}

// A .npy label array by its name: "labels.npy", "y.npy", "y_train.npy".
bool looksLikeLabelArray(const QString &path)
{
    const QString name = QFileInfo(path).fileName().toLower();
    return name.contains(QLatin1String("label")) || name.startsWith(QLatin1String("y.")) || name.startsWith(QLatin1String("y_"));
}

// LIBSVM alone, or one or two .npy arrays (features, and labels told by name or by size).
DataFileChoice sortArrayFiles(const QStringList &paths, QString *problem)
{
    DataFileChoice choice;
    if (paths.size() == 1) {
        choice.data = paths.front();
        return choice;
    }
    const bool arrays = std::all_of(paths.begin(), paths.end(), [](const QString &path) {
        return core::formatFromName(path.toStdString()) == core::DataFormat::Npy;
    });
    if (paths.size() > 2 || !arrays) {
        *problem = QObject::tr("Drop a LIBSVM file alone, or a .npy features array with its .npy label array; got %1 files.")
                       .arg(paths.size());
        return choice;
    }
    int labels = looksLikeLabelArray(paths[0]) ? 0 : looksLikeLabelArray(paths[1]) ? 1 : -1;
    if (labels < 0) // a label array is d times smaller than its features
        labels = QFileInfo(paths[0]).size() < QFileInfo(paths[1]).size() ? 0 : 1;
    choice.labels = paths[labels];
    choice.data = paths[1 - labels];
    return choice;
}

} // namespace

QString DataFileChoice::displayName() const
{
    if (!csv.isEmpty())
        return fileName(csv);
    if (!data.isEmpty())
        return labels.isEmpty() ? fileName(data) : QObject::tr("%1 + %2").arg(fileName(data), fileName(labels));
    if (images.isEmpty() && labels.isEmpty())
        return {};
    return QObject::tr("%1 + %2")
        .arg(images.isEmpty() ? QObject::tr("(no images)") : fileName(images),
             labels.isEmpty() ? QObject::tr("(no labels)") : fileName(labels));
}

bool looksLikeDataFile(const QString &path)
{
    return selectionByName(path).has_value() || QFileInfo(path).fileName().toLower().endsWith(QLatin1String(".gz"));
}

QString companionLabels(const QString &imagesPath)
{
    return companion(imagesPath, {{QStringLiteral("images"), QStringLiteral("labels")},
                                  {QStringLiteral("image"), QStringLiteral("label")},
                                  {QStringLiteral("idx3"), QStringLiteral("idx1")}});
}

QString companionImages(const QString &labelsPath)
{
    return companion(labelsPath, {{QStringLiteral("labels"), QStringLiteral("images")},
                                  {QStringLiteral("label"), QStringLiteral("image")},
                                  {QStringLiteral("idx1"), QStringLiteral("idx3")}});
}

DataFileChoice sortDataFiles(const QStringList &paths, QString *problem)
{
    QString ignored;
    if (!problem)
        problem = &ignored;
    problem->clear();
    DataFileChoice choice;
    if (paths.isEmpty()) {
        *problem = QObject::tr("No file was given.");
        return choice;
    }
    QStringList csvFiles, arrayFiles, idxFiles, others;
    for (const QString &path : paths)
        (isCsv(path) ? csvFiles : isArrayOrLibsvm(path) ? arrayFiles : looksLikeDataFile(path) ? idxFiles : others).append(path);
    if (!arrayFiles.isEmpty()) {
        if (arrayFiles.size() != paths.size()) {
            *problem = QObject::tr("Drop a LIBSVM or .npy file without other kinds of files; got %1 files.").arg(paths.size());
            return choice;
        }
        return sortArrayFiles(arrayFiles, problem);
    }
    if (!others.isEmpty()) {
        *problem = QObject::tr("%1 is not a data file this program reads (%2).")
                       .arg(fileName(others.front()), QString::fromStdString(core::dataFormatLabels()));
        return choice;
    }
    if (!csvFiles.isEmpty()) {
        if (paths.size() > 1)
            *problem = QObject::tr("Drop one CSV file alone (label + features per row); got %1 files.").arg(paths.size());
        else
            choice.csv = csvFiles.front();
        return choice;
    }
    if (idxFiles.size() > 2) {
        *problem = QObject::tr("Drop an IDX image file and its label file (2 files); got %1.").arg(idxFiles.size());
        return choice;
    }
    QStringList images, labels, unknown;
    for (const QString &path : idxFiles) {
        const IdxRole role = roleByName(path);
        (role == IdxRole::Images ? images : role == IdxRole::Labels ? labels : unknown).append(path);
    }
    if (images.size() > 1 || labels.size() > 1) {
        *problem = QObject::tr("Both files look like %1 files; drop an image file and its label file.")
                       .arg(images.size() > 1 ? QObject::tr("image") : QObject::tr("label"));
        return choice;
    }
    if (unknown.size() == 2) {
        // Two files without telling names: an image file is many times the size of its labels.
        const bool firstSmaller = QFileInfo(unknown[0]).size() < QFileInfo(unknown[1]).size();
        labels = {unknown[firstSmaller ? 0 : 1]};
        images = {unknown[firstSmaller ? 1 : 0]};
    } else if (unknown.size() == 1) {
        if (!labels.isEmpty()) {
            images = unknown;
        } else if (!images.isEmpty()) {
            labels = unknown;
        } else {
            *problem = QObject::tr("Cannot tell whether %1 holds images or labels; name it like MNIST's "
                                   "train-images-idx3-ubyte / train-labels-idx1-ubyte, or drop both files.")
                           .arg(fileName(unknown.front()));
            return choice;
        }
    }
    choice.images = images.value(0);
    choice.labels = labels.value(0);
    if (choice.images.isEmpty() && !choice.labels.isEmpty())
        choice.images = companionImages(choice.labels);
    if (choice.labels.isEmpty() && !choice.images.isEmpty())
        choice.labels = companionLabels(choice.images);
    if (choice.labels.isEmpty())
        *problem = QObject::tr("No label file was found next to %1 (MNIST naming: …-labels-idx1-ubyte[.gz]); "
                               "choose it, or drop both files together.")
                       .arg(fileName(choice.images));
    else if (choice.images.isEmpty())
        *problem = QObject::tr("No image file was found next to %1 (MNIST naming: …-images-idx3-ubyte[.gz]); "
                               "choose it, or drop both files together.")
                       .arg(fileName(choice.labels));
    return choice;
}

DataProbe probeSource(const core::ImageSource &source)
{
    DataProbe probe;
    try {
        for (std::uint8_t label : core::readIdxLabels(source.trainLabels))
            ++probe.labelCounts[label];
        probe.rows = 0;
        for (qint64 count : std::as_const(probe.labelCounts))
            probe.rows += count;
        probe.hasTestFiles = !source.testLabels.empty();
        probe.ok = true;
    } catch (const std::exception &error) {
        probe.error = QString::fromStdString(error.what());
    }
    return probe;
}

DataProbe probeFiles(const DataFileChoice &choice, const core::CsvReadOptions &table)
{
    DataProbe probe;
    try {
        if (!choice.csv.isEmpty() || !choice.data.isEmpty()) {
            core::DataFileRequest request;
            request.path = (choice.csv.isEmpty() ? choice.data : choice.csv).toStdString();
            if (!choice.csv.isEmpty())
                request.format = core::DataFormat::Csv;
            else
                request.labels = choice.labels.toStdString();
            request.table = table;
            const core::ClassificationData data = core::readDataFile(request, &probe.csvColumns);
            probe.rows = data.size();
            probe.features = data.featureCount();
            probe.csvClassNames = {QString::fromStdString(data.classNames.first),
                                   QString::fromStdString(data.classNames.second)};
        } else if (!choice.images.isEmpty() && !choice.labels.isEmpty()) {
            const core::LabelledImages images =
                core::readIdxDataset(choice.images.toStdString(), choice.labels.toStdString());
            probe.rows = images.count;
            probe.features = images.rows * images.cols;
            for (std::uint8_t label : images.labels)
                ++probe.labelCounts[label];
        } else {
            probe.error = choice.images.isEmpty() && choice.labels.isEmpty()
                              ? QObject::tr("No data file has been chosen.")
                              : QObject::tr("An IDX image file needs its label file; %1 has no partner.")
                                    .arg(fileName(choice.images.isEmpty() ? choice.labels : choice.images));
            return probe;
        }
        probe.ok = true;
    } catch (const std::exception &error) {
        probe.error = QString::fromStdString(error.what());
    }
    return probe;
}

DataProbe probeRegressionFile(const core::RunConfig &config)
{
    DataProbe probe;
    try {
        const core::GlmData rows = core::readFileGlmRows(config, &probe.csvColumns);
        probe.rows = static_cast<qint64>(rows.response.size());
        probe.features = static_cast<int>(rows.features.cols());
        probe.regression = QString::fromStdString(rows.description);
        probe.ok = true;
    } catch (const std::exception &error) {
        probe.error = QString::fromStdString(error.what());
    }
    return probe;
}

} // namespace ui
