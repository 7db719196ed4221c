#include "core/corpus_pace.h"

#include <QCoreApplication>
#include <QLocale>
#include <algorithm>
#include <cmath>

namespace attnscope::ui {
namespace {
QString paceTr(const char* text) { return QCoreApplication::translate("CorpusPace", text); }
}  // namespace

int CorpusPace::faithfulnessUnits() const {
  return static_cast<int>(
      std::clamp(std::lround(faithfulnessSeconds / std::max(decodeSeconds, 1e-6)), 1L, 100000L));
}

double CorpusPace::runSeconds(int sentences, int models, bool faithfulness) const {
  return static_cast<double>(sentences) * models *
         (decodeSeconds + (faithfulness ? faithfulnessSeconds : 0.0));
}

CorpusPace CorpusPace::measured(bool faithfulness, double seconds) const {
  CorpusPace pace = *this;
  if (!(seconds > 0.0) || !std::isfinite(seconds)) return pace;
  (faithfulness ? pace.faithfulnessSeconds : pace.decodeSeconds) = seconds;
  return pace;
}

QString durationText(double seconds) {
  if (!(seconds >= 60.0)) return paceTr("under a minute");
  const long minutes = std::lround(seconds / 60.0);
  if (minutes < 60) return paceTr("about %1 min").arg(minutes);
  return paceTr("about %1 h %2 min").arg(minutes / 60).arg(minutes % 60);
}

QString runSizeText(qint64 sentences, qint64 models) {
  return paceTr("%1 × %2").arg(
      sentences == 1 ? paceTr("1 sentence")
                     : paceTr("%1 sentences").arg(QLocale().toString(sentences)),
      models == 1 ? paceTr("1 model") : paceTr("%1 models").arg(QLocale().toString(models)));
}

}  // namespace attnscope::ui
