#include "tick_label_fit.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attnscope::ui {

TickLabelFit::TickLabelFit(QCustomPlot* plot, const QList<QCPAxis*>& axes)
    : QObject(plot), plot_(plot), axes_(axes) {
  // Fitted before each replot, from the last layout (the ranges are current); when the new
  // layout (a resized plot) asks for another size, one more replot applies it.
  connect(plot, &QCustomPlot::beforeReplot, this, [this] {
    if (const double size = fittedSize(); size > 0) apply(size);
  });
  connect(plot, &QCustomPlot::afterReplot, this, [this] {
    const double size = fittedSize();
    const bool off =
        size > 0 && std::abs(size - axes_.front()->tickLabelFont().pointSizeF()) > 0.25;
    refits_ = off && refits_ < 2 ? refits_ + 1 : 0;  // at most two in a row: never a loop
    if (refits_ > 0) plot_->replot(QCustomPlot::rpQueuedReplot);
  });
}

void TickLabelFit::setFullSize(double points) {
  fullSize_ = points;
  apply(points);  // off screen (an export's plot) the labels keep it
}

void TickLabelFit::apply(double points) {
  QFont font = plot_->font();
  font.setPointSizeF(points);
  for (QCPAxis* axis : axes_) axis->setTickLabelFont(font);
}

// A label of line height h on ticks d pixels apart clears its neighbour when h ≤ d·sin α, α the
// angle between the text and its axis: 60° for the turned column labels, 90° for upright row
// labels beside a vertical axis. 0 when the plot is not on screen or not laid out yet.
double TickLabelFit::fittedSize() const {
  const QRect cells = plot_->axisRect()->rect();
  if (fullSize_ <= 0 || !plot_->isVisible() || cells.width() < 10 || cells.height() < 10) return 0;
  double room = std::numeric_limits<double>::infinity();
  for (const QCPAxis* axis : axes_) {
    const bool across = axis->orientation() == Qt::Horizontal;
    const double gap = (across ? cells.width() : cells.height()) / axis->range().size();
    const double turned =
        std::abs(across ? axis->tickLabelRotation() : 90 - axis->tickLabelRotation());
    if (turned < 1) continue;  // text along its axis: its width counts, not its height
    room = std::min(room, gap * std::sin(turned * M_PI / 180));
  }
  if (!std::isfinite(room)) return 0;
  QFont font = plot_->font();
  font.setPointSizeF(fullSize_);
  return std::clamp(fullSize_ * room / QFontMetricsF(font).height(), std::min(kSmallest, fullSize_),
                    fullSize_);
}

}  // namespace attnscope::ui
