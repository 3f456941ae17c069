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

/// True when `line` (a first non-comment line) reads as LIBSVM: a number, then at least one
/// token `integer:number`. Used to tell the format from the content.
bool looksLikeLibsvmLine(std::string_view line);

} // namespace core
