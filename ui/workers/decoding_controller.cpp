#include "workers/decoding_controller.h"

#include <algorithm>

namespace attnscope::ui {

DecodingController::DecodingController(EngineWorker* worker, QObject* parent)
    : QObject(parent), worker_(worker) {
  connect(worker_, &EngineWorker::sessionChanged, this, &DecodingController::receive);
  connect(worker_, &EngineWorker::requestFailed, this, [this](quint64 generation) {
    if (generation != generation_) return;
    busy_ = false;
    pause();
  });
  connect(&playTimer_, &QTimer::timeout, this, &DecodingController::tick);
}

template <typename Call>
void DecodingController::post(Call&& call) {
  QMetaObject::invokeMethod(worker_, std::forward<Call>(call), Qt::QueuedConnection);
}

void DecodingController::start(const QString& key, const QString& sentence, int steps) {
  pause();
  request_ = SessionRequest{++sessions_, key, sentence, {}, steps};
  length_ = -1;
  selectedRow_ = -1;
  send();
  pathGeneration_ = generation_;
}

void DecodingController::clear() {
  pause();
  // Whatever is queued or running is not wanted, and an answer already on its way is ignored.
  generation_ = worker_->nextGeneration();
  pathGeneration_ = generation_;
  request_ = {};
  length_ = -1;
  selectedRow_ = -1;
  busy_ = false;
  snapshot_.reset();
}

bool DecodingController::isSessionOf(const QString& key, const QString& sentence) const {
  return hasSession() && request_.modelKey == key && request_.sentence == sentence;
}

int DecodingController::fromStart(int steps) const {
  return steps < 0 && length_ >= 0 ? std::max(0, length_ + steps + 1) : steps;
}

void DecodingController::goToStep(int steps) {
  if (!hasSession()) return;
  steps = std::max(0, steps);
  if (length_ >= 0) steps = std::min(steps, length_);
  selectedRow_ = -1;
  if (steps == fromStart(request_.steps)) return;  // asked for already
  request_.steps = steps;
  send();
}

void DecodingController::stepForward() {
  const int target = fromStart(request_.steps);
  if (target >= 0) {
    goToStep(target + 1);
  } else if (hasSession() && target < SessionRequest::kToEnd) {
    request_.steps = target + 1;  // still counted from the end, which is not known yet
    selectedRow_ = -1;
    send();
  }
}

void DecodingController::stepBack() {
  const int target = fromStart(request_.steps);
  if (target >= 0) {
    goToStep(target - 1);
  } else if (hasSession()) {
    request_.steps = target - 1;
    selectedRow_ = -1;
    send();
  }
}

void DecodingController::goToEnd() {
  if (!hasSession()) return;
  pause();
  selectedRow_ = -1;
  const bool atEnd = request_.steps == SessionRequest::kToEnd ||
                     (length_ >= 0 && fromStart(request_.steps) == length_);
  if (atEnd) return;  // asked for already
  request_.steps = SessionRequest::kToEnd;
  send();
}

void DecodingController::force(int row, const QString& token) {
  if (!hasSession() || row < 0) return;
  request_.forced.erase(request_.forced.lowerBound(row), request_.forced.end());
  request_.forced.insert(row, token);
  request_.steps = SessionRequest::kToEnd;
  length_ = -1;  // a new path: its length is not known
  selectedRow_ = row;
  send();
  pathGeneration_ = generation_;
}

void DecodingController::reset() {
  if (!hasSession()) return;
  if (request_.forced.isEmpty()) {
    rewind();
    return;
  }
  request_.forced.clear();
  request_.steps = 0;
  length_ = -1;  // the model's own path: its length is asked again
  selectedRow_ = -1;
  send();
  pathGeneration_ = generation_;
}

void DecodingController::play() {
  if (!hasSession() || playing()) return;
  playTimer_.start();
  Q_EMIT playingChanged(true);
}

void DecodingController::pause() {
  if (!playing()) return;
  playTimer_.stop();
  Q_EMIT playingChanged(false);
}

void DecodingController::togglePlay() {
  if (playing()) {
    pause();
    return;
  }
  if (length_ >= 0 && fromStart(request_.steps) >= length_) rewind();
  play();
}

void DecodingController::tick() {
  if (length_ >= 0 && fromStart(request_.steps) >= length_) {
    pause();
    return;
  }
  stepForward();
}

void DecodingController::send() {
  generation_ = worker_->nextGeneration();
  busy_ = true;
  post([w = worker_, g = generation_, r = request_] { w->showSession(g, r); });
}

void DecodingController::receive(quint64 generation, const SessionSnapshot& snapshot) {
  // An older answer about the same path still tells how long it is, so stepping and play stop
  // at the end even while newer requests keep coming.
  if (generation >= pathGeneration_ && snapshot.length >= 0 && length_ < 0) {
    length_ = snapshot.length;
    request_.steps = std::min(fromStart(request_.steps), length_);
  }
  if (generation != generation_) return;  // an answer to a request since replaced
  busy_ = false;
  snapshot_ = snapshot;
  // The answer to the newest request is exactly what it asked for, or less when the sentence
  // ended first: from now on the target counts from the start.
  request_.steps = static_cast<int>(snapshot.steps.size());
  if (length_ >= 0 && request_.steps >= length_) pause();
  Q_EMIT snapshotChanged();
}

int DecodingController::shownRow() const {
  if (!snapshot_ || snapshot_->steps.empty()) return -1;
  const int steps = static_cast<int>(snapshot_->steps.size());
  return selectedRow_ >= 0 && selectedRow_ < steps ? selectedRow_ : steps - 1;
}

}  // namespace attnscope::ui
