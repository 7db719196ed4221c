#pragma once
// What the model saw and weighed at one decoding step: the top-k candidates (click one or press
// Enter to force it), the step's attention over the source (drag a bar or use its menu to edit
// it), the chosen attribution's row beside it, and the attention entropy. A subword model's
// pieces are written without their raw marker, as words or pieces like the heatmap.
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
  /// `step` may be null (nothing decoded yet); `index` counts from 0. `sourceLabels` label the
  /// bars of step->attention (the heatmap's columns). `marker`: a subword model's marker ("" for
  /// a word model); `words`: the heatmap shows words, so pieces are written as parts of words.
  void showStep(const Step* step, int index, const QStringList& sourceLabels,
                const QString& marker = {}, bool words = false);
  /// A token as the step panel writes it. Marker "▁": in words, "▁hat" is "hat" and "ol" (the
  /// rest of a word) "…ol"; in pieces, "▁hat" is "␣hat" ("hat" first in the sentence) and "ol"
  /// stays. Marker "@@": "cher@@" is "cher…" in words, as it is in pieces. Tokens in <…> stay.
  static QString pieceText(const QString& token, const QString& marker, bool words, bool first);
  /// The chosen attribution's row at this step, titled (`title` empty: none shown); `note`
  /// (empty: none) says why there is no row; `detail` (empty: none) is a line under the title
  /// and the hover of the title and the bars (integrated gradients' completeness at the step).
  void showAttribution(const QString& title, const QStringList& sourceLabels,
                       const std::vector<float>& row, bool signedValues, const QString& valueName,
                       const QString& note = {}, const QString& detail = {});
  /// The attention bars show an edited row (the model's own outlined): the label says so.
  void setAttentionEdited(bool edited);
  /// The candidates are a beam tree node's siblings (true): choosing one shows its node rather
  /// than forcing it, and the label and tool tip say so.
  void setBeamNodeCandidates(bool beam);
  CandidatesView* candidates() const { return candidates_; }
  AttentionBars* bars() const { return bars_; }
  AttentionBars* attributionBars() const { return attributionBars_; }
  QLabel* attributionLabel() const { return attributionLabel_; }

 Q_SIGNALS:
  void candidateChosen(const QString& token);

 private:
  QLabel* heading_ = nullptr;
  CandidatesView* candidates_ = nullptr;
  QLabel* candidatesLabel_ = nullptr;
  AttentionBars* bars_ = nullptr;
  QLabel* attentionLabel_ = nullptr;
  QLabel* attributionLabel_ = nullptr;
  AttentionBars* attributionBars_ = nullptr;
  QLabel* entropy_ = nullptr;
};

}  // namespace attnscope::ui
