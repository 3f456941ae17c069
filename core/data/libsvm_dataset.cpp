#include "core/data/libsvm_dataset.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cmath>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <vector>

#include "core/data/binary_labels.h"
#include "core/data/byte_source.h"
#include "core/data/delimited_text.h"

namespace core {
namespace {

// The next whitespace-separated token of `text` from `at`, or empty at the end.
std::string_view nextToken(std::string_view text, std::size_t &at)
{
    while (at < text.size() && isBlankChar(text[at]))
        ++at;
    const std::size_t start = at;
    while (at < text.size() && !isBlankChar(text[at]))
        ++at;
    return text.substr(start, at - start);
}

bool parseIndex(std::string_view text, long long &index)
{
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), index);
    return error == std::errc() && end == text.data() + text.size();
}

// The line without its comment.
std::string_view content(std::string_view line)
{
    const std::size_t hash = line.find('#');
    return hash == std::string_view::npos ? line : line.substr(0, hash);
}

} // namespace

bool looksLikeLibsvmLine(std::string_view line)
{
    std::size_t at = 0;
    const std::string_view text = content(line);
    double label = 0.0;
    if (parseFieldNumber(nextToken(text, at), label) != NumberStatus::Ok)
        return false;
    bool any = false;
    for (std::string_view token = nextToken(text, at); !token.empty(); token = nextToken(text, at)) {
        const std::size_t colon = token.find(':');
        long long index = 0;
        double value = 0.0;
        if (colon == std::string_view::npos || !parseIndex(token.substr(0, colon), index)
            || parseFieldNumber(token.substr(colon + 1), value) == NumberStatus::NotANumber)
            return false;
        any = true;
    }
    return any;
}

bool LibsvmLine::parse(std::string_view line, long lineNumber)
{
    const auto fail = [&](const std::string &what) -> void {
        throw std::runtime_error(m_name + ": line " + std::to_string(lineNumber) + ": " + what);
    };
    const std::string_view text = content(line);
    std::size_t at = 0;
    const std::string_view labelToken = nextToken(text, at);
    if (labelToken.empty())
        return false; // blank or comment-only
    if (parseFieldNumber(labelToken, m_label) != NumberStatus::Ok)
        fail("the label " + inQuotes(labelToken) + " is not a number");
    m_indices.clear();
    m_values.clear();
    m_maxIndex = 0;
    for (std::string_view token = nextToken(text, at); !token.empty(); token = nextToken(text, at)) {
        const std::size_t colon = token.find(':');
        if (colon == std::string_view::npos)
            fail("token " + inQuotes(token) + " is not index:value");
        long long index = 0;
        if (!parseIndex(token.substr(0, colon), index))
            fail("token " + inQuotes(token) + ": the index is not a whole number"
                 + (token.substr(0, colon) == "qid" ? " (qid, for ranking data, is not supported)" : ""));
        if (index < 1)
            fail("token " + inQuotes(token) + ": LIBSVM feature indices start at 1");
        if (index > kLibsvmMaxFeatures)
            fail("token " + inQuotes(token) + ": index " + std::to_string(index) + " is beyond the "
                 + std::to_string(kLibsvmMaxFeatures) + " features that are stored dense");
        double value = 0.0;
        const std::string_view valueText = token.substr(colon + 1);
        const NumberStatus status = parseFieldNumber(valueText, value);
        if (status != NumberStatus::Ok || !std::isfinite(value))
            fail("token " + inQuotes(token) + ": the value is not a finite number");
        if (std::abs(value) > static_cast<double>(std::numeric_limits<float>::max()))
            fail("token " + inQuotes(token) + ": the value exceeds the single-precision range used for features");
        const auto zeroBased = static_cast<std::uint32_t>(index - 1);
        if (std::find(m_indices.begin(), m_indices.end(), zeroBased) != m_indices.end())
            fail("index " + std::to_string(index) + " is given twice");
        m_maxIndex = std::max(m_maxIndex, index);
        m_indices.push_back(zeroBased);
        m_values.push_back(static_cast<float>(value));
    }
    return true;
}

namespace detail {

DenseLibsvmRows denseLibsvmRows(const std::string &name, const std::vector<std::size_t> &rowStart,
                                const std::vector<std::uint32_t> &indices, const std::vector<float> &values,
                                long long maxIndex)
{
    const auto rows = static_cast<Eigen::Index>(rowStart.size() - 1);
    if (rows == 0)
        throw std::runtime_error(name + ": no data rows");
    if (maxIndex == 0)
        throw std::runtime_error(name + ": no row has a feature; every feature would be 0");
    const std::size_t bytes = static_cast<std::size_t>(rows) * static_cast<std::size_t>(maxIndex) * sizeof(float);
    if (bytes > kLibsvmMaxDenseBytes)
        throw std::runtime_error(name + ": " + std::to_string(rows) + " rows of " + std::to_string(maxIndex)
                                 + " features take " + std::to_string(bytes >> 20) + " MiB stored dense, over the "
                                 + std::to_string(kLibsvmMaxDenseBytes >> 20) + " MiB limit");
    DenseLibsvmRows dense;
    dense.features = FeatureMatrix::Zero(rows, static_cast<Eigen::Index>(maxIndex));
    for (Eigen::Index r = 0; r < rows; ++r)
        for (std::size_t k = rowStart[static_cast<std::size_t>(r)]; k < rowStart[static_cast<std::size_t>(r) + 1]; ++k)
            dense.features(r, static_cast<Eigen::Index>(indices[k])) = values[k];
    dense.given = values.size();
    return dense;
}

} // namespace detail

ClassificationData parseLibsvmDataset(std::istream &in, const std::string &name)
{
    BinaryLabelCoder labels(name);
    DenseLibsvmRows dense = readDenseLibsvmRows(in, name, [&](double label, long lineNumber) {
        labels.addLazily(label, [&] { return "line " + std::to_string(lineNumber); });
    });
    const Eigen::Index rows = dense.features.rows(), features = dense.features.cols();
    ClassificationData data;
    data.features = std::move(dense.features);
    data.labels = labels.takeLabels();
    data.classNames = labels.classNames();
    const double density = static_cast<double>(dense.given) / (static_cast<double>(rows) * static_cast<double>(features));
    char percent[32];
    std::snprintf(percent, sizeof percent, "%.3g", 100.0 * density);
    data.description = std::filesystem::path(name).filename().string() + ": " + std::to_string(rows) + " rows, "
                       + std::to_string(features) + " features (LIBSVM, " + percent + "% given, the rest 0); label 0 = "
                       + data.classNames.first + ", label 1 = " + data.classNames.second;
    return data;
}

ClassificationData readLibsvmDataset(const std::string &path)
{
    return readTextFile(path, [&](std::istream &in) { return parseLibsvmDataset(in, path); });
}

} // namespace core
