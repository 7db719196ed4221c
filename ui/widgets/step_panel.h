#pragma once
// What the model saw and weighed at one decoding step: the top-k candidates (click one to force
// it), the step's attention over the source, and the attention entropy.
#include <attnscope/translation.h>

#include <QLabel>
#include <QWidget>

namespace attnscope::ui {

class AttentionBars;
class CandidatesView;

class StepPanel : public QWidget {
  Q_OBJECT
 public:
  explicit StepPanel(QWidget* parent = nullptr);
  /// `step` may be null (nothing decoded yet); `index` counts from 0.
  void showStep(const Step* step, int index, const QStringList& sourceTokens);
  CandidatesView* candidates() const { return candidates_; }
  AttentionBars* bars() const { return bars_; }

 Q_SIGNALS:
  void candidateChosen(const QString& token);

 private:
  QLabel* heading_ = nullptr;
  CandidatesView* candidates_ = nullptr;
  AttentionBars* bars_ = nullptr;
  QLabel* entropy_ = nullptr;
};

}  // namespace attnscope::ui
