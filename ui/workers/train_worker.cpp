#include "workers/train_worker.h"

#include <attnscope/errors.h>

#include <QMutexLocker>
#include <exception>

namespace attnscope::ui {
namespace {

// Ten updates a second keep the progress bar and the loss curve lively without flooding the
// GUI thread's event queue.
constexpr qint64 kProgressInterval = 100;

// Engine messages may list several problems on lines of their own; a message box gets one.
QString oneLine(const char* text) { return QString::fromStdString(text).simplified(); }

}  // namespace

TrainWorker::TrainWorker(QObject* parent) : QObject(parent) {
  qRegisterMetaType<attnscope::TrainProgress>();
  qRegisterMetaType<attnscope::EpochSummary>();
  qRegisterMetaType<attnscope::TrainingSnapshot>();
  qRegisterMetaType<attnscope::TrainingRecord>();
}

void TrainWorker::start(const TrainOptions& options) {
  stop_ = false;
  {
    const QMutexLocker lock(&mutex_);
    paused_ = false;
  }
  QMetaObject::invokeMethod(this, [this, options] { run(options); });
}

void TrainWorker::pause() {
  const QMutexLocker lock(&mutex_);
  paused_ = true;
}

void TrainWorker::resume() {
  const QMutexLocker lock(&mutex_);
  paused_ = false;
  wake_.wakeAll();
}

void TrainWorker::stop() {
  stop_ = true;
  // Under the mutex: a waiter checks stop_ holding it, so the wake cannot fall between its check
  // and its wait.
  const QMutexLocker lock(&mutex_);
  wake_.wakeAll();
}

bool TrainWorker::waitWhilePaused() {
  QMutexLocker lock(&mutex_);
  if (paused_ && !stop_) {
    lock.unlock();
    emitPendingProgress();  // the display shows where the run stands while it waits
    Q_EMIT paused();
    lock.relock();
    while (paused_ && !stop_) wake_.wait(&mutex_);
  }
  return stop_;
}

void TrainWorker::onProgress(const TrainProgress& progress) {
  pending_ = progress;
  const bool epochEnd = progress.batch >= progress.batches;
  if (epochEnd || !sinceProgress_.isValid() || sinceProgress_.elapsed() >= kProgressInterval)
    emitPendingProgress();
}

void TrainWorker::emitPendingProgress() {
  if (!pending_) return;
  Q_EMIT progress(*pending_);
  pending_.reset();
  sinceProgress_.start();
}

void TrainWorker::run(const TrainOptions& options) {
  sinceProgress_.invalidate();
  pending_.reset();
  bool stopped = false;
  TrainObserver observer;
  observer.message = [this](const std::string& text) {
    Q_EMIT message(QString::fromStdString(text));
  };
  observer.progress = [this](const TrainProgress& p) { onProgress(p); };
  observer.epoch_done = [this](const EpochSummary& summary) {
    emitPendingProgress();  // the curve reaches the epoch's end before its validation point
    Q_EMIT epochDone(summary);
  };
  observer.snapshot = [this](const TrainingSnapshot& s) { Q_EMIT snapshot(s); };
  // Asked after every batch: the one place a pause takes effect and a stop is seen.
  observer.stop_requested = [this, &stopped] {
    stopped = waitWhilePaused() || stopped;
    return stopped;
  };
  // Nothing may escape this thread: every failure becomes a signal. train() trains with
  // options.threads and gives this thread its count back; other threads keep theirs.
  // (The Train tab's options keep TrainOptions' one thread: a task's small model trains faster
  // on one, reverse 134 batches a second against 80 with two workers, and the GUI thread keeps
  // the other core.)
  try {
    const TrainingRecord record = train(options, observer);
    emitPendingProgress();
    Q_EMIT finished(record, stopped);
  } catch (const SettingError& e) {
    emitPendingProgress();
    Q_EMIT failed(oneLine(e.what()), QString::fromStdString(e.setting()));
  } catch (const std::exception& e) {
    emitPendingProgress();
    Q_EMIT failed(oneLine(e.what()), QString());
  } catch (...) {
    Q_EMIT failed(tr("training failed with an unknown error"), QString());
  }
}

}  // namespace attnscope::ui
