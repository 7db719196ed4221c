#include "exporter.h"

#include <QBuffer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <cmath>
#include <stdexcept>

#include "heatmap_plot.h"

namespace attnscope::ui {
namespace {

[[noreturn]] void fail(const QString& path, const QString& problem) {
  throw std::runtime_error(
      QStringLiteral("cannot export to '%1': %2").arg(path, problem).toStdString());
}

// Lays the plots out in a grid over `size` and paints each one.
void renderGrid(QCPPainter& painter, const QList<QCustomPlot*>& plots, const QSize& size,
                int columns) {
  const int count = static_cast<int>(plots.size());
  const int cols = std::max(1, std::min(columns, count));
  const int rows = (count + cols - 1) / cols;
  const int width = size.width() / cols, height = size.height() / rows;
  for (int i = 0; i < count; ++i) {
    painter.save();
    painter.translate((i % cols) * width, (i / cols) * height);
    plots[i]->toPainter(&painter, width, height);
    painter.restore();
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
  renderGrid(painter, plots, o.size, o.columns);
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
  generator.setTitle(QStringLiteral("attnscope heatmap"));
  QCPPainter painter(&generator);
  renderGrid(painter, plots, o.size, o.columns);
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
  renderGrid(painter, plots, o.size, o.columns);
  painter.end();
  return image;
}

std::optional<ExportFormat> exportFormatFor(const QString& path) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == "png") return ExportFormat::Png;
  if (suffix == "pdf") return ExportFormat::Pdf;
  if (suffix == "svg") return ExportFormat::Svg;
  if (suffix == "csv") return ExportFormat::Csv;
  if (suffix == "json") return ExportFormat::Json;
  return std::nullopt;
}

QString csvField(const QString& text) {
  if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) &&
      !text.contains(QLatin1Char('\n')))
    return text;
  QString quoted = text;
  quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
  return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QByteArray matricesToCsv(const QList<AttentionMatrix>& matrices) {
  QString out;
  if (matrices.size() == 1) {  // a spreadsheet-shaped matrix: targets down, sources across
    const AttentionMatrix& m = matrices.front();
    out += QStringLiteral("target\\source");
    if (!m.view.isEmpty()) out += QStringLiteral(" (%1)").arg(m.view);  // "(words)", "(pieces)"
    for (const QString& s : m.sourceTokens) out += QLatin1Char(',') + csvField(s);
    out += QLatin1Char('\n');
    for (int r = 0; r < m.rows(); ++r) {
      out += csvField(m.targetTokens[r]);
      for (double w : m.weights[r]) out += QLatin1Char(',') + QString::number(w, 'g', 7);
      out += QLatin1Char('\n');
    }
  } else {  // several heatmaps: one row per cell, easy to load in a data frame
    // "view" last, so that readers of the first six columns by position still read them.
    out += QStringLiteral("model,target_index,target,source_index,source,weight,view\n");
    for (const AttentionMatrix& m : matrices)
      for (int r = 0; r < m.rows(); ++r)
        for (int c = 0; c < m.columns(); ++c)
          // One multi-argument arg(): chained ones would replace a "%2" inside a token.
          out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7\n")
                     .arg(csvField(m.title), QString::number(r), csvField(m.targetTokens[r]),
                          QString::number(c), csvField(m.sourceTokens[c]),
                          QString::number(m.weights[r][c], 'g', 7), csvField(m.view));
  }
  return out.toUtf8();
}

QByteArray matricesToJson(const QList<AttentionMatrix>& matrices) {
  QJsonArray heatmaps;
  for (const AttentionMatrix& m : matrices) {
    QJsonArray rows, unknown;
    for (const auto& row : m.weights) {
      QJsonArray values;
      for (double w : row) values.append(w);
      rows.append(values);
    }
    for (bool u : m.unknownSource) unknown.append(u);
    QJsonObject heatmap{{"model", m.title},
                        {"source_tokens", QJsonArray::fromStringList(m.sourceTokens)},
                        {"unknown_source", unknown},
                        {"target_tokens", QJsonArray::fromStringList(m.targetTokens)},
                        {"attention", rows}};
    if (!m.view.isEmpty()) heatmap.insert(QStringLiteral("view"), m.view);
    if (!m.copiedFrom.isEmpty()) {  // per row: the column a copied word came from, or -1
      QJsonArray copied;
      for (int column : m.copiedFrom) copied.append(column);
      heatmap.insert(QStringLiteral("copied_from"), copied);
    }
    heatmaps.append(heatmap);
  }
  const QJsonObject root =
      matrices.size() == 1 ? heatmaps.first().toObject() : QJsonObject{{"heatmaps", heatmaps}};
  return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

namespace {

void checkOptions(const QString& path, const ExportOptions& options) {
  if (options.size.width() < 16 || options.size.height() < 16 || options.size.width() > 20000 ||
      options.size.height() > 20000 || !(options.scale > 0.0 && options.scale <= 8.0))
    fail(path, QStringLiteral("size %1×%2 at scale %3 is out of range (16–20000 pixels, scale ≤ 8)")
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

void saveExport(const QString& path, const QByteArray& bytes) {
  const QFileInfo existing(path);
  if (existing.exists() && !existing.isFile())
    fail(path, existing.isDir() ? QStringLiteral("it is a directory")
                                : QStringLiteral("it exists and is not a regular file"));
  QSaveFile file(path);
  // Unbuffered, every write checked: Qt 6.4's QSaveFile::commit() ignores a failed final flush,
  // so a small export to a full disk would otherwise be renamed into place cut off.
  if (!file.open(QIODevice::WriteOnly | QIODevice::Unbuffered)) fail(path, file.errorString());
  for (qint64 done = 0; done < bytes.size();) {
    const qint64 n = file.write(bytes.constData() + done, bytes.size() - done);
    if (n <= 0) fail(path, file.errorString());
    done += n;
  }
  if (!file.commit()) fail(path, file.errorString());
}

void exportHeatmaps(const QList<HeatmapPlot*>& plots, const QString& path,
                    const ExportOptions& options) {
  const auto format = exportFormatFor(path);
  if (!format)
    fail(path, QStringLiteral("unknown file type '.%1' (use .png, .pdf, .svg, .csv or .json)")
                   .arg(QFileInfo(path).suffix()));
  if (plots.isEmpty()) fail(path, QStringLiteral("there is no heatmap to export"));
  checkOptions(path, options);
  QList<AttentionMatrix> matrices;
  for (HeatmapPlot* plot : plots) matrices << plot->matrix();
  const QList<QCustomPlot*> widgets(plots.begin(), plots.end());
  std::optional<QByteArray> bytes = renderPicture(*format, widgets, options);
  if (!bytes) {
    // A picture says "no attention" for the baseline; the data files leave it out.
    matrices.removeIf([](const AttentionMatrix& m) { return m.noAttention; });
    if (matrices.isEmpty()) fail(path, QStringLiteral("the model has no attention to export"));
    bytes = *format == ExportFormat::Csv ? matricesToCsv(matrices) : matricesToJson(matrices);
  }
  saveExport(path, *bytes);
}

void exportPlot(QCustomPlot* plot, const QString& path, const ExportOptions& options) {
  const auto format = exportFormatFor(path);
  if (!format || *format == ExportFormat::Csv || *format == ExportFormat::Json)
    fail(path, QStringLiteral("unknown picture type '.%1' (use .png, .pdf or .svg)")
                   .arg(QFileInfo(path).suffix()));
  if (plot == nullptr) fail(path, QStringLiteral("there is no plot to export"));
  checkOptions(path, options);
  saveExport(path, *renderPicture(*format, {plot}, options));
}

}  // namespace attnscope::ui
