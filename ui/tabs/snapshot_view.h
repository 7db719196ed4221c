#pragma once
// The probe sentence as the model in training sees it: its attention heatmap and greedy output
// at one snapshot, and a timeline slider over every snapshot recorded. New snapshots may arrive
// hundreds of times a second; the heatmap is drawn at most five times a second.
#include <attnscope/training_snapshots.h>

#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>
#include <vector>

class QCPColorGradient;
class QLabel;
class QSlider;

namespace attnscope::ui {

class HeatmapPlot;

class SnapshotView : public QWidget {
  Q_OBJECT
 public:
  explicit SnapshotView(QWidget* parent = nullptr);

  void clear();
  /// Records a snapshot. The slider follows the newest unless the user moved it back.
  void addSnapshot(const attnscope::TrainingSnapshot& snapshot);
  const std::vector<attnscope::TrainingSnapshot>& snapshots() const { return snapshots_; }
  /// The epoch whose weights are the model (0: none yet), named in the heatmap's title beside
  /// the snapshot shown: a later snapshot is not the model that was kept.
  void setKeptEpoch(int epoch);
  /// The snapshot the heatmap shows, or −1.
  int shownIndex() const { return drawn_; }
  void setGradient(const QCPColorGradient& gradient);

  // For tests.
  HeatmapPlot* heatmap() const { return heatmap_; }
  QSlider* timeline() const { return timeline_; }
  QLabel* outputLabel() const { return output_; }
  int redraws() const { return redraws_; }

 Q_SIGNALS:
  /// The heatmap now shows snapshot `index`.
  void shown(int index);

 private:
  void requestRedraw();
  void redraw();

  std::vector<attnscope::TrainingSnapshot> snapshots_;
  HeatmapPlot* heatmap_ = nullptr;
  QLabel* output_ = nullptr;
  QSlider* timeline_ = nullptr;
  QLabel* position_ = nullptr;
  QTimer redrawTimer_;
  QElapsedTimer sinceRedraw_;
  int drawn_ = -1;
  int keptEpoch_ = 0;
  bool retitle_ = false;  // the kept epoch changed since the heatmap was drawn
  int redraws_ = 0;
};

}  // namespace attnscope::ui
