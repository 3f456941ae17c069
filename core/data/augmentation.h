#pragma once
/// Grows an image data set with distorted copies, as infinite MNIST does for the "MNIST-100k"
/// experiment (Seita et al., "Minibatch Acceptance Test" (later version), Sec. 6.2: 13,000 real 1s
/// and 7s plus 87,000 augmented).
///
/// Each new row is a copy of one original image, moved by a random whole-pixel translation and
/// an elastic distortion in the manner of Simard, Steinkraus and Platt (2003): a displacement
/// field of independent U(−1, 1) values per pixel and axis, smoothed by a Gaussian of standard
/// deviation σ pixels (zero outside the image), scaled by α, then the image is resampled
/// bilinearly at the displaced positions (zero outside the image). With α = 34 and σ = 4 the
/// displacements have a standard deviation of about 1.4 pixels.
///
/// The result is always marked augmented, and its description says how it was made.
#include <cstdint>
#include <functional>
#include <stop_token>

#include "core/data/classification_data.h"

namespace core {

struct AugmentationSettings {
    DataIndex targetSize = 100'000;   ///< rows of the result, > N
    std::uint64_t seed = 1;
    int maxShift = 2;                 ///< translations uniform in {−maxShift, …, maxShift} px per axis, in [0, 8]
    double elasticAlpha = 34.0;       ///< α, scale of the smoothed field (pixels), ≥ 0; 0 switches it off
    double elasticSigma = 4.0;        ///< σ of the smoothing Gaussian, pixels, in [0.5, 16]
};

/// Throws std::invalid_argument naming the setting and its allowed range.
void validate(const AugmentationSettings &settings);

/// Returns the N source rows unchanged, followed by targetSize − N distorted copies; copy k
/// (k = 0, 1, …) distorts source row k mod N, so every original gets the same number of
/// copies (±1), and keeps its label. Copy k draws from its own stream seeded by (seed, k):
/// the result depends only on the source and the settings. `progress(fraction)` is called now
/// and then on the calling thread. Throws std::invalid_argument when the source has no image
/// geometry or targetSize ≤ N, and core::Cancelled when `stop` is requested.
ClassificationData augmentImages(const ClassificationData &source, const AugmentationSettings &settings,
                                 const std::function<void(double)> &progress = {}, std::stop_token stop = {});

} // namespace core
