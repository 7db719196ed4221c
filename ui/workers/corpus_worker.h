#pragma once
// The Corpus tab's engine work on a thread of its own, so that a long run neither freezes the
// window nor holds up the Translation tab's worker (engine_worker.h). It loads its own copy of
// each model; results come back as signals carrying plain data.
#include <attnscope/translator.h>

#include <QHash>
#include <QObject>
#include <QString>
#include <QStringList>
#include <atomic>
#include <memory>

#include "core/corpus_pace.h"
#include "core/corpus_report.h"

namespace attnscope::ui {

struct CorpusRequest {
  QStringList models;  // as the app lists them
  QStringList paths;   // each model's file
  QString sourcePath;
  QString referencePath;  // empty: no BLEU
  // The target side of the training corpus: source words left in the output are counted
  // against it (source_leak.h). Empty: not measured.
  QString trainingTargetPath;
  // Also measure whether attention explains the output (faithfulness.h): seconds a sentence.
  bool faithfulness = false;
  CorpusPace pace;  // weighs progress: a sentence's faithfulness tests as the decoding they cost
};

class CorpusWorker : public QObject {
  Q_OBJECT
 public:
  explicit CorpusWorker(QObject* parent = nullptr);

  // Called from the GUI thread: a new run's number; cancel() stops the running one after its
  // current batch of sentences.
  quint64 nextGeneration() { return ++latest_; }
  void cancel() { ++latest_; }

  /// On the worker thread: reads the files, evaluates every model, then finished(), or
  /// failed() with a one-line message naming the file or model, or cancelled().
  void run(quint64 generation, const attnscope::ui::CorpusRequest& request);

 Q_SIGNALS:
  /// `done` of `total` work units (a decoded sentence is one, a sentence's faithfulness tests
  /// CorpusPace::faithfulnessUnits()), and what is being done in words ("additive: 120 of
  /// 1,000 translations", "additive: faithfulness, 12 of 1,000 sentences").
  void progress(quint64 generation, qint64 done, qint64 total, const QString& doing);
  /// One model's decoding (or faithfulness tests) finished over `sentences` sentences in
  /// `seconds`: this computer's pace, for the next run's estimate.
  void paceMeasured(quint64 generation, bool faithfulness, double seconds, int sentences);
  /// A model finished before the last: `report` holds the models done so far, to be shown while
  /// the run goes on.
  void evaluated(quint64 generation, const attnscope::ui::CorpusReport& report);
  void finished(quint64 generation, const attnscope::ui::CorpusReport& report);
  void failed(quint64 generation, const QString& message);
  void cancelled(quint64 generation);

 private:
  bool obsolete(quint64 generation) const { return generation < latest_.load(); }
  const Translator& translator(const QString& path);

  std::atomic<quint64> latest_{0};
  QHash<QString, std::shared_ptr<Translator>> translators_;  // by model file
};

}  // namespace attnscope::ui

Q_DECLARE_METATYPE(attnscope::ui::CorpusRequest)
Q_DECLARE_METATYPE(attnscope::ui::CorpusReport)
