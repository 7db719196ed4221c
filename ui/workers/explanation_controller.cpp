#include "workers/explanation_controller.h"

namespace attnscope::ui {

ExplanationController::ExplanationController(EngineWorker* worker, QObject* parent)
    : QObject(parent), worker_(worker) {
  connect(worker_, &EngineWorker::attributionReady, this,
          [this](quint64 generation, const AttributionResult& result) {
            if (generation != attributionGeneration_) return;  // asked for something else since
            attributionPending_ = result.refining;             // a finer result follows
            attribution_ = result;
            Q_EMIT attributionChanged();
            // Yielded to other work queued behind it: refined again once that work is done.
            if (result.yielded && asked_ && *asked_ == result.request) requestAttribution(*asked_);
          });
  connect(worker_, &EngineWorker::editReady, this,
          [this](quint64 generation, const EditResult& result) {
            if (generation != editGeneration_) return;
            editPending_ = false;
            if (!result.error.isEmpty()) {
              // Refused: nothing changes but the one line saying why.
              refusal_ = result.error.section(QLatin1Char('\n'), 0, 0);
              edits_ = accepted_;
              whatIf_ = acceptedWhatIf_;
            } else {
              accepted_ = edits_;
              acceptedWhatIf_ = whatIf_ = result;
            }
            Q_EMIT editsChanged();
          });
  connect(worker_, &EngineWorker::supportFound, this,
          [this](const QString& key, const ExplainSupport& support) {
            support_.insert(key, support);
            Q_EMIT supportChanged(key);
          });
}

void ExplanationController::requestAttribution(const AttributionRequest& request) {
  // Answered, unless the refining yielded to other work (a step): then it starts again.
  if ((answers(request) && !attribution_->yielded) ||
      (attributionPending_ && asked_ && *asked_ == request))
    return;
  asked_ = request;
  attributionPending_ = true;
  attributionGeneration_ = worker_->nextGeneration(EngineWorker::Channel::Attribution);
  QMetaObject::invokeMethod(
      worker_, [w = worker_, g = attributionGeneration_, request] { w->attribute(g, request); },
      Qt::QueuedConnection);
}

void ExplanationController::setSession(const QString& key, const QString& sentence,
                                       const QMap<int, QString>& forced) {
  if (key != key_ || sentence != sentence_) {
    key_ = key;
    sentence_ = sentence;
    forced_ = forced;
    resetEdits();  // edits belong to their sentence and model
    return;
  }
  if (forced == forced_) return;
  forced_ = forced;
  if (hasEdits()) sendEdits();  // the same edits on the path the new forced tokens lead on
}

void ExplanationController::setEdit(const AttentionEdit& edit) {
  refusal_.clear();
  edits_[edit.step] = edit;
  sendEdits();
}

void ExplanationController::removeEdit(int step) {
  if (edits_.erase(step) == 0) return;
  refusal_.clear();
  if (edits_.empty())
    resetEdits();
  else
    sendEdits();
}

void ExplanationController::refuse(const QString& why) {
  refusal_ = why.section(QLatin1Char('\n'), 0, 0);
  Q_EMIT editsChanged();
}

void ExplanationController::resetEdits() {
  if (!hasEdits() && !whatIf_ && refusal_.isEmpty()) return;
  edits_.clear();
  whatIf_.reset();
  accepted_.clear();
  acceptedWhatIf_.reset();
  refusal_.clear();
  editPending_ = false;
  worker_->cancel(EngineWorker::Channel::Edit);
  Q_EMIT editsChanged();
}

std::vector<AttentionEdit> ExplanationController::editList() const {
  std::vector<AttentionEdit> list;
  for (const auto& [step, edit] : edits_) list.push_back(edit);
  return list;
}

void ExplanationController::sendEdits() {
  editPending_ = true;
  editGeneration_ = worker_->nextGeneration(EngineWorker::Channel::Edit);
  EditRequest request{key_, sentence_, forced_, editList()};
  QMetaObject::invokeMethod(
      worker_, [w = worker_, g = editGeneration_, request] { w->decodeEdits(g, request); },
      Qt::QueuedConnection);
  Q_EMIT editsChanged();  // the marks follow at once; the what-if when it is decoded
}

const ExplainSupport* ExplanationController::support(const QString& key) const {
  const auto it = support_.constFind(key);
  return it == support_.cend() ? nullptr : &*it;
}

}  // namespace attnscope::ui
