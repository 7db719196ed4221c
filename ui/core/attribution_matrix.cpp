#include "core/attribution_matrix.h"

#include <attnscope/word_view.h>

#include <QObject>
#include <cmath>

namespace attnscope::ui {

QString attributionTitle(const Attribution& a, bool refining) {
  const QString method = QString::fromStdString(attribution_method_title(a.method));
  if (a.method != AttributionMethod::kIntegratedGradients) return method;
  // Relative: comparable across rows and models (the step panel gives a row's absolute gap).
  const QString gap = QString::number(100.0 * a.relative_completeness_gap(), 'f', 1);
  const QString title = QObject::tr("%1 (%2 steps, gap %3%)").arg(method).arg(a.ig_steps).arg(gap);
  const QString target =
      QString::number(100.0 * AttributionOptions::kCompleteWithin, 'g', 3) + QLatin1Char('%');
  if (refining)
    return title + QLatin1Char('\n') + QObject::tr("gap above %1: refining…").arg(target);
  // Refining stopped short of the target: say so, or a large gap looks like the answer.
  if (a.ig_cut_short)
    return title + QLatin1Char('\n') +
           QObject::tr("gap above %1: refining stopped (time limit, or you moved on)").arg(target);
  return title;
}

bool isSignedMethod(AttributionMethod method) { return method != AttributionMethod::kGradient; }

QString noValueReason(AttributionMethod method) {
  if (method == AttributionMethod::kLeaveOneOut)
    return QObject::tr(
        "leave one out removes a word and compares; the appended end token is not a word to "
        "remove (nor is the only word of a one-word sentence)");
  return QObject::tr("the method gives no value here");
}

QString attributionValueName(AttributionMethod method) {
  switch (method) {
    case AttributionMethod::kGradient:
      return QObject::tr("gradient norm");
    // Gradient × input and integrated gradients add up to (about) log p's change: a
    // contribution, unbounded, not a share of it.
    case AttributionMethod::kGradientTimesInput:
    case AttributionMethod::kIntegratedGradients:
      return QObject::tr("contribution to log p");
    case AttributionMethod::kLeaveOneOut:
      return QObject::tr("drop of log p");
  }
  return QObject::tr("attribution");
}

QString completenessText(const Attribution& a, int step) {
  if (a.method != AttributionMethod::kIntegratedGradients || step < 0 ||
      step >= static_cast<int>(a.values.size()) ||
      step >= static_cast<int>(a.log_probabilities.size()) ||
      step >= static_cast<int>(a.baseline_log_probabilities.size()))
    return {};
  double sum = 0.0;
  for (float v : a.values[step])
    if (!std::isnan(v)) sum += v;
  const double logp = a.log_probabilities[step], baseline = a.baseline_log_probabilities[step];
  return QObject::tr("row sum %1 vs log p − baseline log p = %2 − (%3) = %4 (gap %5)")
      .arg(QString::number(sum, 'f', 3), QString::number(logp, 'f', 3),
           QString::number(baseline, 'f', 3), QString::number(logp - baseline, 'f', 3),
           QString::number(std::abs(sum - (logp - baseline)), 'f', 3));
}

AttentionMatrix attributionMatrix(const Attribution& a, int steps, const AttentionView& view,
                                  bool refining) {
  Translation t = a.translation;
  t.attention = a.values;
  t.head_attention.clear();
  t.has_attention = true;  // the `none` baseline has no attention, but has attributions
  // Copies stay marked: attention chose them, but the row is still a word the model did not
  // write, and beside attention both plots should say so alike.
  const auto rows = std::min(t.tokens.size(), t.attention.size());
  const auto kept = steps >= 0 ? std::min(rows, static_cast<size_t>(steps)) : rows;
  t.tokens.resize(kept);
  t.attention.resize(kept);
  if (t.probabilities.size() > kept) t.probabilities.resize(kept);
  AttentionView own = view;
  own.choice = {};  // an attribution is of the output, not of one layer's head
  AttentionMatrix m = AttentionMatrix::fromTranslation(t, attributionTitle(a, refining), own);
  if (!m.view.isEmpty()) {  // on the first line, the method's
    const auto lineEnd = m.title.indexOf(QLatin1Char('\n'));
    m.title.insert(lineEnd < 0 ? m.title.size() : lineEnd, QStringLiteral(" · ") + m.view);
  }
  return m;
}

std::vector<float> attributionRow(const Attribution& a, int step, bool words) {
  if (step < 0 || step >= static_cast<int>(a.values.size())) return {};
  const std::vector<float>& row = a.values[step];
  const Translation& t = a.translation;
  if (!words || t.subword_marker.empty()) return row;
  const std::string token = step < static_cast<int>(t.tokens.size()) ? t.tokens[step] : "";
  return word_view(t.source.tokens, {token}, {row}, t.subword_marker, t.end_token).weights.at(0);
}

}  // namespace attnscope::ui
