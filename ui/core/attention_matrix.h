#pragma once
#include <attnscope/attention_file.h>
#include <attnscope/training_snapshots.h>
#include <attnscope/translation.h>

#include <QString>
#include <QStringList>
#include <QVector>

namespace attnscope::ui {

/// Which of a translation's attention matrices to draw (see AttentionViewControls).
struct AttentionView {
  AttentionChoice choice;  // a layer and head, or the model's own matrix
  bool words = false;      // subword models: pieces of a word merged
};

/// What a heatmap shows: one row per target token, one column per source token.
struct AttentionMatrix {
  QString title;  // e.g. the score function
  QStringList sourceTokens;
  QStringList targetTokens;
  QVector<bool> unknownSource;       // per source token
  QVector<QVector<double>> weights;  // [target][source]
  // [target][source]: a gold alignment's possible (not sure) link; empty when there are none
  QVector<QVector<bool>> possibleLinks;
  // Word view of a subword model: the row that shows each decoded step (piece); empty when
  // every step is its own row.
  QVector<int> rowOfStep;
  // Per row: the column a copied word came from (an "<unk>" replaced through attention), or −1;
  // and its note for tooltips (where it was copied from, or why an "<unk>" was kept). Both
  // empty when the translation has no "<unk>".
  QVector<int> copiedFrom;
  QStringList copyNotes;
  // The model has no attention (the `none` baseline): tokens, no weights; views say so.
  bool noAttention = false;
  // The model's unknown-word token ("<unk>"); empty for a matrix not made by a model.
  QString unknownToken;
  // A subword model's view, named in every export: "words" (a word's pieces merged) or
  // "pieces"; empty for a model with one view (a word model) or a file that does not say.
  QString view;

  int rows() const { return static_cast<int>(weights.size()); }
  int columns() const { return static_cast<int>(sourceTokens.size()); }
  bool isEmpty() const { return weights.isEmpty(); }
  bool isPossibleLink(int row, int column) const {
    return row < possibleLinks.size() && column < possibleLinks[row].size() &&
           possibleLinks[row][column];
  }

  /// `name` and the view when there is one, as titles say it: "dot · words".
  QString nameWithView(const QString& name) const {
    return view.isEmpty() ? name : name + QStringLiteral(" · ") + view;
  }

  bool isCopied(int row) const {
    return row >= 0 && row < copiedFrom.size() && copiedFrom[row] >= 0;
  }

  /// The row showing step `step` (−1 stays −1).
  int rowOf(int step) const {
    return step >= 0 && step < rowOfStep.size() ? rowOfStep[step] : step;
  }
  /// The last step a row shows: a click on a word selects the step of its last piece.
  int lastStepOf(int row) const {
    if (rowOfStep.isEmpty()) return row;
    return static_cast<int>(rowOfStep.lastIndexOf(row));
  }

  static AttentionMatrix fromTranslation(const Translation& translation, const QString& title,
                                         const AttentionView& view = {});
  /// A matrix read from a file; the title is the file's own (a JSON export's model), and says
  /// how possible links are drawn when the file has any.
  static AttentionMatrix fromAttentionFile(const AttentionFile& file);
  /// The probe's attention in a training snapshot, token by token (characters for a character
  /// task, with the word-start marker "▁" as the Translation tab's pieces show it), titled
  /// `title`, or when that is empty with its batch and loss ("batch 120 · loss 1.234").
  static AttentionMatrix fromSnapshot(const TrainingSnapshot& snapshot, QString title = {});
  /// a − b cell by cell; both must share their axes and have attention. A row one model shows as
  /// its unknown token matches any word of the other (a word model's "<unk>" where a subword
  /// model spells the word) and is labelled with that word.
  static AttentionMatrix difference(const AttentionMatrix& a, const AttentionMatrix& b);
};

}  // namespace attnscope::ui
