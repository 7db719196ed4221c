#pragma once
// The Translation tab's beam tree without widgets (issue 31): the recorded search of the sentence
// shown, the hypothesis of the node the user clicked, and the searches resumed from pruned nodes.
// Each runs on the engine worker's thread on a channel of its own; a new search makes every
// answer about the old tree stale, so a tree never receives a node or a graft of another one.
#include <QObject>
#include <QSet>
#include <optional>
#include <vector>

#include "workers/engine_worker.h"

namespace attnscope::ui {

class BeamController : public QObject {
  Q_OBJECT
 public:
  /// `worker` may live on another thread; requests are queued to it.
  explicit BeamController(EngineWorker* worker, QObject* parent = nullptr);

  /// Runs `request`'s recorded search afresh (Enter); the old tree's answers still on their way
  /// are dropped.
  void search(const BeamRequest& request);
  /// No tree (greedy decoding, an empty sentence): answers still on their way are dropped.
  void clear();
  /// The search shown or asked for; nothing after clear().
  const std::optional<BeamRequest>& request() const { return request_; }
  /// The answer to the newest search, once it came (its error says why it has no tree).
  const std::optional<BeamResult>& result() const { return result_; }
  bool searching() const { return request_ && !result_; }

  /// Decodes the hypothesis of `node`, a node of the tree shown (grafted ones included) whose
  /// path is `path` (nodeDecoded); a newer node replaces it.
  void decodeNode(int node, const std::vector<int>& path);
  bool decodingNode() const { return nodePending_; }
  /// Resumes the search from `node`, whose path is `path` (continued); several may run, one per
  /// node.
  void continueFrom(int node, const std::vector<int>& path);
  bool continuing() const { return !continuing_.isEmpty(); }
  bool continuing(int node) const { return continuing_.contains(node); }
  /// Anything asked for and not answered yet.
  bool busy() const { return searching() || decodingNode() || continuing(); }

 Q_SIGNALS:
  /// result() holds the answer to the newest search.
  void searched();
  void nodeDecoded(const attnscope::ui::BeamNodeResult& result);
  void continued(const attnscope::ui::BeamContinuation& continuation);

 private:
  // Every answer about the tree shown so far is stale from now on.
  void dropAnswers();
  template <typename Call>
  void post(Call&& call);

  EngineWorker* worker_;
  std::optional<BeamRequest> request_;
  std::optional<BeamResult> result_;
  quint64 searchGeneration_ = 0;
  quint64 nodeGeneration_ = 0;
  // One generation for all continuations of a tree: a new tree makes them stale, another
  // continuation does not.
  quint64 continuationGeneration_ = 0;
  bool nodePending_ = false;
  QSet<int> continuing_;
};

}  // namespace attnscope::ui
