#include "ui/charts/posterior_heat_map.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include <QColor>

#include "core/correction/cancelled.h"
#include "core/diagnostics/gmm_posterior.h"
#include "ui/charts/chart_style.h"

namespace ui {
namespace {

// 400 data bins instead of the metrics' 4000: the binning error bound is still far below a
// nat, which is invisible in a colour map, and rendering is ten times faster.
constexpr int kDisplayDataBins = 400;

QColor interpolate(const QGradientStops &stops, double t)
{
    t = std::clamp(t, 0.0, 1.0);
    for (qsizetype k = 1; k < stops.size(); ++k) {
        if (t <= stops[k].first) {
            const auto &[p0, c0] = stops[k - 1];
            const auto &[p1, c1] = stops[k];
            const double w = p1 > p0 ? (t - p0) / (p1 - p0) : 0.0;
            auto mix = [w](double a, double b) { return static_cast<float>(a + w * (b - a)); };
            return QColor::fromRgbF(mix(c0.redF(), c1.redF()), mix(c0.greenF(), c1.greenF()),
                                    mix(c0.blueF(), c1.blueF()), mix(c0.alphaF(), c1.alphaF()));
        }
    }
    return stops.back().second;
}

} // namespace

QGradientStops heatMapStops()
{
    // One blue whose opacity rises with the density: over a white plot area this is the
    // light sequential blues ramp, and over a dark theme's base it fades into the background
    // instead of painting a white block. The opacities reproduce that ramp over white.
    const QColor blue(0x42, 0x92, 0xc6);
    auto at = [&blue](double alpha) { return withAlpha(blue, static_cast<int>(std::lround(alpha * 255.0))); };
    return {{0.0, at(0.0)}, {0.35, at(0.17)}, {0.7, at(0.51)}, {0.9, at(0.75)}, {1.0, at(1.0)}};
}

QLinearGradient colourBarGradient(const QColor &base)
{
    QGradientStops stops = heatMapStops();
    for (auto &[position, colour] : stops) {
        const double a = colour.alphaF();
        colour = QColor::fromRgbF(static_cast<float>(base.redF() * (1 - a) + colour.redF() * a),
                                  static_cast<float>(base.greenF() * (1 - a) + colour.greenF() * a),
                                  static_cast<float>(base.blueF() * (1 - a) + colour.blueF() * a));
    }
    QLinearGradient gradient(0.0, 1.0, 0.0, 0.0);
    gradient.setStops(stops);
    return gradient;
}

PosteriorImage renderLogPosterior(const Eigen::VectorXd &data, double temperature, double theta1Min,
                                  double theta1Max, double theta2Min, double theta2Max, QSize size,
                                  double logRange, std::stop_token stop)
{
    if (size.isEmpty())
        throw std::invalid_argument("heat map size must be positive");
    if (!(logRange > 0.0))
        throw std::invalid_argument("heat map log range must be > 0");
    core::PosteriorGridSpec spec;
    spec.theta1Min = theta1Min;
    spec.theta1Max = theta1Max;
    spec.theta2Min = theta2Min;
    spec.theta2Max = theta2Max;
    // The constructor's own normalisation grid is not needed here: one cell keeps it free.
    spec.bins1 = spec.bins2 = spec.subdivisions = 1;
    spec.dataBins = kDisplayDataBins;
    const core::GaussianMixturePosterior posterior(data, temperature, spec);

    const int width = size.width(), height = size.height();
    std::vector<double> values(static_cast<std::size_t>(width) * static_cast<std::size_t>(height));
    double top = -std::numeric_limits<double>::infinity();
    for (int row = 0; row < height; ++row) {
        if (stop.stop_requested())
            throw core::Cancelled();
        const double theta2 = theta2Max - (row + 0.5) * (theta2Max - theta2Min) / height;
        for (int col = 0; col < width; ++col) {
            const double theta1 = theta1Min + (col + 0.5) * (theta1Max - theta1Min) / width;
            const double v = posterior.logDensity(theta1, theta2);
            values[static_cast<std::size_t>(row) * static_cast<std::size_t>(width) + static_cast<std::size_t>(col)] = v;
            top = std::max(top, v);
        }
    }

    // A 256-entry lookup keeps the per-pixel work to one index computation.
    const QGradientStops stops = heatMapStops();
    std::vector<QRgb> palette(256);
    for (int k = 0; k < 256; ++k)
        palette[static_cast<std::size_t>(k)] = qPremultiply(interpolate(stops, k / 255.0).rgba());
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    for (int row = 0; row < height; ++row) {
        auto *line = reinterpret_cast<QRgb *>(image.scanLine(row));
        for (int col = 0; col < width; ++col) {
            const double v = values[static_cast<std::size_t>(row) * static_cast<std::size_t>(width)
                                    + static_cast<std::size_t>(col)];
            const double t = std::isfinite(v) ? std::clamp((v - top + logRange) / logRange, 0.0, 1.0) : 0.0;
            line[col] = palette[static_cast<std::size_t>(std::lround(t * 255.0))];
        }
    }

    PosteriorImage result;
    result.image = std::move(image);
    result.theta1Min = theta1Min;
    result.theta1Max = theta1Max;
    result.theta2Min = theta2Min;
    result.theta2Max = theta2Max;
    result.logRange = logRange;
    result.binningErrorBound = posterior.binningErrorBound();
    return result;
}

} // namespace ui
