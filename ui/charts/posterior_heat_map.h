#pragma once
// The true tempered log-posterior of the Gaussian mixture (Seita et al. Sec. 6.1) rendered as
// an image, for drawing behind the sample scatter. Rendering runs on the worker thread: QImage
// (unlike QPixmap) may be built off the GUI thread and crosses threads by value.
#include <stop_token>

#include <QGradientStops>
#include <QImage>
#include <QLinearGradient>
#include <QMetaType>
#include <QRectF>
#include <QSize>

#include <Eigen/Core>

namespace ui {

/// One rendered heat map and what it shows.
struct PosteriorImage {
    QImage image;          ///< premultiplied ARGB; row 0 is θ₂ = max, column 0 is θ₁ = min
    double theta1Min = 0.0, theta1Max = 0.0;
    double theta2Min = 0.0, theta2Max = 0.0;
    double logRange = 0.0; ///< colours span [max − logRange, max] of the log-density (nats)
    /// Bound on the log-density error from binning the data for speed (nats); see
    /// core::GaussianMixturePosterior::binningErrorBound().
    double binningErrorBound = 0.0;

    bool isNull() const { return image.isNull(); }
};

/// Colours span this many nats below the log-posterior's maximum unless told otherwise.
inline constexpr double kDefaultHeatMapLogRange = 10.0;

/// The palette of the heat map, from low (position 0) to high (position 1) log-density. The
/// colours carry alpha (transparent at the low end): draw the image over the plot background.
QGradientStops heatMapStops();
/// heatMapStops() composed over the plot background `base`, as the map itself is drawn, as a
/// vertical gradient for the colour bar: an opaque bar reads the same as the plot and never
/// shows the chart background through it.
QLinearGradient colourBarGradient(const QColor &base);

/// Evaluates log p(θ | x) with temperature T on a size.width() × size.height() grid over the
/// given θ ranges and maps [max − logRange, max] onto heatMapStops(). The data are binned
/// coarsely (a display needs far less accuracy than the posterior metrics), which keeps a
/// 200 × 200 map at a few hundred milliseconds for any N. Throws core::Cancelled when `stop`
/// is requested and std::invalid_argument for empty data, T ≤ 0 or an empty size.
PosteriorImage renderLogPosterior(const Eigen::VectorXd &data, double temperature, double theta1Min,
                                  double theta1Max, double theta2Min, double theta2Max, QSize size,
                                  double logRange, std::stop_token stop = {});

} // namespace ui

Q_DECLARE_METATYPE(ui::PosteriorImage)
