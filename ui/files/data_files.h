#pragma once
// A user's own data for the logistic-regression experiment (Seita et al. Sec. 6.2): where the
// app looks for image sources, how dropped or chosen files become a selection (one CSV of
// label + features, or an IDX image file with its label file), and a probe that loads a
// selection once on a pool thread to report its size and labels, or the loader's error,
// which names the file. Nothing here blocks the GUI thread except the probes, which callers
// run through QtConcurrent.
#include <string>
#include <vector>

#include <QMap>
#include <QString>
#include <QStringList>

#include "core/data/csv_dataset.h"
#include "core/experiment/settings/run_config.h"
#include "core/data/image_sources.h"

namespace ui {

/// A user's data files: either `csv`, or `images` with `labels`, or `data` (a LIBSVM file, or
/// a .npy array with or without its `labels` array).
struct DataFileChoice {
    QString csv;
    QString images;
    QString labels;
    QString data;

    bool isEmpty() const { return csv.isEmpty() && images.isEmpty() && labels.isEmpty() && data.isEmpty(); }
    bool isComplete() const { return !csv.isEmpty() || !data.isEmpty() || (!images.isEmpty() && !labels.isEmpty()); }
    /// The file names for people, "a.csv" or "images.gz + labels.gz".
    QString displayName() const;
    bool operator==(const DataFileChoice &) const = default;
};

/// True for names a data file may have: a suffix or name part of a row of core's data-format
/// table (data_formats.h), or ".gz".
bool looksLikeDataFile(const QString &path);

/// The label file that belongs to an IDX image file by the usual MNIST naming ("images" →
/// "labels", "idx3" → "idx1"), gzipped or not, in the same folder; empty when none exists.
QString companionLabels(const QString &imagesPath);
/// The image file that belongs to a label file, the other way round.
QString companionImages(const QString &labelsPath);

/// Sorts dropped or chosen files into a selection. A CSV is taken alone. IDX files are told
/// apart by name ("label"/"idx1" against "image"/"idx3") or, for two unnamed files, by size
/// (the label file is the smaller); a missing partner is looked for by companion*(). When the
/// selection is incomplete or ambiguous, `*problem` says why in one sentence, and the returned
/// choice holds what could be sorted (e.g. images without labels).
DataFileChoice sortDataFiles(const QStringList &paths, QString *problem);

/// What loading a selection found.
struct DataProbe {
    bool ok = false;
    QString error;                 ///< the loader's message, which names the file
    qint64 rows = 0;               ///< examples in the training files (IDX) or the CSV
    int features = 0;              ///< 0 when only the labels were read
    QMap<int, qint64> labelCounts; ///< IDX: rows per label value
    QStringList csvClassNames;     ///< CSV: what labels 0 and 1 stand for
    /// CSV: every column, for choosing the label; filled also when the label column chosen
    /// cannot be the label (the error says why).
    std::vector<core::CsvColumnSummary> csvColumns;
    bool hasTestFiles = false;     ///< the source has its own test files
    /// A regression's file: the reader's line on it ("counts.csv: 2000 rows, 3 features,
    /// response column 4 ('visits')"); empty for a classifier's data.
    QString regression;
};

/// Reads a source's training label file (and notes its test files). Never throws.
DataProbe probeSource(const core::ImageSource &source);
/// Loads a user's files completely, as a run would. Never throws.
/// A CSV is read with `table`'s label column, delimiter and missing-value rule.
DataProbe probeFiles(const DataFileChoice &choice, const core::CsvReadOptions &table = {});
/// Loads a user's file as a regression's rows, as a run of `config` (dataset "glm": the file,
/// its reading settings, the response column and the model) would. Never throws.
DataProbe probeRegressionFile(const core::RunConfig &config);

} // namespace ui
