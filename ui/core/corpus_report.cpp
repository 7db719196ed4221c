#include "core/corpus_report.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <cmath>

#include "core/export_file.h"

namespace attnscope::ui {
namespace {

QString number(double value) { return QString::number(value, 'g', 6); }

QString csvNumber(const std::optional<double>& v) { return v ? number(*v) : QString(); }

QJsonValue orNull(const std::optional<double>& v) { return v ? QJsonValue(*v) : QJsonValue(); }

std::optional<QString> referenceOf(const CorpusReport& report, size_t line) {
  if (!report.hasReferences() || line >= report.references.size()) return std::nullopt;
  return QString::fromStdString(report.references[line]);
}

QJsonValue orNull(double v) { return std::isnan(v) ? QJsonValue() : QJsonValue(v); }

QJsonValue faithfulnessJson(const ModelFaithfulness& f) {
  QJsonObject unavailable;
  for (const auto& [name, why] :
       {std::pair{"tau_ig", &f.ig.unavailable}, std::pair{"tau_loo", &f.loo.unavailable},
        std::pair{"permuted", &f.permuted.unavailable},
        std::pair{"uniform", &f.uniform.unavailable}})
    if (!why->empty()) unavailable.insert(QLatin1String(name), QString::fromStdString(*why));
  return QJsonObject{{"sentences", static_cast<qint64>(f.sentences)},
                     {"steps", static_cast<qint64>(f.steps)},
                     {"permutations", f.permutations},
                     {"ig_steps", f.ig_steps},
                     {"tau_ig", orNull(f.ig.mean_tau())},
                     {"tau_ig_steps", static_cast<qint64>(f.ig.steps)},
                     {"tau_loo", orNull(f.loo.mean_tau())},
                     {"tau_loo_steps", static_cast<qint64>(f.loo.steps)},
                     {"tvd_permuted", orNull(f.permuted.mean_tvd())},
                     {"tvd_uniform", orNull(f.uniform.mean_tvd())},
                     {"argmax_changed_permuted", orNull(f.permuted.argmax_changed_share())},
                     {"argmax_changed_uniform", orNull(f.uniform.argmax_changed_share())},
                     {"unavailable", unavailable}};
}

}  // namespace

SentenceFigures sentenceFigures(const CorpusReport& report, const CorpusEvaluation& e,
                                const SentenceEvaluation& s) {
  SentenceFigures f;
  if (report.hasReferences()) f.bleu = s.bleu;
  if (e.has_attention && s.attention.steps > 0) {
    f.entropy = s.attention.mean_entropy();
    if (s.attention.sink_steps > 0) f.sink = s.attention.mean_end_sink();
  }
  return f;
}

QByteArray corpusToCsv(const CorpusReport& report) {
  QString out = QStringLiteral(
      "model,line,words,bleu,mean_log_probability,entropy,eos_sink,unknown,copied,leaked,source,"
      "translation,reference\n");
  for (size_t m = 0; m < report.evaluations.size(); ++m) {
    const CorpusEvaluation& e = report.evaluations[m];
    for (size_t i = 0; i < e.sentences.size(); ++i) {
      const SentenceEvaluation& s = e.sentences[i];
      const SentenceFigures f = sentenceFigures(report, e, s);
      const QString translation =
          i < e.translations.size() ? QString::fromStdString(e.translations[i].text()) : QString();
      out += QStringList{csvField(report.models.value(static_cast<int>(m))),
                         QString::number(i + 1),
                         QString::number(s.source_words),
                         csvNumber(f.bleu),
                         number(s.mean_log_probability),
                         csvNumber(f.entropy),
                         csvNumber(f.sink),
                         QString::number(s.unknown),
                         QString::number(s.copied),
                         report.hasLeak() ? QString::number(s.leaked) : QString(),
                         csvField(QString::fromStdString(report.sources.at(i))),
                         csvField(translation),
                         csvField(referenceOf(report, i).value_or(QString()))}
                 .join(QLatin1Char(','));
      out += QLatin1Char('\n');
    }
  }
  return out.toUtf8();
}

namespace {
// Source words left in the output, as eval --json gives them.
QJsonObject leakJson(const LeakShare& leak) {
  return {{"percent", leak.percent()},
          {"leaked_words", static_cast<qint64>(leak.leaked_words)},
          {"output_words", static_cast<qint64>(leak.output_words)},
          {"sentences_with_leak", static_cast<qint64>(leak.sentences_with_leak)}};
}
}  // namespace

QByteArray corpusToJson(const CorpusReport& report) {
  QJsonArray models;
  for (size_t m = 0; m < report.evaluations.size(); ++m) {
    const CorpusEvaluation& e = report.evaluations[m];
    QJsonArray byLength;
    for (size_t b = 0; b < e.bleu_by_length.size(); ++b)
      byLength.append(QJsonObject{{"words", QString::fromStdString(length_buckets()[b].label())},
                                  {"sentences", static_cast<qint64>(e.sentences_by_length[b])},
                                  {"bleu", report.hasReferences() && e.sentences_by_length[b] > 0
                                               ? QJsonValue(e.bleu_by_length[b].bleu)
                                               : QJsonValue()}});
    const AttentionMetrics& a = e.attention;
    const QJsonValue metrics =
        e.has_attention ? QJsonValue(QJsonObject{{"entropy", a.mean_entropy()},
                                                 {"eos_sink", a.mean_end_sink()},
                                                 {"diagonality", a.mean_diagonality()},
                                                 {"coverage_spread", a.mean_coverage_spread()}})
                        : QJsonValue();
    QJsonArray sentences;
    for (size_t i = 0; i < e.sentences.size(); ++i) {
      const SentenceEvaluation& s = e.sentences[i];
      const SentenceFigures f = sentenceFigures(report, e, s);
      sentences.append(QJsonObject{
          {"line", static_cast<qint64>(i + 1)},
          {"words", static_cast<qint64>(s.source_words)},
          {"bleu", orNull(f.bleu)},
          {"mean_log_probability", s.mean_log_probability},
          {"entropy", orNull(f.entropy)},
          {"eos_sink", orNull(f.sink)},
          {"unknown", static_cast<qint64>(s.unknown)},
          {"copied", static_cast<qint64>(s.copied)},
          {"leaked", report.hasLeak() ? QJsonValue(static_cast<qint64>(s.leaked)) : QJsonValue()},
          {"source", QString::fromStdString(report.sources.at(i))},
          {"translation", i < e.translations.size()
                              ? QString::fromStdString(e.translations[i].text())
                              : QString()},
          {"reference",
           referenceOf(report, i) ? QJsonValue(*referenceOf(report, i)) : QJsonValue()}});
    }
    models.append(QJsonObject{
        {"model", report.models.value(static_cast<int>(m))},
        {"bleu", report.hasReferences() ? QJsonValue(e.bleu.bleu) : QJsonValue()},
        {"sentences_with_unk", static_cast<qint64>(e.unknown_words == UnknownWords::kCopy
                                                       ? e.copy.sentences_with_unknown
                                                       : e.keep.sentences_with_unknown)},
        {"leak", report.hasLeak()
                     ? leakJson(e.unknown_words == UnknownWords::kCopy ? e.copy.leak : e.keep.leak)
                     : QJsonValue()},
        {"by_length", byLength},
        {"metrics", metrics},
        {"faithfulness",
         m < report.faithfulness.size() ? faithfulnessJson(report.faithfulness[m]) : QJsonValue()},
        {"sentences", sentences}});
  }
  const QJsonObject root{
      {"source", report.sourcePath},
      {"reference", report.hasReferences() ? QJsonValue(report.referencePath) : QJsonValue()},
      {"training_target", report.hasLeak() ? QJsonValue(report.trainingTargetPath) : QJsonValue()},
      {"search", "greedy"},  // the Corpus tab's, whatever the toolbar says
      {"models", models}};
  return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

}  // namespace attnscope::ui
