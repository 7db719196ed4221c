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

/// Per word of `edited`: true where it is not part of the longest common subsequence of the two
/// (a word inserted or replaced), so one word more does not mark every word after it.
QVector<bool> changedWords(const QStringList& original, const QStringList& edited);

/// The words of a translation (pieces joined, no end token).
QStringList translationWords(const Translation& t);

/// `edited`'s words as HTML (escaped), the changed ones bold in kEditedColour.
QString whatIfHtml(const Translation& original, const Translation& edited);

/// How many words of `edited` changedWords() marks.
int changedWordCount(const Translation& original, const Translation& edited);

/// `row` with `index` set to `weight` (clamped to [0, 1]) and the others scaled to fill the rest
/// (spread evenly when they were all 0), so it still sums to 1: a dragged bar.
std::vector<float> withWeight(const std::vector<float>& row, int index, double weight);

/// One line naming `edit` over the source tokens it counts: "step 3: zero 'dog'",
/// "step 2: all on 'Hund'", "step 4: uniform", "step 1: shuffled", "step 5: weights set".
QString editDescription(const AttentionEdit& edit, const QStringList& sourceTokens);

}  // namespace attnscope::ui
