#pragma once
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

  int rows() const { return static_cast<int>(weights.size()); }
  int columns() const { return static_cast<int>(sourceTokens.size()); }
  bool isEmpty() const { return weights.isEmpty(); }

  static AttentionMatrix fromTranslation(const Translation& translation, const QString& title);
  /// a − b cell by cell; both must share their axes.
  static AttentionMatrix difference(const AttentionMatrix& a, const AttentionMatrix& b);
};

}  // namespace attnscope::ui
