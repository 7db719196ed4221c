#include "core/what_if_text.h"

#include <QObject>
#include <algorithm>
#include <vector>

#include "core/token_text.h"

namespace attnscope::ui {

QVector<bool> changedWords(const QStringList& original, const QStringList& edited) {
  const auto n = original.size(), m = edited.size();
  // lcs[i][j]: the longest common subsequence of original[i:] and edited[j:].
  std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
  for (auto i = n - 1; i >= 0; --i)
    for (auto j = m - 1; j >= 0; --j)
      lcs[i][j] =
          original[i] == edited[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  QVector<bool> changed(m, true);
  qsizetype i = 0, j = 0;
  while (i < n && j < m) {
    if (original[i] == edited[j]) {
      changed[j] = false;
      ++i;
      ++j;
    } else if (lcs[i + 1][j] >= lcs[i][j + 1]) {
      ++i;
    } else {
      ++j;
    }
  }
  return changed;
}

QStringList translationWords(const Translation& t) {
  QStringList words;
  for (const std::string& word : t.words()) words << QString::fromStdString(word);
  return words;
}

QString whatIfHtml(const Translation& original, const Translation& edited) {
  const QStringList words = translationWords(edited);
  const QVector<bool> changed = changedWords(translationWords(original), words);
  QStringList html;
  for (qsizetype i = 0; i < words.size(); ++i)
    html << (changed[i] ? QStringLiteral("<b style='color:%1'>%2</b>")
                              .arg(QLatin1String(kEditedColour), words[i].toHtmlEscaped())
                        : words[i].toHtmlEscaped());
  return html.join(QLatin1Char(' '));
}

int changedWordCount(const Translation& original, const Translation& edited) {
  const QVector<bool> changed = changedWords(translationWords(original), translationWords(edited));
  return static_cast<int>(std::count(changed.begin(), changed.end(), true));
}

std::vector<float> withWeight(const std::vector<float>& row, int index, double weight) {
  if (index < 0 || index >= static_cast<int>(row.size())) return row;
  weight = std::clamp(weight, 0.0, 1.0);
  double others = 0.0;
  for (int i = 0; i < static_cast<int>(row.size()); ++i)
    if (i != index) others += row[i];
  const auto count = static_cast<double>(row.size() - 1);
  std::vector<float> out(row.size());
  for (int i = 0; i < static_cast<int>(row.size()); ++i) {
    if (i == index)
      out[i] = static_cast<float>(row.size() == 1 ? 1.0 : weight);
    else
      out[i] = static_cast<float>(others > 0.0 ? row[i] / others * (1.0 - weight)
                                               : (1.0 - weight) / count);
  }
  return out;
}

QString editDescription(const AttentionEdit& edit, const QStringList& sourceTokens) {
  const QString step = edit.step == AttentionEdit::kEveryStep
                           ? QObject::tr("every step")
                           : QObject::tr("step %1").arg(edit.step + 1);
  const auto token = [&](int position) {
    return position >= 0 && position < sourceTokens.size()
               ? QStringLiteral("'%1'").arg(readableToken(sourceTokens[position], position == 0))
               : QObject::tr("word %1").arg(position + 1);
  };
  switch (edit.kind) {
    case AttentionEdit::Kind::kUniform:
      return QObject::tr("%1: uniform").arg(step);
    case AttentionEdit::Kind::kShuffle:
      return QObject::tr("%1: shuffled").arg(step);
    case AttentionEdit::Kind::kOneHot:
      return QObject::tr("%1: all on %2")
          .arg(step, edit.positions.empty() ? QString() : token(edit.positions.front()));
    case AttentionEdit::Kind::kZero: {
      QStringList words;
      for (int p : edit.positions) words << token(p);
      return QObject::tr("%1: zero %2").arg(step, words.join(QStringLiteral(", ")));
    }
    case AttentionEdit::Kind::kWeights:
      break;
  }
  // Weights as given, before the engine renormalises them: name the heaviest word.
  double total = 0.0;
  int heaviest = -1;
  for (int i = 0; i < static_cast<int>(edit.weights.size()); ++i) {
    if (!(edit.weights[i] >= 0.0f)) return QObject::tr("%1: weights set").arg(step);
    total += edit.weights[i];
    if (heaviest < 0 || edit.weights[i] > edit.weights[heaviest]) heaviest = i;
  }
  if (heaviest < 0 || total <= 0.0) return QObject::tr("%1: weights set").arg(step);
  return QObject::tr("%1: weights set, most on %2 (%3)")
      .arg(step, token(heaviest), QString::number(edit.weights[heaviest] / total, 'f', 2));
}

}  // namespace attnscope::ui
