#pragma once
// What a corpus run of the Corpus tab produced, and its tables as files: one row per model and
// sentence as CSV, or everything per model as JSON (the shape of `attnscope-cli eval --json`,
// with the sentences added).
#include <attnscope/corpus_evaluation.h>
#include <attnscope/faithfulness.h>

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <optional>
#include <string>
#include <vector>

namespace attnscope::ui {

struct CorpusReport {
  QString sourcePath;
  QString referencePath;       // empty: the run had no reference, so no BLEU
  QString trainingTargetPath;  // empty: the run did not count source words left in the output
  std::vector<std::string> sources;
  std::vector<std::string> references;        // one per source line; empty without a reference
  QStringList models;                         // as the app lists them
  std::vector<CorpusEvaluation> evaluations;  // one per model, translations kept; while a run
                                              // goes on, the models finished so far
  // One per evaluation when the run measured whether attention explains (slow); else empty.
  std::vector<ModelFaithfulness> faithfulness;

  bool hasReferences() const { return !referencePath.isEmpty(); }
  bool hasLeak() const { return !trainingTargetPath.isEmpty(); }
  bool hasFaithfulness() const { return !faithfulness.empty(); }
  bool isEmpty() const { return evaluations.empty(); }
};

/// The figures of one sentence that a run may lack: BLEU+1 without a reference, entropy and the
/// </s> sink without attention (or without steps; the sink also without a step before the last).
/// Every view of a report (the sentence table, CSV, JSON) shows them from here.
struct SentenceFigures {
  std::optional<double> bleu, entropy, sink;
};
SentenceFigures sentenceFigures(const CorpusReport& report, const CorpusEvaluation& evaluation,
                                const SentenceEvaluation& sentence);

/// One row per model and sentence: model, line, words, BLEU+1, mean log-probability, entropy,
/// </s> sink, unknown and copied words, source, translation, reference. Cells a run has no
/// figure for (BLEU and the reference without a reference, attention figures of a model without
/// attention) are empty.
QByteArray corpusToCsv(const CorpusReport& report);
/// {"source", "reference", "models": [{model, bleu, by_length, metrics, faithfulness, sentences:
/// [...]}]}, each sentence with its reference; null where a figure is missing, as in the CSV
/// (faithfulness: null when the run did not measure it, its figures null where the model has
/// none, and why in "unavailable").
QByteArray corpusToJson(const CorpusReport& report);

}  // namespace attnscope::ui
