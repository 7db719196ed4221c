#include "plots/tick_label_fit.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attnscope::ui {
namespace {

SparseTickerText* sparseTicker(const QCPAxis* axis) {
  return dynamic_cast<SparseTickerText*>(axis->ticker().data());
}

double lineHeight(const QFont& base, double points) {
  QFont font = base;
  font.setPointSizeF(points);
  return QFontMetricsF(font).height();
}

}  // namespace

QString SparseTickerText::getTickLabel(double tick, const QLocale& locale, QChar formatChar,
                                       int precision) {
  if (stride_ > 1 && qRound(tick) % stride_ != 0) return {};
  const QString label = QCPAxisTickerText::getTickLabel(tick, locale, formatChar, precision);
  // One very long token (a copied 100-letter word) would take the plot's whole width or height
  // for its label: its middle is left out, its start and its mark ("(copied)", "(?)") kept.
  constexpr qsizetype kHead = 16, kTail = 9;
  if (label.size() <= kHead + 1 + kTail) return label;
  return label.left(kHead) + QChar(0x2026) + label.right(kTail);
}

TickLabelFit::TickLabelFit(QCustomPlot* plot, const QList<QCPAxis*>& axes)
    : QObject(plot), plot_(plot), axes_(axes) {
  // Fitted before each replot, from the last layout (the ranges are current); when the new
  // layout (a resized plot) asks for another fit, one more replot applies it.
  connect(plot, &QCustomPlot::beforeReplot, this, [this] {
    if (const Fit fit = fitted(); fit.points > 0) apply(fit.points, fit.strides);
  });
  connect(plot, &QCustomPlot::afterReplot, this, [this] {
    const bool off = differsFromCurrent(fitted());
    refits_ = off && refits_ < 2 ? refits_ + 1 : 0;  // at most two in a row: never a loop
    if (refits_ > 0) plot_->replot(QCustomPlot::rpQueuedReplot);
  });
}

void TickLabelFit::setFullSize(double points) {
  fullSize_ = points;
  apply(points);  // off screen (an export's plot) the labels keep it, every one shown
}

void TickLabelFit::layOutFor(const QRect& viewport) {
  plot_->setViewport(viewport);
  const auto layOut = [this] {  // QCustomPlot::updateLayout(), which is protected
    for (const auto phase :
         {QCPLayoutElement::upPreparation, QCPLayoutElement::upMargins, QCPLayoutElement::upLayout})
      plot_->plotLayout()->update(phase);
  };
  layOut();
  // The labels' size changes the margins and so the cells: a few rounds settle it.
  for (int round = 0; round < 3; ++round) {
    const Fit fit = fittedTo(plot_->axisRect()->rect());
    if (fit.points <= 0 || !differsFromCurrent(fit)) break;
    apply(fit.points, fit.strides);
    layOut();
  }
}

void TickLabelFit::apply(double points, const QVector<int>& strides) {
  QFont font = plot_->font();
  font.setPointSizeF(points);
  for (int i = 0; i < axes_.size(); ++i) {
    axes_[i]->setTickLabelFont(font);
    if (SparseTickerText* ticker = sparseTicker(axes_[i]))
      ticker->setStride(i < strides.size() ? strides[i] : 1);
  }
}

bool TickLabelFit::differsFromCurrent(const Fit& fit) const {
  if (fit.points <= 0) return false;
  if (std::abs(fit.points - axes_.front()->tickLabelFont().pointSizeF()) > 0.25) return true;
  for (int i = 0; i < axes_.size(); ++i)
    if (const SparseTickerText* ticker = sparseTicker(axes_[i]);
        ticker && ticker->stride() != fit.strides.value(i, 1))
      return true;
  return false;
}

// A label of line height h on ticks d pixels apart clears its neighbour when h ≤ d·sin α, α the
// angle between the text and its axis: 60° for the turned column labels, 90° for upright row
// labels beside a vertical axis. Below kSmallest, an axis that can be thinned shows every n-th
// label, n the smallest that gives each shown label n·d·sin α of room.
TickLabelFit::Fit TickLabelFit::fitted() const {
  if (!plot_->isVisible()) return {};
  return fittedTo(plot_->axisRect()->rect());
}

TickLabelFit::Fit TickLabelFit::fittedTo(const QRect& cells) const {
  if (fullSize_ <= 0 || cells.width() < 10 || cells.height() < 10) return {};
  QVector<double> rooms;  // per axis; infinite for text along its axis (its width counts)
  for (const QCPAxis* axis : axes_) {
    const bool across = axis->orientation() == Qt::Horizontal;
    const double gap = (across ? cells.width() : cells.height()) / axis->range().size();
    const double turned =
        std::abs(across ? axis->tickLabelRotation() : 90 - axis->tickLabelRotation());
    rooms << (turned < 1 ? std::numeric_limits<double>::infinity()
                         : gap * std::sin(turned * M_PI / 180));
  }
  const double room = *std::min_element(rooms.begin(), rooms.end());
  if (!std::isfinite(room)) return {};
  Fit fit;
  const double floor = std::min(kSmallest, fullSize_);
  fit.points =
      std::clamp(fullSize_ * room / lineHeight(plot_->font(), fullSize_), floor, fullSize_);
  // Thinned only at the floor: above it, the size was chosen to fit the tightest axis.
  const double height = lineHeight(plot_->font(), fit.points);
  for (int i = 0; i < axes_.size(); ++i) {
    const bool thin =
        fit.points <= floor && sparseTicker(axes_[i]) && rooms[i] > 0 && height > rooms[i];
    fit.strides << (thin ? static_cast<int>(std::ceil(height / rooms[i])) : 1);
  }
  return fit;
}

}  // namespace attnscope::ui
