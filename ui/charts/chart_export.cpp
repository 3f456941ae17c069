#include "ui/charts/chart_export.h"

#include <optional>

#include <QAbstractSeries>
#include <QBuffer>
#include <QChart>
#include <QChartView>
#include <QDir>
#include <QFileInfo>
#include <QGraphicsScene>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>

#include "ui/charts/chart_style.h"
#include "ui/pages/results_view.h"

namespace ui {
namespace {

// Lays the chart out at `size`, calls paint(painter target rect, chart rect), then restores
// the on-screen geometry. OpenGL series are switched off for the render: they draw into a GL
// surface, not into the scene, and would be missing from the file.
template <typename Paint>
void renderAtSize(QChartView *view, QSize size, Paint paint)
{
    auto *themed = qobject_cast<ThemedChartView *>(view);
    if (themed)
        themed->setExportLayout(true);
    QChart *chart = view->chart();
    const QRectF onScreen = chart->geometry();
    QList<QAbstractSeries *> openGl;
    for (QAbstractSeries *series : chart->series())
        if (series->useOpenGL()) {
            series->setUseOpenGL(false);
            openGl.append(series);
        }
    chart->setGeometry(QRectF(onScreen.topLeft(), QSizeF(size)));
    paint(QRectF(QPointF(0, 0), QSizeF(size)), chart->geometry());
    chart->setGeometry(onScreen);
    for (QAbstractSeries *series : openGl)
        series->setUseOpenGL(true);
    if (themed)
        themed->setExportLayout(false);
}

bool writeAtomically(const QString &path, const QByteArray &bytes, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = QObject::tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    if (file.write(bytes) != bytes.size() || !file.commit()) {
        *error = QObject::tr("Cannot write %1: %2").arg(path, file.errorString());
        file.cancelWriting();
        return false;
    }
    return true;
}

} // namespace

QString suffixOf(ChartFormat format)
{
    return format == ChartFormat::Png ? QStringLiteral("png") : QStringLiteral("svg");
}

std::optional<ChartFormat> formatOfPath(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return ChartFormat::Png;
    if (suffix == QLatin1String("svg"))
        return ChartFormat::Svg;
    return std::nullopt;
}

QImage renderChartImage(QChartView *view, QSize size)
{
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(view->chart()->backgroundBrush().color());
    renderAtSize(view, size, [&](const QRectF &target, const QRectF &source) {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::TextAntialiasing);
        view->scene()->render(&painter, target, source);
    });
    return image;
}

bool exportChart(QChartView *view, const QString &path, ChartFormat format, QSize size, const QString &title,
                 QString *error)
{
    QString ignored;
    if (!error)
        error = &ignored;
    if (size.width() < 1 || size.height() < 1) {
        *error = QObject::tr("Cannot write %1: the size %2 × %3 is empty").arg(path).arg(size.width()).arg(size.height());
        return false;
    }
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (format == ChartFormat::Png) {
        if (!renderChartImage(view, size).save(&buffer, "PNG")) {
            *error = QObject::tr("Cannot write %1: PNG encoding failed").arg(path);
            return false;
        }
    } else {
        QSvgGenerator generator;
        generator.setOutputDevice(&buffer);
        generator.setSize(size);
        generator.setViewBox(QRect(QPoint(0, 0), size));
        generator.setTitle(title);
        generator.setDescription(QObject::tr("Minibatch MH Explorer chart"));
        renderAtSize(view, size, [&](const QRectF &target, const QRectF &source) {
            QPainter painter(&generator);
            painter.setRenderHint(QPainter::Antialiasing);
            // The chart's background has rounded corners; a file should be filled edge to edge.
            painter.fillRect(target, view->chart()->backgroundBrush());
            view->scene()->render(&painter, target, source);
        });
    }
    buffer.close();
    return writeAtomically(path, bytes, error);
}

QStringList exportCharts(const QList<NamedChart> &charts, const QString &directory, QSize size, QString *error)
{
    QString ignored;
    if (!error)
        error = &ignored;
    QStringList written;
    if (!QDir().mkpath(directory)) {
        *error = QObject::tr("Cannot create the folder %1").arg(directory);
        return written;
    }
    const QDir dir(directory);
    for (const NamedChart &chart : charts) {
        for (ChartFormat format : {ChartFormat::Png, ChartFormat::Svg}) {
            const QString path = dir.filePath(chart.stem + QLatin1Char('.') + suffixOf(format));
            if (!exportChart(chart.view, path, format, size, chart.title, error))
                return written;
            written.append(path);
        }
    }
    return written;
}

} // namespace ui
