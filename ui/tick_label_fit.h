#pragma once
// Tick labels no larger than their ticks' spacing on screen, so that neighbours do not overlap
// in a small plot or over a long sentence; full size again once there is room (a larger plot,
// zoomed in).
#include <qcustomplot.h>

namespace attnscope::ui {

class TickLabelFit : public QObject {
  Q_OBJECT
 public:
  /// Fits the tick labels of `axes` (one tick per unit of each axis' range) on `plot`.
  TickLabelFit(QCustomPlot* plot, const QList<QCPAxis*>& axes);

  /// The labels' size when there is room; smaller ones are fitted at every replot on screen.
  void setFullSize(double points);
  /// The smallest size fitting shrinks to: smaller is no longer read.
  static constexpr double kSmallest = 6.5;

 private:
  double fittedSize() const;
  void apply(double points);

  QCustomPlot* plot_;
  QList<QCPAxis*> axes_;
  double fullSize_ = 0;
  int refits_ = 0;  // replots in a row that only changed the labels' size
};

}  // namespace attnscope::ui
