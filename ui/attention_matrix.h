#pragma once
#include <attnscope/attention_file.h>
#include <attnscope/translation.h>

#include <QString>
#include <QStringList>
#include <QVector>

namespace attnscope::ui {

/// What a heatmap shows: one row per target token, one column per source token.
struct AttentionMatrix {
  QString title;  // e.g. the score function
  QStringList sourceTokens;
  QStringList targetTokens;
  QVector<bool> unknownSource;       // per source token
  QVector<QVector<double>> weights;  // [target][source]
  // [target][source]: a gold alignment's possible (not sure) link; empty when there are none
  QVector<QVector<bool>> possibleLinks;

  int rows() const { return static_cast<int>(weights.size()); }
  int columns() const { return static_cast<int>(sourceTokens.size()); }
  bool isEmpty() const { return weights.isEmpty(); }
  bool isPossibleLink(int row, int column) const {
    return row < possibleLinks.size() && column < possibleLinks[row].size() &&
           possibleLinks[row][column];
  }

  static AttentionMatrix fromTranslation(const Translation& translation, const QString& title);
  /// A matrix read from a file; the title is the file's own (a JSON export's model), and says
  /// how possible links are drawn when the file has any.
  static AttentionMatrix fromAttentionFile(const AttentionFile& file);
  /// a − b cell by cell; both must share their axes.
  static AttentionMatrix difference(const AttentionMatrix& a, const AttentionMatrix& b);
};

}  // namespace attnscope::ui
