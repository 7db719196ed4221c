#pragma once
// The top-k next-token candidates of one decoding step, each with a probability bar. Clicking a
// candidate asks to force it (what-if decoding).
#include <attnscope/translation.h>

#include <QListWidget>

namespace attnscope::ui {

class CandidatesView : public QListWidget {
  Q_OBJECT
 public:
  explicit CandidatesView(QWidget* parent = nullptr);
  /// `chosen` is the token the step emitted (shown ticked).
  void setCandidates(const std::vector<Candidate>& candidates, const QString& chosen);

 Q_SIGNALS:
  void candidateChosen(const QString& token);
};

}  // namespace attnscope::ui
