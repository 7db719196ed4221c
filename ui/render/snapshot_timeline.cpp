#include "render/snapshot_timeline.h"

#include <QFileInfo>
#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "plots/colormaps.h"
#include "plots/heatmap_plot.h"
#include "render/exporter.h"
#include "render/gif_encoder.h"

namespace attnscope::ui {
namespace {

constexpr int kMaxFrames = 1000;
constexpr int kMinDelayMs = 20, kMaxDelayMs = 60000;
constexpr int kMaxFrameSide = 4096;  // each frame is drawn into 32-bit pixels before it is encoded
constexpr QSize kPanelSize{500, 420};
constexpr QSize kFrameSize{800, 600};
// Of the animation's 256 colours: the map's levels, the rest for text and antialiasing (greys).
constexpr int kGradientLevels = 192;

[[noreturn]] void fail(const QString& path, const QString& problem) {
  throw std::runtime_error(
      QStringLiteral("cannot export to '%1': %2").arg(path, problem).toStdString());
}

// What every heatmap of a timeline shares: one colour scale, [0, 1], whatever a snapshot's
// largest weight, and room for the longest finished output (longestOutput), so cells keep their
// size while the output grows and shrinks during training.
void setUpPlot(HeatmapPlot& plot, const QCPColorGradient& gradient, int rows, QSize size) {
  plot.setGradient(gradient);
  plot.setDataRange(QCPRange(0.0, 1.0));
  plot.setReservedRows(rows);
  // The layout's size: a widget never shown gets no resize event, so resize() alone would not do.
  plot.setViewport(QRect(QPoint(0, 0), size));
}

// The room: the longest output that ended with "</s>". An untrained model's greedy output runs
// to the length limit (60 rows for a date); room for it would squash every later panel into a
// strip, so such an output gets smaller rows instead. Without any finished output, the longest.
int longestOutput(const std::vector<TrainingSnapshot>& snapshots) {
  size_t longest = 1, longestFinished = 0;
  for (const auto& s : snapshots) {
    longest = std::max(longest, s.output.size());
    if (!s.output.empty() && s.output.back() == "</s>")
      longestFinished = std::max(longestFinished, s.output.size());
  }
  return static_cast<int>(longestFinished > 0 ? longestFinished : longest);
}

// The left margin holds the output tokens, which change from snapshot to snapshot; fixed to the
// widest, the heatmaps line up in a figure and stand still in an animation. setMatrix() lays the
// plot out at its own size, so each matrix is measured without drawing it again.
int widestLeftMargin(HeatmapPlot& plot, const QList<AttentionMatrix>& matrices) {
  plot.axisRect()->setAutoMargins(QCP::msAll);
  int widest = 0;
  for (const AttentionMatrix& m : matrices) {
    plot.setMatrix(m);
    widest = std::max(widest, plot.axisRect()->margins().left());
  }
  return widest;
}

void fixLeftMargin(HeatmapPlot& plot, int left) {
  // Only the left: top and bottom stay automatic, so the colour bar keeps the heatmap's height.
  plot.axisRect()->setAutoMargins(QCP::msTop | QCP::msRight | QCP::msBottom);
  plot.axisRect()->setMargins(QMargins(left, 0, 0, 0));
}

// `size`, with the default's side where it has none.
QSize sizeOr(QSize size, QSize fallback) {
  return {size.width() > 0 ? size.width() : fallback.width(),
          size.height() > 0 ? size.height() : fallback.height()};
}

QList<AttentionMatrix> matricesOf(const std::vector<TrainingSnapshot>& snapshots) {
  QList<AttentionMatrix> matrices;
  for (const auto& s : snapshots) matrices << AttentionMatrix::fromSnapshot(s);
  return matrices;
}

void writeFigure(const std::vector<TrainingSnapshot>& frames, const QString& path,
                 const TimelineOptions& options) {
  const int count = static_cast<int>(frames.size());
  ExportOptions figure;
  // A squarish grid, six as 3 × 2, but up to three in a row rather than 2 × 2 with a gap.
  figure.columns = count <= 3 ? count : static_cast<int>(std::ceil(std::sqrt(count)));
  const int rows = (count + figure.columns - 1) / figure.columns;
  figure.size =
      sizeOr(options.size, QSize(kPanelSize.width() * figure.columns, kPanelSize.height() * rows));
  const QSize panel(figure.size.width() / figure.columns, figure.size.height() / rows);
  const QList<AttentionMatrix> matrices = matricesOf(frames);
  const int outputRows = longestOutput(frames);
  std::vector<std::unique_ptr<HeatmapPlot>> owned;
  QList<HeatmapPlot*> plots;
  int left = 0;
  for (const AttentionMatrix& m : matrices) {
    owned.push_back(std::make_unique<HeatmapPlot>());
    setUpPlot(*owned.back(), colormap(options.colormap), outputRows, panel);
    left = std::max(left, widestLeftMargin(*owned.back(), {m}));
    plots << owned.back().get();
  }
  for (HeatmapPlot* plot : plots) fixLeftMargin(*plot, left);
  exportHeatmaps(plots, path, figure);
}

// One palette for every frame: the colour map's levels, the plot's own text and background
// colours, and greys between black and white for antialiased text and lines.
QList<QRgb> animationPalette(QCPColorGradient gradient, const QPalette& colours) {
  // `gradient` by value: color() is not const in QCustomPlot 2.1
  QList<QRgb> palette;
  for (int i = 0; i < kGradientLevels; ++i)
    palette << gradient.color(i / double(kGradientLevels - 1), QCPRange(0.0, 1.0));
  for (QPalette::ColorRole role : {QPalette::Base, QPalette::Text, QPalette::PlaceholderText})
    palette << colours.color(role).rgb();  // rgb(): opaque, as drawn over the opaque base
  const int greys = 256 - static_cast<int>(palette.size());
  for (int i = 0; i < greys; ++i) {
    const int level = std::lround(255.0 * i / (greys - 1));
    palette << qRgb(level, level, level);
  }
  return palette;
}

void writeAnimation(const std::vector<TrainingSnapshot>& frames, const QString& path,
                    const TimelineOptions& options) {
  const QSize size = sizeOr(options.size, kFrameSize);
  if (size.width() < 16 || size.height() < 16 || size.width() > kMaxFrameSide ||
      size.height() > kMaxFrameSide)
    fail(path, QStringLiteral("frame size %1×%2 is out of range (16–%3 pixels)")
                   .arg(size.width())
                   .arg(size.height())
                   .arg(kMaxFrameSide));
  if (options.delayMs < kMinDelayMs || options.delayMs > kMaxDelayMs)
    fail(path, QStringLiteral("a frame delay of %1 ms is out of range (%2–%3 ms)")
                   .arg(options.delayMs)
                   .arg(kMinDelayMs)
                   .arg(kMaxDelayMs));
  HeatmapPlot plot;
  setUpPlot(plot, colormap(options.colormap), longestOutput(frames), size);
  const QList<AttentionMatrix> matrices = matricesOf(frames);
  fixLeftMargin(plot, widestLeftMargin(plot, matrices));
  ExportOptions frame;
  frame.size = size;
  QByteArray bytes;
  try {
    // Frames are encoded as they are drawn: one frame's pixels in memory, never all of them.
    GifEncoder encoder(size, animationPalette(plot.gradient(), plot.palette()));
    for (int i = 0; i < matrices.size(); ++i) {
      plot.setMatrix(matrices[i]);
      const bool last = i + 1 == matrices.size();
      encoder.addFrame(renderImage({&plot}, frame),
                       last ? std::max(options.delayMs, kTimelineHoldMs) : options.delayMs);
    }
    bytes = encoder.finish();
  } catch (const std::runtime_error& e) {
    fail(path, QString::fromUtf8(e.what()));
  }
  saveExport(path, bytes);
}

bool isAnimationPath(const QString& path) {
  return QFileInfo(path).suffix().compare(QLatin1String("gif"), Qt::CaseInsensitive) == 0;
}

}  // namespace

bool isTimelinePath(const QString& path) {
  const auto format = exportFormatFor(path);
  return isAnimationPath(path) || format == ExportFormat::Png || format == ExportFormat::Svg ||
         format == ExportFormat::Pdf;
}

void exportTimeline(const std::vector<TrainingSnapshot>& snapshots, const QString& path,
                    const TimelineOptions& options) {
  const bool animation = isAnimationPath(path);
  if (!isTimelinePath(path))
    fail(path, QStringLiteral("unknown file type '.%1' for a timeline (use .png, .svg, .pdf or "
                              ".gif)")
                   .arg(QFileInfo(path).suffix()));
  if (options.frames < 0 || options.frames > kMaxFrames)
    fail(path, QStringLiteral("the number of frames must be between 1 and %1, not %2")
                   .arg(kMaxFrames)
                   .arg(options.frames));
  if (snapshots.empty()) fail(path, QStringLiteral("there are no snapshots to export"));
  if (!colormapNames().contains(options.colormap))
    fail(path, QStringLiteral("unknown colour map '%1' (use %2)")
                   .arg(options.colormap, colormapNames().join(QStringLiteral(", "))));
  const int count = options.frames > 0 ? options.frames
                    : animation        ? kDefaultTimelineFrames
                                       : kDefaultTimelinePanels;
  const std::vector<TrainingSnapshot> frames = pick_frames(snapshots, static_cast<size_t>(count));
  if (animation)
    writeAnimation(frames, path, options);
  else
    writeFigure(frames, path, options);
}

}  // namespace attnscope::ui
