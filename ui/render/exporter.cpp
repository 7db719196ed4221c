#include "render/exporter.h"

#include <QBuffer>
#include <QFileInfo>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "plots/heatmap_plot.h"
#include "plots/picture_title.h"
#include "plots/tick_label_fit.h"

namespace attnscope::ui {
namespace {

// The columns for `count` plots over `size` whose cells come closest to the shape of a heatmap
// with its colour bar, a little wider than tall: a wide picture gets more columns, not
// flattened plots.
int squarestColumns(int count, const QSize& size) {
  constexpr double kShape = 1.15;  // width / height
  int best = 1;
  double bestOff = std::numeric_limits<double>::infinity();
  for (int columns = 1; columns <= count; ++columns) {
    const int rows = (count + columns - 1) / columns;
    const double shape =
        (static_cast<double>(size.width()) / columns) / (static_cast<double>(size.height()) / rows);
    if (const double off = std::abs(std::log(shape / kShape)); off < bestOff) {
      best = columns;
      bestOff = off;
    }
  }
  return best;
}

// Lays the plots out in a grid over `size` (below the title, if any) and paints each one, laid
// out and its labels fitted for its cell of the picture, not for its size in the window; the
// window's layout afterwards. What marks the window's state (a heatmap's current-step frame) is
// left out.
void renderGrid(QCPPainter& painter, const QList<QCustomPlot*>& plots, const ExportOptions& o) {
  const int top = drawPictureTitle(painter, o.title, o.size.width(), *plots.front());
  const QSize size(o.size.width(), std::max(16, o.size.height() - top));
  const int count = static_cast<int>(plots.size());
  const int cols = o.columns > 0 ? std::min(o.columns, count) : squarestColumns(count, size);
  const int rows = (count + cols - 1) / cols;
  const int width = size.width() / cols, height = size.height() / rows;
  for (int i = 0; i < count; ++i) {
    QCustomPlot* plot = plots[i];
    auto* fit = plot->findChild<TickLabelFit*>(QString(), Qt::FindDirectChildrenOnly);
    auto* heatmap = qobject_cast<HeatmapPlot*>(plot);
    const QRect screen = plot->viewport();
    if (fit != nullptr) fit->layOutFor(QRect(0, 0, width, height));
    if (heatmap != nullptr) heatmap->setPrinting(true);
    painter.save();
    painter.translate((i % cols) * width, top + (i / cols) * height);
    plot->toPainter(&painter, width, height);
    painter.restore();
    if (heatmap != nullptr) heatmap->setPrinting(false);
    if (fit != nullptr) fit->layOutFor(screen);
    if (fit != nullptr || heatmap != nullptr) plot->replot(QCustomPlot::rpQueuedReplot);
  }
}

QByteArray renderPng(const QList<QCustomPlot*>& plots, const ExportOptions& o) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  renderImage(plots, o).save(&buffer, "PNG");
  return bytes;
}

QByteArray renderPdf(const QList<QCustomPlot*>& plots, const ExportOptions& o) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  QPdfWriter writer(&buffer);
  writer.setResolution(72);  // one point per pixel: the page is size.width() × size.height() pt
  writer.setPageSize(QPageSize(QSizeF(o.size), QPageSize::Point));
  writer.setPageMargins(QMarginsF(0, 0, 0, 0));
  writer.setCreator(QStringLiteral("attnscope"));
  QCPPainter painter(&writer);
  painter.setMode(QCPPainter::pmVectorized);  // cells as rectangles (CellColorMap)
  renderGrid(painter, plots, o);
  painter.end();
  return bytes;
}

QByteArray renderSvg(const QList<QCustomPlot*>& plots, const ExportOptions& o) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  QSvgGenerator generator;
  generator.setOutputDevice(&buffer);
  generator.setSize(o.size);
  generator.setViewBox(QRect(QPoint(0, 0), o.size));
  generator.setTitle(o.title.isEmpty() ? QStringLiteral("attnscope heatmap") : o.title);
  QCPPainter painter(&generator);
  painter.setMode(QCPPainter::pmVectorized);  // cells as rectangles (CellColorMap)
  renderGrid(painter, plots, o);
  painter.end();
  return bytes;
}

}  // namespace

QImage renderImage(const QList<QCustomPlot*>& plots, const ExportOptions& o) {
  QImage image(QSize(std::lround(o.size.width() * o.scale), std::lround(o.size.height() * o.scale)),
               QImage::Format_ARGB32);
  image.fill(plots.front()->palette().color(QPalette::Base));
  QCPPainter painter(&image);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.scale(o.scale, o.scale);
  renderGrid(painter, plots, o);
  painter.end();
  return image;
}

namespace {

void checkOptions(const QString& path, const ExportOptions& options) {
  if (options.size.width() < 16 || options.size.height() < 16 || options.size.width() > 20000 ||
      options.size.height() > 20000 || !(options.scale > 0.0 && options.scale <= 8.0))
    failExport(path,
               QStringLiteral("size %1×%2 at scale %3 is out of range (16–20000 pixels, scale ≤ 8)")
                   .arg(options.size.width())
                   .arg(options.size.height())
                   .arg(options.scale));
}

// PNG, PDF or SVG of the plots; std::nullopt for a format that is not a picture.
std::optional<QByteArray> renderPicture(ExportFormat format, const QList<QCustomPlot*>& plots,
                                        const ExportOptions& options) {
  switch (format) {
    case ExportFormat::Png:
      return renderPng(plots, options);
    case ExportFormat::Pdf:
      return renderPdf(plots, options);
    case ExportFormat::Svg:
      return renderSvg(plots, options);
    case ExportFormat::Csv:
    case ExportFormat::Json:
      break;
  }
  return std::nullopt;
}

}  // namespace

void exportHeatmaps(const QList<HeatmapPlot*>& plots, const QString& path,
                    const ExportOptions& options) {
  const auto format = exportFormatFor(path);
  if (!format)
    failExport(path, QStringLiteral("unknown file type '.%1' (use .png, .pdf, .svg, .csv or .json)")
                         .arg(QFileInfo(path).suffix()));
  if (plots.isEmpty()) failExport(path, QStringLiteral("there is no heatmap to export"));
  checkOptions(path, options);
  QList<AttentionMatrix> matrices;
  for (HeatmapPlot* plot : plots) matrices << plot->matrix();
  const QList<QCustomPlot*> widgets(plots.begin(), plots.end());
  std::optional<QByteArray> bytes = renderPicture(*format, widgets, options);
  if (!bytes) {
    // A picture says "no attention" for the baseline; the data files leave it out.
    matrices.removeIf([](const AttentionMatrix& m) { return m.noAttention; });
    if (matrices.isEmpty())
      failExport(path, QStringLiteral("the model has no attention to export"));
    bytes = *format == ExportFormat::Csv ? matricesToCsv(matrices) : matricesToJson(matrices);
  }
  saveExport(path, *bytes);
}

void exportPlot(QCustomPlot* plot, const QString& path, const ExportOptions& options) {
  const auto format = exportFormatFor(path);
  if (!format || *format == ExportFormat::Csv || *format == ExportFormat::Json)
    failExport(path, QStringLiteral("unknown picture type '.%1' (use .png, .pdf or .svg)")
                         .arg(QFileInfo(path).suffix()));
  if (plot == nullptr) failExport(path, QStringLiteral("there is no plot to export"));
  checkOptions(path, options);
  saveExport(path, *renderPicture(*format, {plot}, options));
}

}  // namespace attnscope::ui
