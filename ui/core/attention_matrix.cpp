#include "core/attention_matrix.h"

#include <attnscope/word_view.h>

#include <QObject>
#include <algorithm>
#include <stdexcept>

#include "core/copied_words.h"

namespace attnscope::ui {

namespace {

// Marks the rows of copied words and the columns they were copied from, and notes why a kept
// "<unk>" stayed; `sourceGroups`: the source pieces of each column in word view, empty when
// every column is one token.
void markCopies(AttentionMatrix& m, const Translation& t,
                const std::vector<std::vector<int>>& sourceGroups) {
  if (t.copied.empty() && t.kept_unknown.empty()) return;
  m.copiedFrom.fill(-1, m.rows());
  for (int r = 0; r < m.rows(); ++r) m.copyNotes << QString();
  for (const KeptUnknown& kept : t.kept_unknown) {
    const int row = m.rowOf(kept.target);
    if (row >= 0 && row < m.rows()) m.copyNotes[row] = keptNote(t, kept);
  }
  for (const CopiedWord& copy : t.copied) {
    const int row = m.rowOf(copy.target);
    if (row < 0 || row >= m.rows()) continue;
    int column = copy.source;
    for (size_t w = 0; w < sourceGroups.size(); ++w)
      if (std::find(sourceGroups[w].begin(), sourceGroups[w].end(), copy.source) !=
          sourceGroups[w].end())
        column = static_cast<int>(w);
    m.copiedFrom[row] = column;
    m.copyNotes[row] = copyNote(t, copy);
  }
}

}  // namespace

AttentionMatrix AttentionMatrix::fromTranslation(const Translation& translation,
                                                 const QString& title, const AttentionView& view) {
  AttentionMatrix m;
  m.title = title;
  m.noAttention = !translation.has_attention;
  m.unknownToken = QString::fromStdString(translation.unknown_token);
  const std::vector<std::vector<float>> rows = translation.attention_for(view.choice);
  if (!translation.subword_marker.empty())
    m.view = view.words ? QStringLiteral("words") : QStringLiteral("pieces");
  if (!view.words || translation.subword_marker.empty()) {
    for (const auto& token : translation.source.tokens)
      m.sourceTokens << QString::fromStdString(token);
    for (bool unknown : translation.source.unknown) m.unknownSource << unknown;
    for (const auto& token : translation.tokens) m.targetTokens << QString::fromStdString(token);
    for (const auto& row : rows) m.weights << QVector<double>(row.begin(), row.end());
    markCopies(m, translation, {});
    return m;
  }
  const WordView words = word_view(translation.source.tokens, translation.tokens, rows,
                                   translation.subword_marker, translation.end_token);
  for (size_t w = 0; w < words.source_words.size(); ++w) {
    m.sourceTokens << QString::fromStdString(words.source_words[w]);
    bool unknown = false;  // a word is unknown when any of its pieces is
    for (int piece : words.source_groups[w])
      unknown = unknown || translation.source.unknown.at(static_cast<size_t>(piece));
    m.unknownSource << unknown;
  }
  for (const auto& word : words.target_words) m.targetTokens << QString::fromStdString(word);
  for (const auto& row : words.weights) m.weights << QVector<double>(row.begin(), row.end());
  m.rowOfStep.resize(static_cast<int>(translation.tokens.size()));
  for (size_t w = 0; w < words.target_groups.size(); ++w)
    for (int piece : words.target_groups[w]) m.rowOfStep[piece] = static_cast<int>(w);
  markCopies(m, translation, words.source_groups);
  return m;
}

AttentionMatrix AttentionMatrix::fromAttentionFile(const AttentionFile& file) {
  AttentionMatrix m;
  m.title = QString::fromStdString(file.title);
  m.view = QString::fromStdString(file.view);
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

AttentionMatrix AttentionMatrix::fromSnapshot(const TrainingSnapshot& snapshot, QString title) {
  AttentionMatrix m;
  m.title =
      title.isEmpty()
          ? QObject::tr("batch %1 · loss %2").arg(snapshot.batch).arg(snapshot.loss, 0, 'f', 3)
          : title;
  m.noAttention = snapshot.attention.empty();
  // The tokens as the model reads and writes them, word-start marks included: as the
  // Translation tab's pieces view draws the same model.
  for (const auto& token : snapshot.source) m.sourceTokens << QString::fromStdString(token);
  m.unknownSource.fill(false, m.sourceTokens.size());
  for (const auto& token : snapshot.output) m.targetTokens << QString::fromStdString(token);
  for (const auto& row : snapshot.attention) m.weights << QVector<double>(row.begin(), row.end());
  return m;
}

AttentionMatrix AttentionMatrix::difference(const AttentionMatrix& a, const AttentionMatrix& b) {
  auto isUnknown = [](const AttentionMatrix& m, const QString& token) {
    return !m.unknownToken.isEmpty() && token == m.unknownToken;
  };
  bool sameRows = a.targetTokens.size() == b.targetTokens.size();
  for (int r = 0; sameRows && r < a.targetTokens.size(); ++r)
    sameRows = a.targetTokens[r] == b.targetTokens[r] || isUnknown(a, a.targetTokens[r]) ||
               isUnknown(b, b.targetTokens[r]);
  if (a.sourceTokens != b.sourceTokens || !sameRows)
    throw std::invalid_argument("a difference needs two heatmaps with the same tokens");
  if (a.noAttention || b.noAttention || a.rows() != b.rows())
    throw std::invalid_argument("a difference needs the attention of both heatmaps");
  AttentionMatrix d = a;
  for (int r = 0; r < d.targetTokens.size(); ++r)
    if (isUnknown(a, a.targetTokens[r])) d.targetTokens[r] = b.targetTokens[r];
  d.title = a.title + QString::fromUtf8(" − ") + b.title;
  d.copiedFrom.clear();  // a's copies say nothing about the difference of two attentions
  d.copyNotes.clear();
  for (int r = 0; r < d.rows(); ++r)
    for (int c = 0; c < d.columns(); ++c) d.weights[r][c] = a.weights[r][c] - b.weights[r][c];
  return d;
}

}  // namespace attnscope::ui
