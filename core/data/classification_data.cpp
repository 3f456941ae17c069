#include "core/data/classification_data.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "core/io/mapped_file.h"
#include "core/random/rng.h"

namespace core {

std::int64_t MappedFeatureRows::fileRow(DataIndex i) const
{
    if (skipped.empty())
        return i;
    const auto row = static_cast<std::int64_t>(i);
    auto k = static_cast<std::size_t>(skippedBeforeBlock[static_cast<std::size_t>(i >> blockShift)]);
    while (k < skipped.size() && skipped[k] <= row)
        ++k;
    return row + static_cast<std::int64_t>(k);
}

void MappedFeatureRows::indexSkipped(const std::vector<std::int64_t> &heldOutFileRows)
{
    skipped.resize(heldOutFileRows.size());
    for (std::size_t k = 0; k < heldOutFileRows.size(); ++k)
        skipped[k] = heldOutFileRows[k] - static_cast<std::int64_t>(k);
    const std::int64_t kept = fileRows - static_cast<std::int64_t>(skipped.size());
    blockShift = 0;
    while ((std::int64_t{2} << blockShift) * static_cast<std::int64_t>(std::max<std::size_t>(skipped.size(), 1)) <= kept)
        ++blockShift;
    const std::int64_t blocks = (kept >> blockShift) + 1;
    skippedBeforeBlock.resize(static_cast<std::size_t>(blocks));
    for (std::int64_t b = 0; b < blocks; ++b)
        skippedBeforeBlock[static_cast<std::size_t>(b)] = static_cast<std::int64_t>(
            std::lower_bound(skipped.begin(), skipped.end(), b << blockShift) - skipped.begin());
}

const float *MappedFeatureRows::read(DataIndex i, float *scratch) const
{
    const float *row = stored(i);
    if (!scaled())
        return row;
    for (int j = 0; j < columns; ++j)
        scratch[j] = feature(row, j);
    return scratch;
}

std::uint64_t MappedFeatureRows::passBytes() const
{
    return static_cast<std::uint64_t>(fileRows) * static_cast<std::uint64_t>(stride) * sizeof(float);
}

void MappedFeatureRows::prefetch(std::span<const DataIndex> rows) const
{
    if (!file->largerThanMemory())
        return;
    for (const DataIndex row : rows)
        file->willNeed(stored(row), static_cast<std::size_t>(columns) * sizeof(float));
}

Eigen::VectorXd ClassificationData::row(DataIndex i) const
{
    Eigen::VectorXd out(featureCount());
    copyRow(i, out.data());
    return out;
}

void ClassificationData::copyRow(DataIndex i, double *out) const
{
    const int d = featureCount();
    if (!mapped) {
        Eigen::Map<Eigen::RowVectorXd>(out, d) = features.row(i).cast<double>();
        return;
    }
    const float *x = mapped->stored(i);
    for (int j = 0; j < d; ++j)
        out[j] = mapped->feature(x, j);
}

double ClassificationData::dotRow(DataIndex i, const double *weights) const
{
    const int d = featureCount();
    if (!mapped)
        return features.row(i).cast<double>().dot(Eigen::Map<const Eigen::RowVectorXd>(weights, d));
    const float *x = mapped->stored(i);
    double sum = 0.0;
    for (int j = 0; j < d; ++j)
        sum += weights[j] * mapped->feature(x, j);
    return sum;
}

DataIndex ClassificationData::positives() const
{
    return static_cast<DataIndex>(std::count(labels.begin(), labels.end(), std::uint8_t{1}));
}

std::vector<int> mostDiscriminativeFeatures(const ClassificationData &data, int count)
{
    // Two passes in double precision: class means, then the pooled within-class variance.
    // Rows read in place from a file are sampled, 65,536 evenly spaced ones at most: the two
    // features to plot are not worth reading a file larger than memory twice.
    const int d = data.featureCount();
    const DataIndex step = data.mapped ? std::max<DataIndex>(1, data.size() / 65'536) : 1;
    Eigen::ArrayXd sum[2] = {Eigen::ArrayXd::Zero(d), Eigen::ArrayXd::Zero(d)};
    double n[2] = {0.0, 0.0};
    for (DataIndex r = 0; r < data.size(); r += step) {
        const int label = data.labels[static_cast<std::size_t>(r)] ? 1 : 0;
        sum[label] += data.row(r).array();
        n[label] += 1.0;
    }
    const Eigen::ArrayXd mean0 = sum[0] / std::max(n[0], 1.0), mean1 = sum[1] / std::max(n[1], 1.0);
    Eigen::ArrayXd within = Eigen::ArrayXd::Zero(d);
    for (DataIndex r = 0; r < data.size(); r += step) {
        const Eigen::ArrayXd &mean = data.labels[static_cast<std::size_t>(r)] ? mean1 : mean0;
        within += (data.row(r).array() - mean).square();
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
    const std::int64_t rows = data.mapped ? data.mapped->fileRows - static_cast<std::int64_t>(data.mapped->skipped.size())
                                          : static_cast<std::int64_t>(data.features.rows());
    if (data.mapped && data.features.size() != 0)
        throw std::invalid_argument("classification data hold rows both in memory and in a mapped file");
    if (rows < 1)
        throw std::invalid_argument("classification data need at least one row");
    if (data.featureCount() < 1)
        throw std::invalid_argument("classification data need at least one feature");
    if (static_cast<std::int64_t>(data.labels.size()) != rows)
        throw std::invalid_argument("classification data have " + std::to_string(rows) + " feature rows but "
                                    + std::to_string(data.labels.size()) + " labels");
    if ((data.imageRows != 0 || data.imageCols != 0)
        && std::int64_t{data.imageRows} * data.imageCols != data.featureCount())
        throw std::invalid_argument("image geometry " + std::to_string(data.imageRows) + "x"
                                    + std::to_string(data.imageCols) + " does not match "
                                    + std::to_string(data.featureCount()) + " features");
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
    out.features.resize(static_cast<Eigen::Index>(rows.size()), data.featureCount());
    out.labels.resize(rows.size());
    std::vector<float> scratch(static_cast<std::size_t>(data.featureCount()));
    for (std::size_t k = 0; k < rows.size(); ++k) {
        if (rows[k] < 0 || rows[k] >= data.size())
            throw std::out_of_range("row " + std::to_string(rows[k]) + " is outside [0, "
                                    + std::to_string(data.size()) + ")");
        if (data.mapped)
            out.features.row(static_cast<Eigen::Index>(k)) =
                Eigen::Map<const Eigen::RowVectorXf>(data.mapped->read(rows[k], scratch.data()), data.featureCount());
        else
            out.features.row(static_cast<Eigen::Index>(k)) = data.features.row(rows[k]);
        out.labels[k] = data.labels[static_cast<std::size_t>(rows[k])];
    }
    static_cast<ClassificationDataInfo &>(out) = data;
    return out;
}

namespace {

std::string splitNote(DataIndex testSize, std::uint64_t seed, bool test)
{
    const std::string note = " (seed " + std::to_string(seed) + ")";
    return test ? "; random test split of " + std::to_string(testSize) + " rows" + note
                : "; training rows after a random test split of " + std::to_string(testSize) + note;
}

// The in-memory split's partial Fisher–Yates shuffle with the same draws, the permutation kept
// as a map of the positions it moved (O(testSize), not O(N)): the same test rows. The training
// rows stay in the file, the test rows skipped by index.
void checkSplit(DataIndex n, DataIndex testSize)
{
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
}

// `ownLabels`: the labels of `data` may be taken and compacted in place rather than copied, so
// that a split of billions of rows holds one byte a row, not two.
TrainTestSplit splitMappedByIndex(const ClassificationData &data, DataIndex testSize, std::uint64_t seed,
                                  std::vector<std::uint8_t> *ownLabels)
{
    const DataIndex n = data.size();
    std::unordered_map<DataIndex, DataIndex> moved;
    const auto at = [&moved](DataIndex i) {
        const auto found = moved.find(i);
        return found == moved.end() ? i : found->second;
    };
    Rng rng(seed);
    for (DataIndex k = 0; k < testSize; ++k) {
        const auto j = k + static_cast<DataIndex>(rng.uniformIndex(static_cast<std::uint64_t>(n - k)));
        const DataIndex a = at(k), b = at(j);
        moved[k] = b;
        moved[j] = a;
    }
    std::vector<DataIndex> test(static_cast<std::size_t>(testSize));
    for (DataIndex k = 0; k < testSize; ++k)
        test[static_cast<std::size_t>(k)] = at(k);
    std::sort(test.begin(), test.end());

    TrainTestSplit result;
    result.test = selectRows(data, test);
    result.test.description += splitNote(testSize, seed, true);
    // Rows of `data` are themselves rows of the file skipping data's own held-out rows: both
    // lists of skipped file rows merge into one.
    MappedFeatureRows rows = *data.mapped;
    std::vector<std::int64_t> fileRows;
    fileRows.reserve(rows.skipped.size() + test.size());
    for (std::size_t k = 0; k < rows.skipped.size(); ++k)
        fileRows.push_back(rows.skipped[k] + static_cast<std::int64_t>(k));
    for (const DataIndex row : test)
        fileRows.push_back(rows.fileRow(row));
    std::sort(fileRows.begin(), fileRows.end());
    rows.indexSkipped(fileRows);
    result.train.mapped = std::make_shared<const MappedFeatureRows>(std::move(rows));
    std::vector<std::uint8_t> &labels = result.train.labels;
    if (ownLabels)
        labels = std::exchange(*ownLabels, {}); // the test rows' labels are copied out above
    else
        labels.resize(static_cast<std::size_t>(n));
    const std::uint8_t *from = ownLabels ? labels.data() : data.labels.data();
    std::size_t kept = 0;
    for (DataIndex i = 0, next = 0; i < n; ++i) {
        if (next < testSize && test[static_cast<std::size_t>(next)] == i) {
            ++next;
            continue;
        }
        labels[kept++] = from[i];
    }
    labels.resize(kept); // kept ≤ i at every step: compacting in place reads each label before it is overwritten
    static_cast<ClassificationDataInfo &>(result.train) = data;
    result.train.description += splitNote(testSize, seed, false);
    return result;
}

} // namespace

TrainTestSplit splitTrainTest(ClassificationData &&data, DataIndex testSize, std::uint64_t seed)
{
    if (!data.mapped)
        return splitTrainTest(static_cast<const ClassificationData &>(data), testSize, seed);
    checkSplit(data.size(), testSize);
    return splitMappedByIndex(data, testSize, seed, &data.labels);
}

TrainTestSplit splitTrainTest(const ClassificationData &data, DataIndex testSize, std::uint64_t seed)
{
    const DataIndex n = data.size();
    checkSplit(n, testSize);
    if (data.mapped)
        return splitMappedByIndex(data, testSize, seed, nullptr);
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
    result.test.description += splitNote(testSize, seed, true);
    result.train.description += splitNote(testSize, seed, false);
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
