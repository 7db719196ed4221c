#include "core/score_text.h"

#include <QSet>

namespace attnscope::ui {

namespace {
QStringList textsOf(const QList<double>& scores, int decimals) {
  QStringList texts;
  for (double s : scores) texts << QString::number(s, 'f', decimals);
  return texts;
}
}  // namespace

int distinctDecimals(const QList<double>& scores, int minDecimals, int maxDecimals) {
  const QSet<double> distinctScores(scores.begin(), scores.end());
  int decimals = minDecimals;
  for (; decimals < maxDecimals; ++decimals) {
    const QStringList texts = textsOf(scores, decimals);
    if (QSet<QString>(texts.begin(), texts.end()).size() == distinctScores.size()) break;
  }
  return decimals;
}

QStringList distinctScoreTexts(const QList<double>& scores, int minDecimals, int maxDecimals) {
  return textsOf(scores, distinctDecimals(scores, minDecimals, maxDecimals));
}

}  // namespace attnscope::ui
