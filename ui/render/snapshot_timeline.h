#pragma once
// The probe sentence's attention through training, from the snapshots a trainer recorded: small
// multiples (a few snapshots side by side in one PNG, SVG or PDF figure) or an animated GIF.
// One entry point for `attnscope-cli export --snapshots` and the app alike.
#include <attnscope/training_snapshots.h>

#include <QSize>
#include <QString>
#include <vector>

namespace attnscope::ui {

/// Snapshots in a figure when TimelineOptions::frames is 0.
constexpr int kDefaultTimelinePanels = 6;
/// The most frames of an animation when TimelineOptions::frames is 0. A run that snapshots every
/// few batches records thousands; 100 frames at the default delay already play for 20 s, and
/// each one costs a full render and about 10 KB of file at the default size.
constexpr int kDefaultTimelineFrames = 100;
/// How long an animation's last frame stays at least before the loop starts again, so the
/// trained alignment can be seen.
constexpr int kTimelineHoldMs = 2000;

struct TimelineOptions {
  // How many snapshots to draw, spread evenly, first and last included (all when there are no
  // more): a figure's panels, an animation's most frames. 0: kDefaultTimelinePanels for a
  // figure, kDefaultTimelineFrames for an animation.
  int frames = 0;
  int delayMs = 200;  // animation: how long each frame is shown (10 ms steps, at least 20)
  // The figure's size (points for PDF), or each frame's, in pixels; a side ≤ 0 takes the
  // default's: 500 × 420 per panel in a squarish grid (six as 3 × 2, up to three in a row) for a
  // figure, 800 × 600 for an animation.
  QSize size{0, 0};
  QString colormap = QStringLiteral("viridis");  // one of colormapNames()
};

/// Whether exportTimeline writes `path`'s file type: .png, .svg, .pdf or .gif.
bool isTimelinePath(const QString& path);

/// Writes `snapshots` to `path`: small multiples for .png, .svg or .pdf, an animation for .gif
/// (written whole under a temporary name, then renamed). Every heatmap has the colour scale
/// [0, 1] and room for the longest output that ended with "</s>" (an untrained model's output,
/// cut off at the length limit, gets smaller rows), so cells keep their size from panel to panel.
/// Throws std::runtime_error with a one-line message naming the path: an unknown extension, no
/// snapshots, a bad option, a file that cannot be written.
void exportTimeline(const std::vector<TrainingSnapshot>& snapshots, const QString& path,
                    const TimelineOptions& options = {});

}  // namespace attnscope::ui
