#pragma once
// The Train tab's training on a thread of its own: attnscope::train() runs there, and its
// observer's callbacks (which run on that thread) become queued signals carrying the engine's
// plain structs. Pausing blocks the training thread inside a callback; stopping is an atomic
// flag the trainer asks after every batch. Both are set directly from the GUI thread.
#include <attnscope/model_info.h>
#include <attnscope/trainer.h>
#include <attnscope/training_snapshots.h>

#include <QElapsedTimer>
#include <QMutex>
#include <QObject>
#include <QString>
#include <QWaitCondition>
#include <atomic>
#include <optional>

namespace attnscope::ui {

class TrainWorker : public QObject {
  Q_OBJECT
 public:
  explicit TrainWorker(QObject* parent = nullptr);

  // Called from the GUI thread. start() clears a stop or pause left from an earlier run before
  // the run is queued, so a Stop pressed at once is not lost.
  void start(const attnscope::TrainOptions& options);
  void pause();
  void resume();
  void stop();

 Q_SIGNALS:
  void progress(const attnscope::TrainProgress& progress);
  void epochDone(const attnscope::EpochSummary& summary);
  void snapshot(const attnscope::TrainingSnapshot& snapshot);
  void message(const QString& text);
  /// The training thread is blocked: no progress until resume() or stop().
  void paused();
  /// train() returned; `stopped`: a stop request ended it early.
  void finished(const attnscope::TrainingRecord& record, bool stopped);
  /// One line; `setting` names the TrainOptions field at fault (SettingError), or is empty.
  void failed(const QString& message, const QString& setting);

 private:
  // On the training thread.
  void run(const attnscope::TrainOptions& options);
  void onProgress(const attnscope::TrainProgress& progress);
  // Blocks while paused; true when the run should stop.
  bool waitWhilePaused();
  void emitPendingProgress();

  std::atomic<bool> stop_{false};
  QMutex mutex_;
  QWaitCondition wake_;
  bool paused_ = false;  // guarded by mutex_

  // Progress is sent at most every kProgressInterval ms (a tiny model trains hundreds of batches
  // a second); the newest one held back is sent before a pause or an epoch's summary.
  QElapsedTimer sinceProgress_;
  std::optional<attnscope::TrainProgress> pending_;
};

}  // namespace attnscope::ui

Q_DECLARE_METATYPE(attnscope::TrainProgress)
Q_DECLARE_METATYPE(attnscope::EpochSummary)
Q_DECLARE_METATYPE(attnscope::TrainingSnapshot)
Q_DECLARE_METATYPE(attnscope::TrainingRecord)
