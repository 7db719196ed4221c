#include "core/score_text.h"

#include <QSet>
#include <algorithm>

namespace attnscope::ui {

QStringList distinctScoreTexts(const QList<double>& scores, int minDecimals, int maxDecimals) {
  QSet<double> distinctScores(scores.begin(), scores.end());
  QStringList texts;
  for (int decimals = minDecimals; decimals <= std::max(minDecimals, maxDecimals); ++decimals) {
    texts.clear();
    for (double s : scores) texts << QString::number(s, 'f', decimals);
    const QSet<QString> distinctTexts(texts.begin(), texts.end());
    if (distinctTexts.size() == distinctScores.size()) break;
  }
  return texts;
}

}  // namespace attnscope::ui
