#pragma once
// The Translation tab's explanations without widgets: the attribution of the session's path
// (one request at a time, stale answers dropped) and the attention edits the user made on that
// path with their what-if decoding. Both run on the engine worker's thread, on channels of their
// own: a newer request makes an older answer stale, but a computation already running finishes
// first, so a step asked for meanwhile waits for it (integrated gradients of a 20-word sentence:
// about 1.5 s; `attnscope-cli bench --explain`).
#include <QHash>
#include <QObject>
#include <map>
#include <optional>

#include "workers/engine_worker.h"

namespace attnscope::ui {

class ExplanationController : public QObject {
  Q_OBJECT
 public:
  /// `worker` may live on another thread; requests are queued to it.
  explicit ExplanationController(EngineWorker* worker, QObject* parent = nullptr);

  /// Asks for `request`'s attribution unless it is the one shown or asked for already.
  void requestAttribution(const AttributionRequest& request);
  /// The answer to the newest request, once it came (its error says why it has no values).
  const std::optional<AttributionResult>& attribution() const { return attribution_; }
  /// Whether `request` is what attribution() answers.
  bool answers(const AttributionRequest& request) const {
    return attribution_ && attribution_->request == request;
  }
  bool attributionBusy() const { return attributionPending_; }

  /// The session the edits are made on: another model or sentence drops them; other forced
  /// tokens decode them again.
  void setSession(const QString& key, const QString& sentence, const QMap<int, QString>& forced);
  /// Adds `edit`, replacing an edit of the same step, and decodes the what-if. When the engine
  /// refuses it, the edits and the what-if return to those before it and refusal() says why.
  void setEdit(const AttentionEdit& edit);
  /// An edit refused before it was sent (`why`, one line): the edits stay as they are.
  void refuse(const QString& why);
  /// Why the last edit was refused ("" when it was not): the edits are those before it.
  const QString& refusal() const { return refusal_; }
  /// Drops the edit of output step `step` (the model's own attention there again) and decodes
  /// the others' what-if; the last one dropped is a reset.
  void removeEdit(int step);
  /// Back to the model's own attention: no edit, no what-if.
  void resetEdits();
  bool hasEdits() const { return !edits_.empty(); }
  /// The edits by step (output steps from 0).
  const std::map<int, AttentionEdit>& edits() const { return edits_; }
  std::vector<AttentionEdit> editList() const;
  /// The what-if of the current edits, once decoded; nothing without edits.
  const std::optional<EditResult>& whatIf() const { return whatIf_; }
  bool editBusy() const { return editPending_; }
  const QString& sessionKey() const { return key_; }

  /// What model `key` supports, once a session on it started; nullptr before.
  const ExplainSupport* support(const QString& key) const;

 Q_SIGNALS:
  void attributionChanged();
  /// The edits or their what-if changed (hasEdits() false: they were dropped or reset).
  void editsChanged();
  void supportChanged(const QString& key);

 private:
  void sendEdits();

  EngineWorker* worker_;
  quint64 attributionGeneration_ = 0;
  quint64 editGeneration_ = 0;
  std::optional<AttributionRequest> asked_;
  std::optional<AttributionResult> attribution_;
  bool attributionPending_ = false;
  QString key_, sentence_;
  QMap<int, QString> forced_;
  std::map<int, AttentionEdit> edits_;
  std::optional<EditResult> whatIf_;
  // The edits and what-if the engine last accepted: a refused edit returns to them.
  std::map<int, AttentionEdit> accepted_;
  std::optional<EditResult> acceptedWhatIf_;
  QString refusal_;
  bool editPending_ = false;
  QHash<QString, ExplainSupport> support_;
};

}  // namespace attnscope::ui
