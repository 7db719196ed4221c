#include "attention_matrix.h"

#include <stdexcept>

namespace attnscope::ui {

AttentionMatrix AttentionMatrix::fromTranslation(const Translation& translation,
                                                 const QString& title) {
  AttentionMatrix m;
  m.title = title;
  for (const auto& token : translation.source.tokens)
    m.sourceTokens << QString::fromStdString(token);
  for (bool unknown : translation.source.unknown) m.unknownSource << unknown;
  for (const auto& token : translation.tokens) m.targetTokens << QString::fromStdString(token);
  for (const auto& row : translation.attention)
    m.weights << QVector<double>(row.begin(), row.end());
  return m;
}

AttentionMatrix AttentionMatrix::difference(const AttentionMatrix& a, const AttentionMatrix& b) {
  if (a.sourceTokens != b.sourceTokens || a.targetTokens != b.targetTokens)
    throw std::invalid_argument("a difference needs two heatmaps with the same tokens");
  AttentionMatrix d = a;
  d.title = a.title + QString::fromUtf8(" − ") + b.title;
  for (int r = 0; r < d.rows(); ++r)
    for (int c = 0; c < d.columns(); ++c) d.weights[r][c] = a.weights[r][c] - b.weights[r][c];
  return d;
}

}  // namespace attnscope::ui
