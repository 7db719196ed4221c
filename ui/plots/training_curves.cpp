#include "plots/training_curves.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attnscope::ui {
namespace {

// The largest finite value and key of a graph (a diverging run's loss may be inf or NaN).
struct Extent {
  double key = 0.0;
  double value = 0.0;
  double lowest = std::numeric_limits<double>::infinity();  // the smallest value above 0
};

Extent extent(const QCPGraph* graph) {
  Extent e;
  for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
    if (std::isfinite(it->key)) e.key = std::max(e.key, it->key);
    if (!std::isfinite(it->value)) continue;
    e.value = std::max(e.value, it->value);
    if (it->value > 0) e.lowest = std::min(e.lowest, it->value);
  }
  return e;
}

}  // namespace

TrainingCurves::TrainingCurves(QWidget* parent) : QCustomPlot(parent) {
  setMinimumSize(360, 180);
  xAxis->setLabel(tr("batches trained"));
  figureRect_ = new QCPAxisRect(this);
  plotLayout()->addElement(0, 1, figureRect_);
  plotLayout()->setColumnStretchFactor(1, 0.6);
  // Titles above the plots rather than labels beside their value axes: a label longer than a
  // short plot is tall would be cut.
  plotLayout()->insertRow(0);
  plotLayout()->setRowStretchFactor(0, 0.001);
  const QFont bold(font().family(), font().pointSize(), QFont::Bold);
  plotLayout()->addElement(0, 0, new QCPTextElement(this, tr("Loss per token (log scale)"), bold));
  // A task's loss falls from about 3 to below 0.01: on a linear scale all but the first epoch
  // would lie on the axis.
  yAxis->setScaleType(QCPAxis::stLogarithmic);
  // A tick every decade or every few: labels of every decade overlap once a task's loss spans
  // five of them in a plot 180 pixels high.
  auto lossTicker = QSharedPointer<QCPAxisTickerLog>::create();
  lossTicker->setTickCount(3);
  yAxis->setTicker(lossTicker);
  yAxis->setNumberFormat(QStringLiteral("gb"));
  figureTitle_ = new QCPTextElement(this, QString(), bold);
  plotLayout()->addElement(0, 1, figureTitle_);
  QCPAxis* epochAxis = figureRect_->axis(QCPAxis::atBottom);
  epochAxis->setLabel(tr("epoch"));
  auto epochTicker = QSharedPointer<QCPAxisTickerFixed>::create();
  epochTicker->setTickStep(1);
  epochTicker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);  // 1, 2, … or 5, 10, …
  epochAxis->setTicker(epochTicker);
  epochAxis->setSubTicks(false);

  trainingLoss_ = addGraph();
  // The mean of the epoch so far: it starts again with each epoch (hence its jump there).
  trainingLoss_->setName(tr("training (epoch mean)"));
  trainingLoss_->setPen(QPen(QColor("#1f77b4"), 2));
  validationLoss_ = addGraph();
  validationLoss_->setName(tr("validation"));
  validationLoss_->setPen(QPen(QColor("#ff7f0e"), 2));
  validationLoss_->setScatterStyle(
      QCPScatterStyle(QCPScatterStyle::ssCircle, QColor("#ff7f0e"), QColor("#ff7f0e"), 7));
  figure_ = addGraph(epochAxis, figureRect_->axis(QCPAxis::atLeft));
  figure_->setPen(QPen(QColor("#2ca02c"), 2));
  figure_->setScatterStyle(
      QCPScatterStyle(QCPScatterStyle::ssSquare, QColor("#2ca02c"), QColor("#2ca02c"), 7));
  figure_->removeFromLegend();
  legend->setVisible(true);
  QFont small = font();
  small.setPointSizeF(small.pointSizeF() - 1);
  legend->setFont(small);
  // In a row of its own below the plots, entries side by side: inside the plot it covered the
  // curves somewhere whatever its corner.
  axisRect()->insetLayout()->take(legend);
  plotLayout()->addElement(2, 0, legend);
  plotLayout()->setRowStretchFactor(2, 0.001);
  legend->setBorderPen(Qt::NoPen);
  legend->setBrush(Qt::NoBrush);
  legend->setIconSize(18, 10);
  legend->setMargins(QMargins(4, 0, 4, 2));
  // Four labels at most: "1000" beside "750" ran together in a narrow plot.
  xAxis->ticker()->setTickCount(4);
  reset(1, true);
}

void TrainingCurves::resizeEvent(QResizeEvent* event) {
  // The legend's column is the loss plot's, ~60% of the width: its entries side by side where
  // they fit, else one above the other.
  const bool wide = event->size().width() >= 480;
  legend->setFillOrder(wide ? QCPLegend::foColumnsFirst : QCPLegend::foRowsFirst);
  QCustomPlot::resizeEvent(event);
}

void TrainingCurves::reset(int epochs, bool percent) {
  epochs_ = std::max(1, epochs);
  percent_ = percent;
  for (QCPGraph* graph : {trainingLoss_, validationLoss_, figure_}) graph->data()->clear();
  figureTitle_->setText(percent ? tr("Validation: exact matches (%)") : tr("Validation BLEU"));
  refresh();
}

void TrainingCurves::addTrainingLoss(double batch, double loss) {
  // One line through the epochs: a gap at each epoch's start (where the running mean starts
  // afresh, so the line steps down) read as a curve broken into pieces.
  trainingLoss_->addData(batch, loss);
}

void TrainingCurves::addEpoch(const EpochSummary& summary, double batch) {
  validationLoss_->addData(batch, summary.validation_loss);
  const bool share = percent_ && summary.validation_accuracy >= 0;
  figure_->addData(summary.epoch,
                   share ? 100.0 * summary.validation_accuracy : summary.validation_bleu);
}

void TrainingCurves::refresh() {
  const Extent training = extent(trainingLoss_), validation = extent(validationLoss_);
  // 3% beyond the last batch: a validation point sits at an epoch's last batch, and at the
  // axis' end it was drawn cut in half.
  const double lastBatch = std::max({1.0, training.key, validation.key});
  xAxis->setRange(0, lastBatch * 1.03);
  const double highest = std::max(training.value, validation.value);
  const double lowest = std::min(training.lowest, validation.lowest);
  if (highest > 0 && std::isfinite(lowest))
    yAxis->setRange(lowest / 1.5, highest * 1.5);
  else
    yAxis->setRange(0.1, 10);
  const Extent figure = extent(figure_);
  figureRect_->axis(QCPAxis::atBottom)->setRange(0.5, std::max<double>(epochs_, figure.key) + 0.5);
  // A little below 0, so that a first epoch's 0 is drawn whole above the axis.
  const double top = percent_ ? 105.0 : std::max(10.0, std::ceil(figure.value / 10 + 0.5) * 10);
  figureRect_->axis(QCPAxis::atLeft)->setRange(-0.04 * top, top);
  replot(rpQueuedReplot);  // several updates in one pass of the event loop draw once
}

}  // namespace attnscope::ui
