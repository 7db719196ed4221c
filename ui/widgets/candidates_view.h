#pragma once
// The top-k next-token candidates of one decoding step, each with a probability bar. Clicking a
// candidate, or Enter on the current one, asks to force it (what-if decoding).
#include <attnscope/translation.h>

#include <QListWidget>

namespace attnscope::ui {

class CandidatesView : public QListWidget {
  Q_OBJECT
 public:
  explicit CandidatesView(QWidget* parent = nullptr);
  /// `chosen` is the token the step emitted (shown ticked); `labels`, one per candidate, how to
  /// write each (a subword model's piece without its raw marker); empty: the tokens as they are.
  void setCandidates(const std::vector<Candidate>& candidates, const QString& chosen,
                     const QStringList& labels = {});
  /// What choosing a candidate does, as its tool tip says: force it and decode on (greedy
  /// decoding), or show its node (a beam tree's node, whose candidates are its siblings).
  enum class Choice { kForce, kShowNode };
  void setChoice(Choice choice);

 Q_SIGNALS:
  void candidateChosen(const QString& token);

 protected:
  void keyPressEvent(QKeyEvent* event) override;
};

}  // namespace attnscope::ui
