#include "attention_matrix.h"

#include <QObject>
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

AttentionMatrix AttentionMatrix::fromAttentionFile(const AttentionFile& file) {
  AttentionMatrix m;
  m.title = QString::fromStdString(file.title);
  if (file.has_possible_links()) {
    const QString legend = QObject::tr("sure links 1, possible links %1").arg(kPossibleLinkWeight);
    m.title = m.title.isEmpty() ? legend : m.title + QStringLiteral(" · ") + legend;
  }
  for (const auto& token : file.source_tokens) m.sourceTokens << QString::fromStdString(token);
  for (bool unknown : file.unknown_source) m.unknownSource << unknown;
  for (const auto& token : file.target_tokens) m.targetTokens << QString::fromStdString(token);
  for (const auto& row : file.weights) m.weights << QVector<double>(row.begin(), row.end());
  for (const auto& row : file.possible) m.possibleLinks << QVector<bool>(row.begin(), row.end());
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
