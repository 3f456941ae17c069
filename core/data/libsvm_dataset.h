#pragma once
/// Binary classification data in the LIBSVM / svmlight format, the form in which the data sets
/// of tall-data MCMC are distributed (HIGGS, SUSY, covtype, a9a…): one example per line,
///
///     label index:value index:value ...   # optional comment
///
/// with 1-based, distinct feature indices and the features not listed equal to 0; plain or
/// gzipped (told by the content). Labels are numbers, ±1 or 0/1 or any two values: the smaller
/// becomes label 0. The rows are stored dense (the model reads whole rows), so d, the largest
/// index, is limited (kLibsvmMaxFeatures) and so are the dense bytes (kLibsvmMaxDenseBytes);
/// both are checked before the matrix is allocated.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "core/data/classification_data.h"

namespace core {

/// The largest feature index accepted: dense rows of 10,000 floats are 40 kB each.
inline constexpr long long kLibsvmMaxFeatures = 10'000;
/// The most bytes the dense features may take.
inline constexpr std::size_t kLibsvmMaxDenseBytes = std::size_t{16} << 30;

/// Reads the file. Throws std::runtime_error whose message starts with the path and names the
/// line (and token) of the first problem: a label or value that is not a finite number, a token
/// without ':', an index that is not a whole number in [1, kLibsvmMaxFeatures], an index given
/// twice in a row, a third label value, only one label value, no rows, a dense size over the
/// limit, or a file that cannot be read (corrupt or cut-short gzip data included).
ClassificationData readLibsvmDataset(const std::string &path);

/// The same parser over a stream; `name` stands for the path in messages.
ClassificationData parseLibsvmDataset(std::istream &in, const std::string &name);

/// One line of a LIBSVM file, parsed and checked as readLibsvmDataset() checks it: shared by the
/// reader and the conversion to .npy (npy_conversion.h), which reads a file too large for memory
/// a line at a time.
class LibsvmLine {
public:
    explicit LibsvmLine(std::string name) : m_name(std::move(name)) {}
    /// Parses `line`, number `lineNumber` in the file. False for a blank or comment-only line.
    /// Throws std::runtime_error naming the file, the line and the token, as the reader does.
    bool parse(std::string_view line, long lineNumber);
    double label() const { return m_label; }
    /// The features given on the line: 0-based indices and their values, in line order.
    const std::vector<std::uint32_t> &indices() const { return m_indices; }
    const std::vector<float> &values() const { return m_values; }
    /// The largest 1-based index on the line (0 when it has none).
    long long maxIndex() const { return m_maxIndex; }

private:
    std::string m_name;
    double m_label = 0.0;
    std::vector<std::uint32_t> m_indices;
    std::vector<float> m_values;
    long long m_maxIndex = 0;
};

/// Calls `row(parsed, lineNumber)` for every data line of `in`, parsed and checked (LibsvmLine).
template <typename RowFunction>
void forEachLibsvmRow(std::istream &in, const std::string &name, RowFunction &&row)
{
    LibsvmLine parsed(name);
    std::string line;
    long lineNumber = 0;
    while (std::getline(in, line))
        if (parsed.parse(line, ++lineNumber))
            row(static_cast<const LibsvmLine &>(parsed), lineNumber);
}

/// The data lines of a LIBSVM file stored dense, the features a line does not give 0: what the
/// classifier's and the regression's readers share. Each line's label goes to
/// `label(value, lineNumber)` as it is read. Throws std::runtime_error naming the file for a
/// file without data rows or features, or one over kLibsvmMaxDenseBytes stored dense.
struct DenseLibsvmRows {
    FeatureMatrix features;
    std::size_t given = 0; ///< the features the lines gave
};
template <typename LabelFunction>
DenseLibsvmRows readDenseLibsvmRows(std::istream &in, const std::string &name, LabelFunction &&label);

/// True when `line` (a first non-comment line) reads as LIBSVM: a number, then at least one
/// token `integer:number`. Used to tell the format from the content.
bool looksLikeLibsvmLine(std::string_view line);

namespace detail {
/// Stores the rows gathered by readDenseLibsvmRows dense, after its checks.
DenseLibsvmRows denseLibsvmRows(const std::string &name, const std::vector<std::size_t> &rowStart,
                                const std::vector<std::uint32_t> &indices, const std::vector<float> &values,
                                long long maxIndex);
} // namespace detail

template <typename LabelFunction>
DenseLibsvmRows readDenseLibsvmRows(std::istream &in, const std::string &name, LabelFunction &&label)
{
    std::vector<std::size_t> rowStart{0};
    std::vector<std::uint32_t> indices; // 0-based
    std::vector<float> values;
    long long maxIndex = 0;
    forEachLibsvmRow(in, name, [&](const LibsvmLine &parsed, long lineNumber) {
        label(parsed.label(), lineNumber);
        maxIndex = std::max(maxIndex, parsed.maxIndex());
        indices.insert(indices.end(), parsed.indices().begin(), parsed.indices().end());
        values.insert(values.end(), parsed.values().begin(), parsed.values().end());
        rowStart.push_back(indices.size());
    });
    return detail::denseLibsvmRows(name, rowStart, indices, values, maxIndex);
}

} // namespace core
