#include "heads_view.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QSignalBlocker>
#include <QVBoxLayout>
#include <cmath>

#include "colormaps.h"
#include "heatmap_plot.h"

namespace attnscope::ui {

HeadsView::HeadsView(QWidget* parent) : QWidget(parent) {
  layer_ = new QComboBox(this);
  layer_->setObjectName(QStringLiteral("headsLayerBox"));
  layer_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  status_ = new QLabel(this);
  auto* controls = new QHBoxLayout;
  controls->addWidget(new QLabel(tr("Every head of"), this));
  controls->addWidget(layer_);
  controls->addStretch();
  grid_ = new QGridLayout;
  grid_->setSpacing(2);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(controls);
  layout->addLayout(grid_, 1);
  layout->addWidget(status_);
  connect(layer_, &QComboBox::currentIndexChanged, this, &HeadsView::rebuild);
}

void HeadsView::setTranslation(const Translation& t, const QString& modelName, int layers,
                               int heads, bool words) {
  translation_ = t;
  modelName_ = modelName;
  heads_ = heads;
  words_ = words;
  if (layer_->count() != layers) {
    const QSignalBlocker block(layer_);
    layer_->clear();
    for (int l = 1; l <= layers; ++l) layer_->addItem(tr("layer %1").arg(l));
    layer_->setCurrentIndex(layers - 1);
  }
  rebuild();
}

void HeadsView::rebuild() {
  const int heads = heads_ > 1 ? heads_ : 0;
  const int plotCount = heads > 0 ? heads + 1 : 0;  // the heads, then their mean
  while (plots_.size() > plotCount) plots_.takeLast()->deleteLater();
  while (plots_.size() < plotCount) {
    auto* plot = new HeatmapPlot(this);
    plot->setGradient(colormap(colormap_));
    plot->setShowValues(showValues_);
    connect(plot, &HeatmapPlot::cellHovered, this, &HeadsView::hoverAll);
    plots_ << plot;
  }
  // A squarish grid: four heads and their mean as 3 + 2.
  const int columns = std::max(1, static_cast<int>(std::ceil(std::sqrt(plotCount))));
  for (int i = 0; i < plots_.size(); ++i) grid_->addWidget(plots_[i], i / columns, i % columns);
  if (plotCount == 0) {
    status_->setText(tr("This model has one attention matrix: nothing to compare here."));
    return;
  }
  const int layer = std::max(0, layer_->currentIndex());
  const QString prefix =
      QStringLiteral("%1 · layer %2").arg(modelName_, QString::number(layer + 1));
  const QString view =
      translation_.subword_marker.empty() ? QString() : (words_ ? tr(" · words") : tr(" · pieces"));
  for (int i = 0; i < plotCount; ++i) {
    const bool mean = i == heads;
    const QString title =
        prefix + (mean ? tr(" · mean of heads") : tr(" · head %1").arg(i + 1)) + view;
    plots_[i]->setMatrix(
        AttentionMatrix::fromTranslation(translation_, title, {{layer, mean ? -1 : i}, words_}));
  }
  HeatmapPlot::shareDataRange(plots_);
  status_->setText(
      tr("%1 heads of layer %2, and their mean, on one colour scale.").arg(heads).arg(layer + 1));
}

void HeadsView::hoverAll(int row, int column) {
  for (HeatmapPlot* plot : plots_) plot->setHighlightedCell(row, column);
}

void HeadsView::setGradient(const QString& colormapName) {
  colormap_ = colormapName;
  for (HeatmapPlot* plot : plots_) plot->setGradient(colormap(colormapName));
}

void HeadsView::setShowValues(bool show) {
  showValues_ = show;
  for (HeatmapPlot* plot : plots_) plot->setShowValues(show);
}

}  // namespace attnscope::ui
