#include "core/data/augmentation.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "core/correction/cancelled.h"
#include "core/random/rng.h"

namespace core {
namespace {

// Scratch for one image, allocated once per call of augmentImages.
struct Workspace {
    Workspace(int rows, int cols, double sigma) : rows(rows), cols(cols)
    {
        const auto size = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
        dx.resize(size);
        dy.resize(size);
        temp.resize(size);
        const int radius = static_cast<int>(std::ceil(3.0 * sigma));
        kernel.resize(static_cast<std::size_t>(2 * radius + 1));
        double total = 0.0;
        for (int t = -radius; t <= radius; ++t)
            total += kernel[static_cast<std::size_t>(t + radius)] = std::exp(-0.5 * t * t / (sigma * sigma));
        for (auto &w : kernel)
            w /= total;
    }

    // Separable Gaussian blur in place, zero outside the image. Loops run over the inner
    // (contiguous) index so that the compiler vectorises them.
    void blur(std::vector<double> &field)
    {
        const int radius = static_cast<int>(kernel.size() / 2);
        std::fill(temp.begin(), temp.end(), 0.0);
        for (int r = 0; r < rows; ++r) {
            const double *in = field.data() + static_cast<std::ptrdiff_t>(r) * cols;
            double *out = temp.data() + static_cast<std::ptrdiff_t>(r) * cols;
            for (int t = -radius; t <= radius; ++t) {
                const double w = kernel[static_cast<std::size_t>(t + radius)];
                for (int c = std::max(0, -t); c < std::min(cols, cols - t); ++c)
                    out[c] += w * in[c + t];
            }
        }
        std::fill(field.begin(), field.end(), 0.0);
        for (int r = 0; r < rows; ++r) {
            double *out = field.data() + static_cast<std::ptrdiff_t>(r) * cols;
            for (int t = std::max(-radius, -r); t <= std::min(radius, rows - 1 - r); ++t) {
                const double w = kernel[static_cast<std::size_t>(t + radius)];
                const double *in = temp.data() + static_cast<std::ptrdiff_t>(r + t) * cols;
                for (int c = 0; c < cols; ++c)
                    out[c] += w * in[c];
            }
        }
    }

    int rows, cols;
    std::vector<double> dx, dy, temp, kernel;
};

// One distorted copy of `in` written to `out` (both rows × cols, row-major).
void distort(const float *in, float *out, const AugmentationSettings &settings, Workspace &work, Rng &rng)
{
    const int rows = work.rows, cols = work.cols;
    const auto span = static_cast<std::uint64_t>(2 * settings.maxShift + 1);
    const double shiftY = static_cast<double>(rng.uniformIndex(span)) - settings.maxShift;
    const double shiftX = static_cast<double>(rng.uniformIndex(span)) - settings.maxShift;
    if (settings.elasticAlpha > 0.0) {
        for (auto *field : {&work.dx, &work.dy}) {
            for (double &v : *field)
                v = 2.0 * rng.uniform01() - 1.0;
            work.blur(*field);
        }
    } else {
        std::fill(work.dx.begin(), work.dx.end(), 0.0);
        std::fill(work.dy.begin(), work.dy.end(), 0.0);
    }
    const auto pixel = [&](int r, int c) -> double {
        return r < 0 || r >= rows || c < 0 || c >= cols ? 0.0 : in[static_cast<std::ptrdiff_t>(r) * cols + c];
    };
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
            const auto k = static_cast<std::size_t>(r) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(c);
            // Pull-back: output pixel (r, c) shows the source at (r, c) minus the shift plus the
            // displacement, so the content moves by +shift.
            const double y = r - shiftY + settings.elasticAlpha * work.dy[k];
            const double x = c - shiftX + settings.elasticAlpha * work.dx[k];
            const double fy = std::floor(y), fx = std::floor(x);
            const double ty = y - fy, tx = x - fx;
            const int r0 = static_cast<int>(fy), c0 = static_cast<int>(fx);
            const double value = (1.0 - ty) * ((1.0 - tx) * pixel(r0, c0) + tx * pixel(r0, c0 + 1))
                                 + ty * ((1.0 - tx) * pixel(r0 + 1, c0) + tx * pixel(r0 + 1, c0 + 1));
            out[k] = static_cast<float>(value);
        }
    }
}

} // namespace

void validate(const AugmentationSettings &settings)
{
    if (settings.maxShift < 0 || settings.maxShift > 8)
        throw std::invalid_argument("max shift must be in [0, 8] pixels; got " + std::to_string(settings.maxShift));
    if (!(settings.elasticAlpha >= 0.0) || !std::isfinite(settings.elasticAlpha) || settings.elasticAlpha > 1000.0)
        throw std::invalid_argument("elastic alpha must be in [0, 1000] pixels; got " + std::to_string(settings.elasticAlpha));
    if (!(settings.elasticSigma >= 0.5 && settings.elasticSigma <= 16.0))
        throw std::invalid_argument("elastic sigma must be in [0.5, 16] pixels; got " + std::to_string(settings.elasticSigma));
}

ClassificationData augmentImages(const ClassificationData &source, const AugmentationSettings &settings,
                                 const std::function<void(double)> &progress, std::stop_token stop)
{
    validate(settings);
    if (source.imageRows < 1 || source.imageCols < 1
        || Eigen::Index{source.imageRows} * source.imageCols != source.features.cols())
        throw std::invalid_argument("augmentation needs image rows (the source has no image geometry)");
    const DataIndex n = source.size();
    if (n < 1 || settings.targetSize <= n)
        throw std::invalid_argument("augment-to must exceed the " + std::to_string(n) + " source rows; got "
                                    + std::to_string(settings.targetSize));

    ClassificationData out;
    out.features.resize(settings.targetSize, source.features.cols());
    out.features.topRows(n) = source.features;
    out.labels = source.labels;
    out.labels.resize(static_cast<std::size_t>(settings.targetSize));
    Workspace work(source.imageRows, source.imageCols, settings.elasticSigma);
    const DataIndex extra = settings.targetSize - n;
    for (DataIndex k = 0; k < extra; ++k) {
        if ((k & 1023) == 0) {
            if (stop.stop_requested())
                throw Cancelled();
            if (progress)
                progress(static_cast<double>(k) / static_cast<double>(extra));
        }
        const DataIndex from = k % n;
        // Each copy has its own stream, so copies do not depend on each other's draws.
        Rng rng(settings.seed ^ (0xD1B54A32D192ED03ULL * (static_cast<std::uint64_t>(k) + 1)));
        distort(source.features.row(from).data(), out.features.row(n + k).data(), settings, work, rng);
        out.labels[static_cast<std::size_t>(n + k)] = source.labels[static_cast<std::size_t>(from)];
    }
    if (progress)
        progress(1.0);

    static_cast<ClassificationDataInfo &>(out) = source;
    out.augmented = true;
    std::ostringstream text;
    text << source.description << "; AUGMENTED to " << settings.targetSize << " rows: " << n << " originals + "
         << extra << " copies with shifts of up to " << settings.maxShift << " px and elastic distortion (alpha "
         << settings.elasticAlpha << ", sigma " << settings.elasticSigma << " px), seed " << settings.seed;
    out.description = text.str();
    return out;
}

} // namespace core
