#pragma once
// The Train tab: train a model on a built-in task or a parallel corpus and watch its attention
// on a probe sentence form, batch by batch, beside the loss and the validation figures. Training
// runs on a thread of its own (train_worker.h); the window stays usable. The model is written
// to a temporary folder until the user saves it or opens it in the Translation tab.
#include <attnscope/model_info.h>
#include <attnscope/trainer.h>
#include <attnscope/training_snapshots.h>

#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QWidget>
#include <functional>
#include <vector>

#include "core/app_settings.h"
#include "core/guide_section.h"
#include "render/export_target.h"

class QCPColorGradient;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;

namespace attnscope::ui {

class SnapshotView;
class TrainSettings;
class TrainWorker;
class TrainingCurves;

class TrainView : public QWidget, public ExportTarget, public GuideSection {
  Q_OBJECT
 public:
  explicit TrainView(QWidget* parent = nullptr);
  ~TrainView() override;

  /// As the buttons do. Start asks first when the last run's model is not saved. Stop ends the
  /// run after its current batch; the epoch so far is validated and, if it is the best, saved.
  void start();
  void pause();
  void resume();
  void stop();
  bool isRunning() const { return state_ != State::Idle; }
  /// The training thread is blocked (the pause has taken effect).
  bool isPaused() const { return state_ == State::Paused; }
  /// The last run's model file (in a temporary folder), or empty when it wrote none.
  QString modelPath() const;
  /// Copies the trained model to `path`. Throws std::runtime_error naming the path.
  void saveModel(const QString& path);
  /// What closing the window would lose, for its question (discard_question.h): the run in
  /// progress or a trained model not saved; empty when nothing.
  QString unsavedWork() const;
  /// `path` is a model one of this tab's runs wrote (a toy model, not one to run on a test set).
  bool isOwnModel(const QString& path) const;
  /// The probe's snapshots as the CLI's `export --snapshots` writes them: an animation (.gif)
  /// or small multiples (.png, .svg, .pdf). Throws std::runtime_error naming the path.
  void exportTimeline(const QString& path);
  const std::vector<attnscope::TrainingSnapshot>& snapshots() const;
  void setGradient(const QCPColorGradient& gradient);
  /// File > Export: the snapshot heatmap shown.
  QSize exportSize() const override;
  QString nothingToExport() const override;
  void exportTo(const QString& path, const ExportOptions& options) const override;
  QString guideSection() const override { return QStringLiteral("app.md#train-tab"); }

  // The widgets, for tests.
  TrainSettings* settings() const { return settings_; }
  SnapshotView* snapshotView() const { return snapshots_; }
  TrainingCurves* curves() const { return curves_; }
  QProgressBar* progressBar() const { return progress_; }
  QLabel* statusLabel() const { return status_; }
  QPushButton* startButton() const { return start_; }
  QPushButton* pauseButton() const { return pause_; }
  QPushButton* resumeButton() const { return resume_; }
  QPushButton* stopButton() const { return stop_; }
  QPushButton* saveButton() const { return save_; }
  QPushButton* openButton() const { return open_; }
  QPushButton* exportTimelineButton() const { return exportTimeline_; }

 Q_SIGNALS:
  /// A progress update was shown: `totalBatch` batches trained in this run.
  void progressed(qint64 totalBatch);
  /// True once a pause has taken effect (no progress until resume()), false on resume().
  void pausedChanged(bool paused);
  /// The run ended: finished, stopped or failed.
  void runEnded();
  void errorOccurred(const QString& message);
  /// "Open in Translation tab": list the model of `path` and show it.
  void openModel(const QString& path);

 private:
  enum class State { Idle, Running, Pausing, Paused, Stopping };

  void showProgress(const attnscope::TrainProgress& progress);
  void showEpoch(const attnscope::EpochSummary& summary);
  void showSnapshot(const attnscope::TrainingSnapshot& snapshot);
  void showPaused();
  void finish(const attnscope::TrainingRecord& record, bool stopped);
  void fail(const QString& message, const QString& setting);
  void endRun(const QString& status);
  void updateButtons();
  void scheduleCurves();
  void log(const QString& line);
  void saveModelDialog();
  void exportTimelineDialog();
  // Runs `write`; its one-line error goes to errorOccurred, success to the status line.
  void writeAndReport(const std::function<void()>& write, const QString& done);

  QThread thread_;
  TrainWorker* worker_ = nullptr;  // lives on thread_
  QTemporaryDir dir_;              // every run's model, until the app closes
  int runs_ = 0;
  QString modelPath_;  // the current or last run's output
  State state_ = State::Idle;
  bool task_ = true;  // the run trains a built-in task (exact matches), not a corpus (BLEU)
  int epochs_ = 0;    // asked for; patience may end the run sooner
  int patience_ = 0;
  bool saved_ = false;            // the last run's model was saved somewhere
  bool listed_ = false;           // the last run's model was opened in the Translation tab
  QString savedPath_;             // where the last run's model was saved; "" until it is
  double secondsPerBatch_ = 0.0;  // the trainer's latest estimate, for the run's time left
  qint64 totalBatch_ = 0;
  QTimer curvesTimer_;  // coalesces curve redraws

  TrainSettings* settings_ = nullptr;
  QPushButton* start_ = nullptr;
  QPushButton* pause_ = nullptr;
  QPushButton* resume_ = nullptr;
  QPushButton* stop_ = nullptr;
  QPushButton* save_ = nullptr;
  QPushButton* open_ = nullptr;
  QPushButton* exportTimeline_ = nullptr;
  QPlainTextEdit* log_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* status_ = nullptr;
  SnapshotView* snapshots_ = nullptr;
  TrainingCurves* curves_ = nullptr;
};

}  // namespace attnscope::ui
