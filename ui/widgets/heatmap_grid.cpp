#include "widgets/heatmap_grid.h"

#include <QAbstractScrollArea>
#include <QCoreApplication>
#include <QGridLayout>
#include <QResizeEvent>
#include <QScrollBar>
#include <QWheelEvent>
#include <algorithm>

#include "plots/colormaps.h"
#include "plots/heatmap_plot.h"

namespace attnscope::ui {

HeatmapGrid::HeatmapGrid(QWidget* parent)
    : QWidget(parent), gradient_(colormap(QStringLiteral("viridis"))) {
  layout_ = new QGridLayout(this);
  layout_->setContentsMargins(0, 0, 0, 0);
  layout_->setSpacing(2);
}

void HeatmapGrid::setPlotCount(int count, int columns) {
  count = std::max(count, 0);
  maxColumns_ = std::max(columns, 1);
  while (plots_.size() > count) {
    HeatmapPlot* plot = plots_.takeLast();
    layout_->removeWidget(plot);
    plot->hide();
    plot->deleteLater();  // it may be the one whose signal led here
  }
  while (plots_.size() < count) {
    auto* plot = new HeatmapPlot(this);
    plot->setMinimumSize(kPlotMinimum);
    plot->setGradient(gradient_);
    plot->setShowValues(showValues_);
    connect(plot, &HeatmapPlot::cellHovered, this, &HeatmapGrid::highlightCell);
    plot->installEventFilter(this);
    plots_ << plot;
  }
  relayout();
}

void HeatmapGrid::setTrailingPlot(HeatmapPlot* plot) {
  trailing_ = plot;
  trailing_->setParent(this);
  trailing_->setMinimumSize(kPlotMinimum);
  trailing_->installEventFilter(this);
  relayout();
}

void HeatmapGrid::setTrailingPlotShown(bool shown) {
  if (trailing_ == nullptr || trailing_->isHidden() != shown) return;
  trailing_->setVisible(shown);
  relayout();
}

// Before the grid is shown its width is not yet its own: the most columns until then.
int HeatmapGrid::fittingColumns() const {
  if (!isVisible()) return maxColumns_;
  const int spacing = layout_->spacing();
  return std::clamp((width() + spacing) / (kPlotMinimum.width() + spacing), 1, maxColumns_);
}

void HeatmapGrid::relayout() {
  QList<HeatmapPlot*> laidOut = plots_;
  if (trailing_ != nullptr) {
    layout_->removeWidget(trailing_);
    if (!trailing_->isHidden()) laidOut << trailing_;
  }
  columns_ = fittingColumns();
  for (HeatmapPlot* plot : plots_) layout_->removeWidget(plot);
  for (int i = 0; i < laidOut.size(); ++i)
    layout_->addWidget(laidOut[i], i / columns_, i % columns_);
  // One column's width, and every row's height: the grid never squeezes a plot below its
  // minimum, and asks a scroll area around it for the rows it needs at this width.
  const auto rows = static_cast<int>((laidOut.size() + columns_ - 1) / columns_);
  setMinimumSize(kPlotMinimum.width(), std::max(1, rows * (kPlotMinimum.height() + 2) - 2));
}

void HeatmapGrid::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  if (fittingColumns() != columns_) relayout();
}

void HeatmapGrid::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (fittingColumns() != columns_) relayout();
}

bool HeatmapGrid::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() != QEvent::Wheel) return QWidget::eventFilter(watched, event);
  auto* wheel = static_cast<QWheelEvent*>(event);
  QScrollBar* bar = nullptr;
  for (QWidget* w = parentWidget(); w != nullptr && bar == nullptr; w = w->parentWidget())
    if (auto* area = qobject_cast<QAbstractScrollArea*>(w)) bar = area->verticalScrollBar();
  // Over a grid taller than its window the wheel scrolls the grid, as on a page; Ctrl+wheel
  // zooms the heatmap under the mouse, as the wheel does where nothing scrolls.
  if (bar == nullptr || !bar->isVisible() || wheel->modifiers().testFlag(Qt::ControlModifier))
    return false;
  QCoreApplication::sendEvent(bar, event);
  return true;
}

void HeatmapGrid::setMatrices(const QList<AttentionMatrix>& matrices) {
  for (int i = 0; i < plots_.size() && i < matrices.size(); ++i) plots_[i]->setMatrix(matrices[i]);
  HeatmapPlot::shareDataRange(plots_);
}

void HeatmapGrid::setGradient(const QCPColorGradient& gradient) {
  gradient_ = gradient;
  for (HeatmapPlot* plot : plots_) plot->setGradient(gradient);
}

void HeatmapGrid::setShowValues(bool show) {
  showValues_ = show;
  for (HeatmapPlot* plot : plots_) plot->setShowValues(show);
}

void HeatmapGrid::highlightCell(int row, int column) {
  for (HeatmapPlot* plot : plots_) plot->setHighlightedCell(row, column);
  Q_EMIT cellHighlighted(row, column);
}

}  // namespace attnscope::ui
