#include "tabs/heads_view.h"

#include <QHBoxLayout>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QVBoxLayout>
#include <cmath>

#include "core/attention_matrix.h"
#include "plots/heatmap_plot.h"
#include "widgets/heatmap_grid.h"

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
  grid_ = new HeatmapGrid(this);
  // A small window gets fewer columns and scrolls down the rows, rather than squeezing plots.
  auto* scroll = new QScrollArea(this);
  scroll->setWidget(grid_);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  status_->setWordWrap(true);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(controls);
  layout->addWidget(scroll, 1);
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
  // A squarish grid: four heads and their mean as 3 + 2.
  grid_->setPlotCount(plotCount, static_cast<int>(std::ceil(std::sqrt(plotCount))));
  if (plotCount == 0) {
    status_->setText(tr("This model has one attention matrix: nothing to compare here."));
    return;
  }
  const int layer = std::max(0, layer_->currentIndex());
  const QString prefix =
      QStringLiteral("%1 · layer %2").arg(modelName_, QString::number(layer + 1));
  const QString view =
      translation_.subword_marker.empty() ? QString() : (words_ ? tr(" · words") : tr(" · pieces"));
  QList<AttentionMatrix> matrices;
  for (int i = 0; i < plotCount; ++i) {
    const bool mean = i == heads;
    const QString title =
        prefix + (mean ? tr(" · mean of heads") : tr(" · head %1").arg(i + 1)) + view;
    matrices << AttentionMatrix::fromTranslation(translation_, title,
                                                 {{layer, mean ? -1 : i}, words_});
  }
  grid_->setMatrices(matrices);
  status_->setText(
      tr("%1 heads of layer %2, and their mean, on one colour scale.").arg(heads).arg(layer + 1));
}

const QList<HeatmapPlot*>& HeadsView::plots() const { return grid_->plots(); }

void HeadsView::setGradient(const QCPColorGradient& gradient) { grid_->setGradient(gradient); }

void HeadsView::setShowValues(bool show) { grid_->setShowValues(show); }

QSize HeadsView::exportSize() const { return grid_->size(); }

void HeadsView::exportTo(const QString& path, const ExportOptions& options) const {
  ExportOptions grid = options;
  grid.columns = 0;  // laid out for the picture's own size
  exportHeatmaps(plots(), path, grid);
}

}  // namespace attnscope::ui
