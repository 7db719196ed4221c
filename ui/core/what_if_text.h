#pragma once
// What an attention edit changed, as the screen writes it: the what-if translation with the
// words that differ from the model's own marked, and one line naming an edit.
#include <attnscope/explanation.h>
#include <attnscope/translation.h>

#include <QString>
#include <QStringList>
#include <QVector>

namespace attnscope::ui {

/// The colour of words a what-if changed, and of rows whose attention was edited.
inline constexpr const char* kEditedColour = "#d70015";

/// A word of the diff between a translation and its what-if.
struct WordChange {
  enum class Kind {
    kSame,     // in both
    kAdded,    // only in the what-if: inserted, or replacing the dropped words before it
    kDropped,  // only in the original
  };
  Kind kind = Kind::kSame;
  QString word;
  bool operator==(const WordChange& other) const {
    return kind == other.kind && word == other.word;
  }
};

/// The two word lists merged along their longest common subsequence (so one word more does not
/// mark every word after it): each word of either once, in reading order, a replaced word as
/// its dropped original followed by what replaced it.
QVector<WordChange> wordDiff(const QStringList& original, const QStringList& edited);

/// The words of a translation (pieces joined, no end token).
QStringList translationWords(const Translation& t);

/// `edited`'s words as HTML (escaped): added and replacing ones bold in kEditedColour, dropped
/// ones of the original struck through in grey where they were.
QString whatIfHtml(const Translation& original, const Translation& edited);
QString whatIfHtml(const QVector<WordChange>& diff);

/// How many words wordDiff() marks as added (inserted or replacing) and as dropped.
struct WordDiffCounts {
  int added = 0;
  int dropped = 0;
  bool same() const { return added == 0 && dropped == 0; }
};
WordDiffCounts wordDiffCounts(const Translation& original, const Translation& edited);

/// The what-if line's legend: "the same translation: …" only when no word was added or dropped.
QString whatIfLegend(const WordDiffCounts& counts);

/// `row` with `index` set to `weight` (clamped to [0, 1]) and the others scaled to fill the rest
/// (spread evenly when they were all 0), so it still sums to 1: a dragged bar.
std::vector<float> withWeight(const std::vector<float>& row, int index, double weight);

/// The weights typed for `count` bars of output step `step` (from 0), read by the engine's own
/// rules (parse_attention_edit: finite, not negative, not all 0; AttentionEdit::apply: one per
/// bar). Separated by spaces, commas or semicolons. Empty `error` when they are valid; otherwise
/// the engine's one-line reason and no weights.
std::vector<float> parseTypedWeights(const QString& text, int step, int count, QString* error);

/// `row` as the weights dialog shows it first: each weight to 3 significant digits; a row holding
/// a value that is not finite is replaced by the uniform one, so the dialog never offers inf/nan.
QString typedWeightsText(const std::vector<float>& row);

/// One line naming `edit` over the source tokens it counts: "step 3: zero 'dog'",
/// "step 2: all on 'Hund'", "step 4: uniform", "step 1: shuffled", "step 5: weights set".
QString editDescription(const AttentionEdit& edit, const QStringList& sourceTokens);

}  // namespace attnscope::ui
