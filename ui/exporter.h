#pragma once
// Writes heatmaps to files: PNG, PDF and SVG through one rendering routine (the same pixels on
// screen, in the app's Export dialog and in `attnscope-cli export`), and the matrices as CSV or
// JSON. Every file is written to a temporary name and renamed when complete (QSaveFile), so a
// failed export never leaves a half-written file under the final name.
#include <QImage>
#include <QList>
#include <QSize>
#include <QString>
#include <optional>

#include "attention_matrix.h"

class QCustomPlot;

namespace attnscope::ui {

class HeatmapPlot;

enum class ExportFormat { Png, Pdf, Svg, Csv, Json };

/// From the file name's extension; std::nullopt when it is none of png, pdf, svg, csv, json.
std::optional<ExportFormat> exportFormatFor(const QString& path);

struct ExportOptions {
  QSize size{900, 700};  // the picture's size in pixels (points for PDF)
  double scale = 1.0;    // PNG only: pixel ratio, 2.0 for a high-DPI picture of the same layout
  int columns = 3;       // grid layout when several plots are exported
};

/// Renders `plots` (one heatmap, or the compare grid) or writes their matrices, by the path's
/// extension. Throws std::runtime_error with a one-line message naming the path.
void exportHeatmaps(const QList<HeatmapPlot*>& plots, const QString& path,
                    const ExportOptions& options = {});

/// Renders any one plot (the BLEU-by-length plot) as PNG, PDF or SVG, by the path's extension,
/// as exportHeatmaps does. Throws std::runtime_error with a one-line message naming the path.
void exportPlot(QCustomPlot* plot, const QString& path, const ExportOptions& options = {});

/// The pixels of a PNG export of `plots` (not empty): options.size × options.scale, the plots
/// laid out as exportHeatmaps does. Animations render their frames with it.
QImage renderImage(const QList<QCustomPlot*>& plots, const ExportOptions& options = {});

/// Writes `bytes` to `path` as every export does: under a temporary name renamed when complete.
/// Throws std::runtime_error with a one-line message naming the path.
void saveExport(const QString& path, const QByteArray& bytes);

/// A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
QString csvField(const QString& text);

/// The matrices alone as CSV or JSON text (for tests and the exporter).
QByteArray matricesToCsv(const QList<AttentionMatrix>& matrices);
QByteArray matricesToJson(const QList<AttentionMatrix>& matrices);

}  // namespace attnscope::ui
