#include "workers/beam_controller.h"

namespace attnscope::ui {

BeamController::BeamController(EngineWorker* worker, QObject* parent)
    : QObject(parent), worker_(worker) {
  connect(worker_, &EngineWorker::beamSearched, this,
          [this](quint64 generation, const BeamResult& result) {
            if (generation != searchGeneration_) return;  // another sentence, model or search
            result_ = result;
            Q_EMIT searched();
          });
  connect(worker_, &EngineWorker::beamNodeDecoded, this,
          [this](quint64 generation, const BeamNodeResult& result) {
            if (generation != nodeGeneration_) return;  // another node clicked since, or a tree
            nodePending_ = false;
            Q_EMIT nodeDecoded(result);
          });
  connect(worker_, &EngineWorker::beamContinued, this,
          [this](quint64 generation, const BeamContinuation& continuation) {
            if (generation != continuationGeneration_ || !continuing_.remove(continuation.node))
              return;  // grown from a tree no longer shown
            Q_EMIT continued(continuation);
          });
}

template <typename Call>
void BeamController::post(Call&& call) {
  QMetaObject::invokeMethod(worker_, std::forward<Call>(call), Qt::QueuedConnection);
}

void BeamController::search(const BeamRequest& request) {
  dropAnswers();
  request_ = request;
  searchGeneration_ = worker_->nextGeneration(EngineWorker::Channel::BeamTree);
  post([w = worker_, g = searchGeneration_, request] { w->searchBeam(g, request); });
}

void BeamController::clear() {
  dropAnswers();
  request_.reset();
  searchGeneration_ = worker_->nextGeneration(EngineWorker::Channel::BeamTree);
}

void BeamController::dropAnswers() {
  result_.reset();
  nodePending_ = false;
  continuing_.clear();
  nodeGeneration_ = worker_->nextGeneration(EngineWorker::Channel::BeamNode);
  continuationGeneration_ = worker_->nextGeneration(EngineWorker::Channel::BeamContinuation);
}

void BeamController::decodeNode(int node, const std::vector<int>& path) {
  if (!result_ || !result_->error.isEmpty()) return;
  nodePending_ = true;
  nodeGeneration_ = worker_->nextGeneration(EngineWorker::Channel::BeamNode);
  post([w = worker_, g = nodeGeneration_, r = *request_, node, path] {
    w->decodeBeamNode(g, r, node, path);
  });
}

void BeamController::continueFrom(int node, const std::vector<int>& path) {
  if (!result_ || !result_->error.isEmpty() || continuing_.contains(node)) return;
  continuing_.insert(node);
  post([w = worker_, g = continuationGeneration_, r = *request_, node, path] {
    w->continueBeam(g, r, node, path);
  });
}

}  // namespace attnscope::ui
