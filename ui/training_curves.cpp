#include "training_curves.h"

#include <algorithm>
#include <cmath>

namespace attnscope::ui {
namespace {

// The largest finite value and key of a graph (a diverging run's loss may be inf or NaN).
struct Extent {
  double key = 0.0;
  double value = 0.0;
};

Extent extent(const QCPGraph* graph) {
  Extent e;
  for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
    if (std::isfinite(it->key)) e.key = std::max(e.key, it->key);
    if (std::isfinite(it->value)) e.value = std::max(e.value, it->value);
  }
  return e;
}

}  // namespace

TrainingCurves::TrainingCurves(QWidget* parent) : QCustomPlot(parent) {
  setMinimumSize(360, 180);
  xAxis->setLabel(tr("batches trained"));
  yAxis->setLabel(tr("loss per token"));
  figureRect_ = new QCPAxisRect(this);
  plotLayout()->addElement(0, 1, figureRect_);
  plotLayout()->setColumnStretchFactor(1, 0.6);
  QCPAxis* epochAxis = figureRect_->axis(QCPAxis::atBottom);
  epochAxis->setLabel(tr("epoch"));
  auto epochTicker = QSharedPointer<QCPAxisTickerFixed>::create();
  epochTicker->setTickStep(1);
  epochTicker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);  // 1, 2, … or 5, 10, …
  epochAxis->setTicker(epochTicker);
  epochAxis->setSubTicks(false);

  trainingLoss_ = addGraph();
  trainingLoss_->setName(tr("training"));
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
  axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
  reset(1, true);
}

void TrainingCurves::reset(int epochs, bool percent) {
  epochs_ = std::max(1, epochs);
  percent_ = percent;
  for (QCPGraph* graph : {trainingLoss_, validationLoss_, figure_}) graph->data()->clear();
  figureRect_->axis(QCPAxis::atLeft)
      ->setLabel(percent ? tr("validation: exact match (%)") : tr("validation BLEU"));
  refresh();
}

void TrainingCurves::addTrainingLoss(double batch, double loss) {
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
  xAxis->setRange(0, std::max({1.0, training.key, validation.key}));
  const double loss = std::max(training.value, validation.value);
  yAxis->setRange(0, loss > 0 ? loss * 1.08 : 1.0);
  const Extent figure = extent(figure_);
  figureRect_->axis(QCPAxis::atBottom)->setRange(0.5, std::max<double>(epochs_, figure.key) + 0.5);
  figureRect_->axis(QCPAxis::atLeft)
      ->setRange(0, percent_ ? 105.0 : std::max(10.0, std::ceil(figure.value / 10 + 0.5) * 10));
  replot(rpQueuedReplot);  // several updates in one pass of the event loop draw once
}

}  // namespace attnscope::ui
