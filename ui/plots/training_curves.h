#pragma once
// The Train tab's curves: training loss over the batches trained (with each epoch's validation
// loss), and per epoch the validation figure that says whether the model works: a task's exact
// matches or a corpus' BLEU.
#include <attnscope/trainer.h>
#include <qcustomplot.h>

namespace attnscope::ui {

class TrainingCurves : public QCustomPlot {
  Q_OBJECT
 public:
  explicit TrainingCurves(QWidget* parent = nullptr);

  /// Empties both plots for a run of `epochs` epochs; `percent`: the figure is a share (a
  /// task's exact matches, drawn 0–100 %), otherwise BLEU.
  void reset(int epochs, bool percent);
  /// The running mean training loss of the epoch so far, after `batch` batches of the run. The
  /// mean starts afresh with each epoch, so the one line steps down there.
  void addTrainingLoss(double batch, double loss);
  /// An epoch's validation loss, drawn at `batch` (the run's batches so far), and its figure.
  void addEpoch(const attnscope::EpochSummary& summary, double batch);
  /// Fits the axes to the data and redraws at the next pass of the event loop.
  void refresh();

  // For tests.
  QCPGraph* trainingLoss() const { return trainingLoss_; }
  QCPGraph* validationLoss() const { return validationLoss_; }
  QCPGraph* figure() const { return figure_; }
  QCPAxisRect* figureRect() const { return figureRect_; }

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  QCPAxisRect* figureRect_ = nullptr;
  QCPTextElement* figureTitle_ = nullptr;
  QCPGraph* trainingLoss_ = nullptr;
  QCPGraph* validationLoss_ = nullptr;
  QCPGraph* figure_ = nullptr;
  int epochs_ = 1;
  bool percent_ = true;
};

}  // namespace attnscope::ui
