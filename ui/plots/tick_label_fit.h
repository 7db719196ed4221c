#pragma once
// Tick labels no larger than their ticks' spacing on screen, so that neighbours do not overlap
// in a small plot or over a long sentence; full size again once there is room (a larger plot,
// zoomed in). Where even the smallest size does not fit, only every n-th label is shown.
#include <qcustomplot.h>

namespace attnscope::ui {

/// Text ticks of which only every n-th (0, n, 2n, …) shows its label; the others keep their
/// tick mark and their text (`ticks()`), so hovering a cell or bar can still name it. A label
/// longer than 26 characters shows its first 16 and last 9 (`ticks()` keeps it whole).
class SparseTickerText : public QCPAxisTickerText {
 public:
  void setStride(int stride) { stride_ = std::max(1, stride); }
  int stride() const { return stride_; }

 protected:
  QString getTickLabel(double tick, const QLocale& locale, QChar formatChar,
                       int precision) override;

 private:
  int stride_ = 1;
};

class TickLabelFit : public QObject {
  Q_OBJECT
 public:
  /// Fits the tick labels of `axes` (one tick per unit of each axis' range) on `plot`. Axes
  /// with a SparseTickerText are thinned out when their labels do not fit at kSmallest.
  TickLabelFit(QCustomPlot* plot, const QList<QCPAxis*>& axes);

  /// The labels' size when there is room; smaller ones are fitted at every replot on screen.
  void setFullSize(double points);
  /// Lays the plot out over `viewport` with its labels fitted to that layout, as a replot does on
  /// screen: an export's size, then the screen's again. toPainter() then draws this layout.
  void layOutFor(const QRect& viewport);
  /// The smallest size fitting shrinks to: smaller is no longer read.
  static constexpr double kSmallest = 6.5;

 private:
  struct Fit {
    double points = 0;     // 0: nothing to fit (not on screen, not laid out)
    QVector<int> strides;  // per axis: every n-th label shown
  };
  Fit fitted() const;  // on screen
  Fit fittedTo(const QRect& cells) const;
  bool differsFromCurrent(const Fit& fit) const;
  void apply(double points, const QVector<int>& strides = {});

  QCustomPlot* plot_;
  QList<QCPAxis*> axes_;
  double fullSize_ = 0;
  int refits_ = 0;  // replots in a row that only changed the labels' size or stride
};

}  // namespace attnscope::ui
