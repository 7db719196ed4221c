#include "workers/corpus_worker.h"

#include <attnscope/corpus.h>
#include <attnscope/thread_settings.h>

#include <QElapsedTimer>
#include <QLocale>
#include <stdexcept>

namespace attnscope::ui {
namespace {
constexpr int kCorpusThreads = 0;  // every core
}  // namespace

CorpusWorker::CorpusWorker(QObject* parent) : QObject(parent) {
  qRegisterMetaType<attnscope::ui::CorpusRequest>();
  qRegisterMetaType<attnscope::ui::CorpusReport>();
}

const Translator& CorpusWorker::translator(const QString& path) {
  if (auto it = translators_.find(path); it != translators_.end()) return **it;
  auto loaded = std::make_shared<Translator>(path.toStdString());
  translators_.insert(path, loaded);
  return *loaded;
}

void CorpusWorker::run(quint64 generation, const CorpusRequest& request) {
  // Every core, on this thread only: the Translation tab's worker keeps its one. The corpus
  // is decoded batch by batch, a batch on each core at once (evaluate_corpus), so a core kept
  // busy by another process slows one batch, not every step of all of them (as OpenMP threads
  // waiting for each other did: `eval` of one model took 10.0 s before, 2.4 s now, with a
  // second process keeping one of two cores busy).
  set_thread_count(kCorpusThreads);
  if (obsolete(generation)) {
    Q_EMIT cancelled(generation);
    return;
  }
  try {
    CorpusReport report;
    report.sourcePath = request.sourcePath;
    report.referencePath = request.referencePath;
    report.trainingTargetPath = request.trainingTargetPath;
    TargetLexicon lexicon;
    if (report.hasLeak()) {
      const std::string path = request.trainingTargetPath.toStdString();
      lexicon = TargetLexicon::from_file(path);
      if (lexicon.empty())
        throw std::invalid_argument("training target '" + path + "' holds no words");
    }
    report.models = request.models;
    const std::string source = request.sourcePath.toStdString();
    std::vector<std::string> references;
    if (report.hasReferences()) {
      LinePairs pairs = read_line_pairs(source, request.referencePath.toStdString());
      report.sources = std::move(pairs.first);
      references = std::move(pairs.second);
      report.references = references;
    } else {
      report.sources = read_utf8_lines(source);
    }
    if (report.sources.empty()) throw std::invalid_argument("'" + source + "' has no sentences");
    const int sentences = static_cast<int>(report.sources.size());
    // Each model's sentences are decoded, then (with faithfulness) measured once more, which
    // costs many times the decoding: progress counts both in units of a decoded sentence.
    const qint64 faithfulnessUnits = request.faithfulness ? request.pace.faithfulnessUnits() : 0;
    const qint64 perModel = sentences * (1 + faithfulnessUnits);
    const qint64 total = perModel * request.models.size();
    const QString count = QLocale().toString(sentences);
    for (int m = 0; m < request.models.size(); ++m) {
      const QString& model = request.models[m];
      const qint64 before = m * perModel;
      const auto decoding = [&](size_t done) {
        Q_EMIT progress(generation, before + static_cast<qint64>(done), total,
                        tr("%1: %2 of %3 translations")
                            .arg(model, QLocale().toString(static_cast<qint64>(done)), count));
      };
      decoding(0);
      CorpusEvaluation e;
      ModelFaithfulness f;
      try {
        const Translator& t = translator(request.paths.value(m));
        QElapsedTimer clock;
        clock.start();
        e = evaluate_corpus(
            t, report.sources, references, TranslationOptions{},
            [&](size_t done, size_t) {
              decoding(done);
              return !obsolete(generation);
            },
            &lexicon);
        if (!e.cancelled)
          Q_EMIT paceMeasured(generation, false, clock.elapsed() / 1000.0, sentences);
        if (!e.cancelled && request.faithfulness) {
          const auto measuring = [&](size_t done) {
            Q_EMIT progress(generation,
                            before + sentences + static_cast<qint64>(done) * faithfulnessUnits,
                            total,
                            tr("%1: faithfulness, %2 of %3 sentences")
                                .arg(model, QLocale().toString(static_cast<qint64>(done)), count));
          };
          measuring(0);
          clock.restart();
          f = evaluate_faithfulness(t, report.sources, FaithfulnessOptions{},
                                    [&](size_t done, size_t) {
                                      measuring(done);
                                      return !obsolete(generation);
                                    });
          if (!f.cancelled && t.info().has_attention)  // `none` has nothing to test: no pace
            Q_EMIT paceMeasured(generation, true, clock.elapsed() / 1000.0, sentences);
        }
      } catch (const std::exception& error) {
        throw std::runtime_error("model '" + model.toStdString() + "': " + error.what());
      }
      if (e.cancelled || f.cancelled) {
        Q_EMIT cancelled(generation);
        return;
      }
      report.evaluations.push_back(std::move(e));
      if (request.faithfulness) report.faithfulness.push_back(std::move(f));
      if (m + 1 < request.models.size()) Q_EMIT evaluated(generation, report);
    }
    Q_EMIT finished(generation, report);
  } catch (const std::exception& e) {
    Q_EMIT failed(generation, QString::fromStdString(e.what()));
  }
}

}  // namespace attnscope::ui
