#include "widgets/heatmap_grid.h"

#include <QGridLayout>
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
  columns = std::max(columns, 1);
  while (plots_.size() > count) {
    HeatmapPlot* plot = plots_.takeLast();
    layout_->removeWidget(plot);
    plot->hide();
    plot->deleteLater();  // it may be the one whose signal led here
  }
  while (plots_.size() < count) {
    auto* plot = new HeatmapPlot(this);
    plot->setGradient(gradient_);
    plot->setShowValues(showValues_);
    connect(plot, &HeatmapPlot::cellHovered, this, &HeatmapGrid::highlightCell);
    plots_ << plot;
  }
  for (HeatmapPlot* plot : plots_) layout_->removeWidget(plot);
  for (int i = 0; i < plots_.size(); ++i) layout_->addWidget(plots_[i], i / columns, i % columns);
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
