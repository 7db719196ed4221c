#pragma once
// Writes heatmaps to files: PNG, PDF and SVG through one rendering routine (the same pixels on
// screen, in the app's Export dialog and in `attnscope-cli export`), and the matrices as CSV or
// JSON (core/export_file.h), saved as every export is.
#include <QImage>
#include <QList>
#include <QSize>
#include <QString>
#include <optional>

#include "core/export_file.h"
#include "core/export_options.h"

class QCustomPlot;

namespace attnscope::ui {

class HeatmapPlot;

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

}  // namespace attnscope::ui
