#include "core/what_if_text.h"

#include <QObject>
#include <QRegularExpression>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "core/token_text.h"

namespace attnscope::ui {

QVector<WordChange> wordDiff(const QStringList& original, const QStringList& edited) {
  const auto n = original.size(), m = edited.size();
  // lcs[i][j]: the longest common subsequence of original[i:] and edited[j:].
  std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
  for (auto i = n - 1; i >= 0; --i)
    for (auto j = m - 1; j >= 0; --j)
      lcs[i][j] =
          original[i] == edited[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  using Kind = WordChange::Kind;
  QVector<WordChange> diff;
  qsizetype i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && original[i] == edited[j]) {
      diff.push_back({Kind::kSame, edited[j]});
      ++i;
      ++j;
    } else if (j == m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1])) {
      diff.push_back({Kind::kDropped, original[i++]});  // before what replaces it
    } else {
      diff.push_back({Kind::kAdded, edited[j++]});
    }
  }
  return diff;
}

QStringList translationWords(const Translation& t) {
  QStringList words;
  for (const std::string& word : t.words()) words << QString::fromStdString(word);
  return words;
}

QString whatIfHtml(const QVector<WordChange>& diff) {
  QStringList html;
  for (const WordChange& change : diff) {
    const QString word = change.word.toHtmlEscaped();
    switch (change.kind) {
      case WordChange::Kind::kSame:
        html << word;
        break;
      case WordChange::Kind::kAdded:
        html
            << QStringLiteral("<b style='color:%1'>%2</b>").arg(QLatin1String(kEditedColour), word);
        break;
      case WordChange::Kind::kDropped:
        html << QStringLiteral("<s style='color:gray'>%1</s>").arg(word);
        break;
    }
  }
  return html.join(QLatin1Char(' '));
}

QString whatIfHtml(const Translation& original, const Translation& edited) {
  return whatIfHtml(wordDiff(translationWords(original), translationWords(edited)));
}

WordDiffCounts wordDiffCounts(const Translation& original, const Translation& edited) {
  WordDiffCounts counts;
  for (const WordChange& change : wordDiff(translationWords(original), translationWords(edited))) {
    if (change.kind == WordChange::Kind::kAdded) ++counts.added;
    if (change.kind == WordChange::Kind::kDropped) ++counts.dropped;
  }
  return counts;
}

QString whatIfLegend(const WordDiffCounts& counts) {
  if (counts.same()) return QObject::tr("the same translation: the edit changed no word");
  QStringList parts;
  if (counts.added > 0)
    parts << (counts.added == 1
                  ? QObject::tr("1 word in <b style='color:%1'>bold red</b> is new")
                  : QObject::tr("%1 words in <b style='color:%2'>bold red</b> are new")
                        .arg(counts.added))
                 .arg(QLatin1String(kEditedColour));
  if (counts.dropped > 0)
    parts << (counts.dropped == 1
                  ? QObject::tr("1 word of the model's own is dropped (<s>struck through</s>)")
                  : QObject::tr("%1 words of the model's own are dropped (<s>struck through</s>)")
                        .arg(counts.dropped));
  return parts.join(QStringLiteral(", "));
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

std::vector<float> parseTypedWeights(const QString& text, int step, int count, QString* error) {
  error->clear();
  const QStringList parts =
      text.split(QRegularExpression(QStringLiteral("[\\s,;]+")), Qt::SkipEmptyParts);
  if (parts.isEmpty()) {
    *error = QObject::tr("type %1 weights, one per bar").arg(count);
    return {};
  }
  // The command line's spelling, so the engine's parser applies its rules (and its messages).
  const std::string spec =
      std::to_string(step + 1) + ":weights=" + parts.join(QLatin1Char(',')).toStdString();
  try {
    AttentionEdit edit = parse_attention_edit(spec);
    edit.apply(std::vector<float>(static_cast<size_t>(std::max(count, 0)), 1.0f));
    return edit.weights;
  } catch (const std::invalid_argument& e) {
    *error = QString::fromStdString(e.what()).section(QLatin1Char('\n'), 0, 0);
    return {};
  }
}

QString typedWeightsText(const std::vector<float>& row) {
  const bool finite =
      std::all_of(row.begin(), row.end(), [](float w) { return std::isfinite(w) && w >= 0.0f; });
  QStringList parts;
  for (float w : row)
    parts << QString::number(finite ? w : 1.0 / static_cast<double>(row.size()), 'g', 3);
  return parts.join(QLatin1Char(' '));
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
