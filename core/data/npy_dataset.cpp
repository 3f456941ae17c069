#include "core/data/npy_dataset.h"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <limits>
#include <optional>
#include <stdexcept>
#include <vector>

#include "core/data/binary_labels.h"
#include "core/data/idx_reader.h"
#include "core/data/full_pass_notice.h"
#include "core/data/npy_array.h"
#include "core/data/regression_data.h"
#include "core/data/response_column.h"
#include "core/io/mapped_file.h"

namespace core {
namespace {

[[noreturn]] void fail(const std::string &path, const std::string &what)
{
    throw std::runtime_error(path + ": " + what);
}

std::string shapeText(const NpyHeader &header)
{
    std::string text = "(";
    for (std::size_t k = 0; k < header.shape.size(); ++k)
        text += (k ? ", " : "") + std::to_string(header.shape[k]);
    return text + (header.shape.size() == 1 ? ",)" : ")");
}

// What the column beside the features holds, in messages: a classifier's label or a
// regression's response (regression_file.h), and the option that names its column.
struct ColumnRole {
    const char *noun;
    const char *columnFlag;
};
constexpr ColumnRole kLabel{"label", "--label-column"};
constexpr ColumnRole kResponse{"response", "--response-column"};

// The label column's 0-based index among `columns`.
std::size_t labelColumnIndex(const std::string &text, std::int64_t columns, const std::string &path,
                             const ColumnRole &role)
{
    long long number = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (error != std::errc() || end != text.data() + text.size())
        fail(path, std::string("an .npy array has no column names: give the ") + role.noun
                       + " column's number (1 = first, -1 = last), not '" + text + "'");
    if (number == 0 || number > columns || number < -columns)
        fail(path, role.noun + (" column " + text) + " does not exist: the array has " + std::to_string(columns)
                       + " columns, numbered 1 to " + std::to_string(columns) + " (or -1 for the last)");
    return static_cast<std::size_t>(number > 0 ? number - 1 : columns + number);
}


// The shape of a features array: its rows and columns, the label's column when the labels are
// in the array, and the feature columns left. Fails for an array that is not 2-D, a label chosen
// twice or not at all, and an array without rows or feature columns.
struct ArrayLayout {
    std::int64_t rows = 0;
    std::int64_t columns = 0;
    std::int64_t features = 0;
    std::optional<std::size_t> labelIndex;
};

ArrayLayout arrayLayout(const NpyHeader &header, const std::string &features, const std::string &labels,
                        const std::string &labelColumn, const ColumnRole &role = kLabel)
{
    if (header.shape.size() != 2)
        fail(features, "the features array has shape " + shapeText(header) + "; it must be 2-D, (rows, features)");
    ArrayLayout layout;
    layout.rows = header.shape[0];
    layout.columns = header.shape[1];
    if (labels.empty()) {
        if (labelColumn.empty())
            fail(features, std::string("the array holds no ") + role.noun + "s: give them as a file (--labels y.npy) or name the "
                               + role.noun + "'s column in this array (" + role.columnFlag + " -1 for the last)");
        layout.labelIndex = labelColumnIndex(labelColumn, layout.columns, features, role);
    } else if (!labelColumn.empty()) {
        fail(features, std::string("the ") + role.noun + "s come from " + labels + ", so " + role.columnFlag
                           + " has nothing to choose; give one of them");
    }
    layout.features = layout.columns - (layout.labelIndex ? 1 : 0);
    if (layout.rows < 1 || layout.features < 1)
        fail(features, "the array has shape " + shapeText(header) + ": no rows, or no feature column");
    return layout;
}

// The labels of `rows` rows from a label file, .npy or IDX, into `coder` (a BinaryLabelCoder,
// or a regression's ResponseColumn).
template <typename Labels>
void readLabelFile(const std::string &labels, std::int64_t rows, Labels &coder, const ColumnRole &role = kLabel)
{
    ByteSource probe(labels);
    std::uint8_t magic[6] = {};
    const std::size_t got = probe.read(magic, sizeof magic);
    coder.reserve(static_cast<std::size_t>(rows));
    if (hasNpyMagic(magic, got)) {
        ByteSource labelFile(labels);
        const NpyHeader labelHeader = readNpyHeader(labelFile, labels);
        const bool column = labelHeader.shape.size() == 1 || (labelHeader.shape.size() == 2 && labelHeader.shape[1] == 1);
        if (!column)
            fail(labels, std::string("the ") + role.noun + " array has shape " + shapeText(labelHeader)
                             + "; it must be (rows,) or (rows, 1)");
        if (labelHeader.shape[0] != rows)
            fail(labels, std::string("the ") + role.noun + " array has " + std::to_string(labelHeader.shape[0]) + " rows, the features "
                             + std::to_string(rows));
        std::vector<double> values;
        // In blocks: a label array of 10^8 rows is not held as doubles at once.
        const std::int64_t blockRows = 1 << 20;
        for (std::int64_t first = 0; first < rows; first += blockRows) {
            const std::int64_t count = std::min(blockRows, rows - first);
            readNpyElements(labelFile, labelHeader, static_cast<std::uint64_t>(count), values, labels);
            for (std::size_t r = 0; r < values.size(); ++r)
                coder.addLazily(values[r], [&] { return "element " + std::to_string(first + static_cast<std::int64_t>(r) + 1); });
        }
        return;
    }
    const std::vector<std::uint8_t> idx = readIdxLabels(labels);
    if (static_cast<std::int64_t>(idx.size()) != rows)
        fail(labels, "the label file has " + std::to_string(idx.size()) + " labels, the features " + std::to_string(rows)
                         + " rows");
    for (std::size_t r = 0; r < idx.size(); ++r)
        coder.addLazily(idx[r], [r] { return "label " + std::to_string(r + 1); });
}

} // namespace

namespace {

// The features array from `source`, its label column included when `labels` is empty (into a
// BinaryLabelCoder, or a regression's ResponseColumn).
template <typename Labels>
ClassificationData readFeatures(ByteSource &source, const std::string &features, const std::string &labels,
                                const std::string &labelColumn, Labels &coder, std::optional<std::size_t> &labelIndex,
                                const ColumnRole &role = kLabel)
{
    const NpyHeader header = readNpyHeader(source, features);
    const ArrayLayout layout = arrayLayout(header, features, labels, labelColumn, role);
    const std::int64_t rows = layout.rows, columns = layout.columns, d = layout.features;
    labelIndex = layout.labelIndex;
    const auto bytes = static_cast<std::uint64_t>(rows) * static_cast<std::uint64_t>(d) * sizeof(float);
    if (bytes > kNpyMaxFeatureBytes)
        fail(features, "shape " + shapeText(header) + " takes " + std::to_string(bytes >> 20) + " MiB as floats, over the "
                           + std::to_string(kNpyMaxFeatureBytes >> 20) + " MiB limit");

    ClassificationData data;
    data.features.resize(rows, d);
    // A block of rows at a time: a few thousand elements converted per read.
    const std::int64_t blockRows = std::max<std::int64_t>(1, 16'384 / columns);
    std::vector<double> block;
    for (std::int64_t first = 0; first < rows; first += blockRows) {
        const std::int64_t count = std::min(blockRows, rows - first);
        readNpyElements(source, header, static_cast<std::uint64_t>(count * columns), block, features);
        for (std::int64_t r = 0; r < count; ++r) {
            const double *row = block.data() + r * columns;
            Eigen::Index j = 0;
            for (std::int64_t c = 0; c < columns; ++c) {
                const double value = row[c];
                if (labelIndex && static_cast<std::size_t>(c) == *labelIndex) {
                    coder.addLazily(value, [&] { return "row " + std::to_string(first + r + 1); });
                    continue;
                }
                if (!std::isfinite(value) || std::abs(value) > static_cast<double>(std::numeric_limits<float>::max()))
                    fail(features, "row " + std::to_string(first + r + 1) + ", column " + std::to_string(c + 1)
                                       + ": " + std::to_string(value) + " is not a finite single-precision number");
                data.features(first + r, j++) = static_cast<float>(value);
            }
        }
    }
    data.description = std::filesystem::path(features).filename().string() + ": " + std::to_string(rows) + " rows, "
                       + std::to_string(d) + " features (" + header.descr + ")";
    return data;
}

void finishLabels(ClassificationData &data, BinaryLabelCoder &coder, const std::string &labelNote)
{
    data.labels = coder.takeLabels();
    data.classNames = coder.classNames();
    data.description += labelNote + "; label 0 = " + data.classNames.first + ", label 1 = " + data.classNames.second;
}

} // namespace

ClassificationData parseNpyDataset(std::span<const std::uint8_t> bytes, const std::string &name,
                                   const std::string &labelColumn)
{
    ByteSource source(bytes, name);
    BinaryLabelCoder coder(name);
    std::optional<std::size_t> labelIndex;
    ClassificationData data = readFeatures(source, name, "", labelColumn, coder, labelIndex);
    finishLabels(data, coder, ", label column " + std::to_string(*labelIndex + 1));
    return data;
}

ClassificationData readNpyDataset(const std::string &features, const std::string &labels, const std::string &labelColumn)
{
    ByteSource source(features);
    BinaryLabelCoder coder(labels.empty() ? features : labels);
    std::optional<std::size_t> labelIndex;
    ClassificationData data = readFeatures(source, features, labels, labelColumn, coder, labelIndex);
    const std::int64_t rows = data.size();
    std::string labelSource;
    if (!labels.empty()) {
        readLabelFile(labels, rows, coder);
        labelSource = std::filesystem::path(labels).filename().string();
    }
    finishLabels(data, coder, labelIndex ? ", label column " + std::to_string(*labelIndex + 1) : ", labels from " + labelSource);
    return data;
}

ClassificationData mapNpyDataset(const std::string &features, const std::string &labels, const std::string &labelColumn)
{
    const std::shared_ptr<const MappedFile> file = MappedFile::open(features);
    const auto cannot = [&](const std::string &why) {
        throw NotMappable(features + ": cannot be read in place (memory-mapped): " + why
                          + "; or read it into memory with --memory-map off");
    };
    if (file->size() >= 2 && file->data()[0] == 0x1f && file->data()[1] == 0x8b)
        cannot("it is gzipped (gunzip it first)");
    ByteSource source(std::span<const std::uint8_t>(file->data(), file->size()), features);
    const NpyHeader header = readNpyHeader(source, features);
    const ArrayLayout layout = arrayLayout(header, features, labels, labelColumn);
    const std::int64_t rows = layout.rows, columns = layout.columns, d = layout.features;
    const std::optional<std::size_t> labelIndex = layout.labelIndex;
    if (header.type.kind != 'f' || header.type.bytes != 4 || header.type.bigEndian)
        cannot("its elements are " + header.descr + ", not little-endian float32 ('<f4'; numpy: a.astype('<f4'))");
    if (header.headerBytes % alignof(float) != 0)
        cannot("its data do not start on a 4-byte boundary");
    if (labelIndex && *labelIndex != 0 && *labelIndex + 1 != static_cast<std::size_t>(columns))
        cannot("its label column " + std::to_string(*labelIndex + 1) + " of " + std::to_string(columns)
               + " is neither the first nor the last, which a row's features must be read around; give the labels "
                 "as a file (--labels)");

    const auto *elements = reinterpret_cast<const float *>(file->data() + header.headerBytes);
    MappedFeatureRows mapped;
    mapped.file = file;
    mapped.first = elements + (labelIndex == std::size_t{0} ? 1 : 0);
    mapped.stride = columns;
    mapped.fileRows = rows;
    mapped.columns = static_cast<int>(d);
    ClassificationData data;
    data.mapped = std::make_shared<const MappedFeatureRows>(std::move(mapped));
    data.description = std::filesystem::path(features).filename().string() + ": " + std::to_string(rows) + " rows, "
                       + std::to_string(d) + " features (" + header.descr + "), read in place (memory-mapped)";

    BinaryLabelCoder coder(labels.empty() ? features : labels);
    if (labelIndex) {
        coder.reserve(static_cast<std::size_t>(rows));
        const FullPassNotice notice(data, "the label column");
        const float *label = elements + *labelIndex;
        for (std::int64_t r = 0; r < rows; ++r)
            coder.addLazily(label[r * columns], [r] { return "row " + std::to_string(r + 1); });
        finishLabels(data, coder, ", label column " + std::to_string(*labelIndex + 1));
    } else {
        readLabelFile(labels, rows, coder);
        finishLabels(data, coder, ", labels from " + std::filesystem::path(labels).filename().string());
    }
    return data;
}

GlmData readNpyRegression(const std::string &features, const std::string &responses,
                          const std::string &responseColumn, ResponseColumn &response)
{
    ByteSource source(features);
    std::optional<std::size_t> responseIndex;
    ClassificationData rows = readFeatures(source, features, responses, responseColumn, response, responseIndex, kResponse);
    if (!responses.empty())
        readLabelFile(responses, rows.size(), response, kResponse);
    GlmData data;
    data.features = std::move(rows.features);
    data.response = response.take();
    data.description = rows.description
                       + (responseIndex ? ", response column " + std::to_string(*responseIndex + 1)
                                        : ", responses from " + std::filesystem::path(responses).filename().string());
    return data;
}

} // namespace core
