#include "core/data/classification_data.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "core/random/rng.h"

namespace core {

DataIndex ClassificationData::positives() const
{
    return static_cast<DataIndex>(std::count(labels.begin(), labels.end(), std::uint8_t{1}));
}

std::vector<int> mostDiscriminativeFeatures(const ClassificationData &data, int count)
{
    // Two passes in double precision: class means, then the pooled within-class variance.
    const int d = data.featureCount();
    Eigen::ArrayXd sum[2] = {Eigen::ArrayXd::Zero(d), Eigen::ArrayXd::Zero(d)};
    double n[2] = {0.0, 0.0};
    for (DataIndex r = 0; r < data.size(); ++r) {
        const int label = data.labels[static_cast<std::size_t>(r)] ? 1 : 0;
        sum[label] += data.features.row(r).cast<double>().array().transpose();
        n[label] += 1.0;
    }
    const Eigen::ArrayXd mean0 = sum[0] / std::max(n[0], 1.0), mean1 = sum[1] / std::max(n[1], 1.0);
    Eigen::ArrayXd within = Eigen::ArrayXd::Zero(d);
    for (DataIndex r = 0; r < data.size(); ++r) {
        const Eigen::ArrayXd &mean = data.labels[static_cast<std::size_t>(r)] ? mean1 : mean0;
        within += (data.features.row(r).cast<double>().array().transpose() - mean).square();
    }
    const Eigen::ArrayXd pooledSd = (within / std::max(n[0] + n[1] - 2.0, 1.0)).sqrt();
    // Scale-free: a column in large units must not win by its units alone. A feature that is
    // constant within both classes but differs between them separates perfectly: rank it first.
    Eigen::ArrayXd score(d);
    const Eigen::ArrayXd gap = (mean1 - mean0).abs();
    for (int j = 0; j < d; ++j)
        score[j] = pooledSd[j] > 0.0 ? gap[j] / pooledSd[j] : (gap[j] > 0.0 ? INFINITY : 0.0);
    std::vector<int> order(static_cast<std::size_t>(d));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&score](int a, int b) { return score[a] > score[b]; });
    order.resize(static_cast<std::size_t>(std::clamp(count, 0, d)));
    return order;
}

void validate(const ClassificationData &data)
{
    if (data.features.rows() < 1)
        throw std::invalid_argument("classification data need at least one row");
    if (data.features.rows() > Eigen::Index{2'147'483'647})
        throw std::invalid_argument("classification data may have at most 2147483647 rows");
    if (data.features.cols() < 1)
        throw std::invalid_argument("classification data need at least one feature");
    if (static_cast<Eigen::Index>(data.labels.size()) != data.features.rows())
        throw std::invalid_argument("classification data have " + std::to_string(data.features.rows())
                                    + " feature rows but " + std::to_string(data.labels.size()) + " labels");
    if ((data.imageRows != 0 || data.imageCols != 0)
        && Eigen::Index{data.imageRows} * data.imageCols != data.features.cols())
        throw std::invalid_argument("image geometry " + std::to_string(data.imageRows) + "x"
                                    + std::to_string(data.imageCols) + " does not match "
                                    + std::to_string(data.features.cols()) + " features");
    for (std::size_t i = 0; i < data.labels.size(); ++i)
        if (data.labels[i] > 1)
            throw std::invalid_argument("label of row " + std::to_string(i) + " is "
                                        + std::to_string(data.labels[i]) + "; labels must be 0 or 1");
    if (!data.features.allFinite())
        throw std::invalid_argument("classification features contain NaN or infinite values");
}

ClassificationData selectRows(const ClassificationData &data, std::span<const DataIndex> rows)
{
    ClassificationData out;
    out.features.resize(static_cast<Eigen::Index>(rows.size()), data.features.cols());
    out.labels.resize(rows.size());
    for (std::size_t k = 0; k < rows.size(); ++k) {
        if (rows[k] < 0 || rows[k] >= data.size())
            throw std::out_of_range("row " + std::to_string(rows[k]) + " is outside [0, "
                                    + std::to_string(data.size()) + ")");
        out.features.row(static_cast<Eigen::Index>(k)) = data.features.row(rows[k]);
        out.labels[k] = data.labels[static_cast<std::size_t>(rows[k])];
    }
    out.classNames = data.classNames;
    out.description = data.description;
    out.augmented = data.augmented;
    out.imageRows = data.imageRows;
    out.imageCols = data.imageCols;
    out.featureNames = data.featureNames;
    return out;
}

TrainTestSplit splitTrainTest(const ClassificationData &data, DataIndex testSize, std::uint64_t seed)
{
    const DataIndex n = data.size();
    if (n < 2)
        throw std::invalid_argument("the data have " + std::to_string(n)
                                    + " row(s): a test split needs at least 2 (one to test, one to train on)");
    if (testSize >= n)
        throw std::invalid_argument("a test split of " + std::to_string(testSize) + " rows would leave 0 training rows of "
                                    + std::to_string(n) + "; lower test-size (at most " + std::to_string(n - 1)
                                    + ") or test-fraction");
    if (testSize < 1)
        throw std::invalid_argument("test size must be in [1, " + std::to_string(n - 1) + "]; got "
                                    + std::to_string(testSize));
    std::vector<DataIndex> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), DataIndex{0});
    // A partial Fisher–Yates shuffle: the first testSize positions are a uniform random subset.
    Rng rng(seed);
    for (DataIndex k = 0; k < testSize; ++k) {
        const auto j = k + static_cast<DataIndex>(rng.uniformIndex(static_cast<std::uint64_t>(n - k)));
        std::swap(order[static_cast<std::size_t>(k)], order[static_cast<std::size_t>(j)]);
    }
    const auto split = order.begin() + testSize;
    // Original order inside each part: sorted files stay sorted, and the minibatch sampler
    // draws rows at random anyway.
    std::sort(order.begin(), split);
    std::sort(split, order.end());
    TrainTestSplit result;
    result.test = selectRows(data, std::span<const DataIndex>(order.data(), static_cast<std::size_t>(testSize)));
    result.train = selectRows(data, std::span<const DataIndex>(order.data() + testSize,
                                                               static_cast<std::size_t>(n - testSize)));
    const std::string note = " (seed " + std::to_string(seed) + ")";
    result.test.description += "; random test split of " + std::to_string(testSize) + " rows" + note;
    result.train.description += "; training rows after a random test split of " + std::to_string(testSize) + note;
    return result;
}

DataIndex heldOutRows(DataIndex rows, DataIndex testSize, double maxFraction)
{
    if (!(maxFraction > 0.0 && maxFraction < 1.0))
        throw std::invalid_argument("test-fraction must be in (0, 1); got " + std::to_string(maxFraction));
    if (rows < 2)
        throw std::invalid_argument("the data have " + std::to_string(rows)
                                    + " row(s) of the chosen classes: a test split needs at least 2 (one to test, one "
                                      "to train on)");
    const auto cap = static_cast<DataIndex>(std::floor(maxFraction * static_cast<double>(rows)));
    return std::max<DataIndex>(1, std::min(testSize, cap));
}

std::pair<int, int> parseClassPair(const std::string &text)
{
    const auto fail = [&] {
        return std::invalid_argument("classes must be two different integers in [0, 255] separated by a comma, "
                                     "such as 1,7; got '" + text + "'");
    };
    const auto comma = text.find(',');
    if (comma == std::string::npos)
        throw fail();
    int values[2] = {0, 0};
    const std::string parts[2] = {text.substr(0, comma), text.substr(comma + 1)};
    for (int k = 0; k < 2; ++k) {
        const std::string &part = parts[k];
        const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), values[k]);
        if (part.empty() || error != std::errc() || end != part.data() + part.size() || values[k] < 0
            || values[k] > 255)
            throw fail();
    }
    if (values[0] == values[1])
        throw fail();
    return {values[0], values[1]};
}

ClassificationData selectClasses(const LabelledImages &images, std::pair<int, int> classes,
                                 const std::string &classNamePrefix)
{
    if (classes.first == classes.second)
        throw std::invalid_argument("the two classes must differ; got " + std::to_string(classes.first) + " twice");
    const auto pixelsPerImage = static_cast<std::size_t>(images.rows) * static_cast<std::size_t>(images.cols);
    if (images.count < 0 || images.labels.size() != static_cast<std::size_t>(images.count)
        || images.pixels.size() != pixelsPerImage * static_cast<std::size_t>(images.count) || pixelsPerImage == 0)
        throw std::invalid_argument("labelled images have inconsistent sizes");
    std::vector<DataIndex> chosen;
    DataIndex counts[2] = {0, 0};
    for (int i = 0; i < images.count; ++i) {
        const int label = images.labels[static_cast<std::size_t>(i)];
        if (label == classes.first || label == classes.second) {
            chosen.push_back(i);
            ++counts[label == classes.second ? 1 : 0];
        }
    }
    for (int k = 0; k < 2; ++k)
        if (counts[k] == 0)
            throw std::invalid_argument(images.description + " has no image of class "
                                        + std::to_string(k == 0 ? classes.first : classes.second));

    ClassificationData out;
    const auto d = static_cast<Eigen::Index>(pixelsPerImage);
    out.features.resize(static_cast<Eigen::Index>(chosen.size()), d);
    out.labels.resize(chosen.size());
    for (std::size_t k = 0; k < chosen.size(); ++k) {
        const std::uint8_t *source = images.pixels.data() + static_cast<std::size_t>(chosen[k]) * pixelsPerImage;
        const Eigen::Map<const Eigen::Matrix<std::uint8_t, 1, Eigen::Dynamic>> row(source, d);
        out.features.row(static_cast<Eigen::Index>(k)) = row.cast<float>() / 255.0f;
        out.labels[k] = images.labels[static_cast<std::size_t>(chosen[k])] == classes.second ? 1 : 0;
    }
    out.classNames = {classNamePrefix + std::to_string(classes.first), classNamePrefix + std::to_string(classes.second)};
    out.description = images.description + "; classes " + std::to_string(classes.first) + " (label 0, "
                      + std::to_string(counts[0]) + " rows) vs " + std::to_string(classes.second) + " (label 1, "
                      + std::to_string(counts[1]) + " rows)";
    out.imageRows = images.rows;
    out.imageCols = images.cols;
    return out;
}

} // namespace core
