// QtTest (offscreen): each worker decodes with a thread count of its own, read on its thread
// while it works: the Translation tab's engine worker one thread, the Corpus tab's worker every
// core. A run in the Train tab changes neither, for workers already running nor for workers
// started after it, and the training thread trains with the count its options give.
#include <attnscope/thread_settings.h>
#include <attnscope/trainer.h>

#include <QFile>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>
#include <memory>
#include <mutex>
#include <set>

#include "engine/test_models.h"
#include "tabs/train_view.h"
#include "widgets/train_settings.h"
#include "workers/corpus_worker.h"
#include "workers/engine_worker.h"
#include "workers/train_worker.h"

using namespace attnscope::ui;

namespace {

// The thread counts seen on a worker's thread while it worked (in its signals, connected
// directly, so they run there).
class SeenCounts {
 public:
  void record() {
    const std::lock_guard<std::mutex> lock(mutex_);
    counts_.insert(attnscope::thread_count());
  }
  // Sorted, once each (QList, so that QCOMPARE prints them).
  QList<int> counts() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return QList<int>(counts_.begin(), counts_.end());
  }

 private:
  mutable std::mutex mutex_;
  std::set<int> counts_;
};

// A worker on a QThread of its own, as the window and the tabs run theirs.
template <typename Worker>
class Running {
 public:
  Running() {
    worker = new Worker;
    worker->moveToThread(&thread_);
    QObject::connect(&thread_, &QThread::finished, worker, &QObject::deleteLater);
    thread_.start();
  }
  ~Running() {
    thread_.quit();
    thread_.wait();
  }
  Worker* worker = nullptr;

 private:
  QThread thread_;
};

const QString kModel = QStringLiteral("additive");

}  // namespace

class WorkerThreadsTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void eachWorkerDecodesWithItsOwnThreadCount();
  void trainTabRunLeavesDecodingThreadsUnchanged();
  void trainingThreadUsesTheOptionsCountAndGetsItsOwnBack();

 private:
  // The counts the engine worker decodes a sentence with (the Translation tab's session).
  QList<int> decodingCounts(EngineWorker* worker);
  // The counts the corpus worker evaluates a test set with.
  QList<int> corpusCounts(CorpusWorker* worker);
  // Trains the reverse task for one short epoch in a Train tab.
  void trainInTrainTab();

  QTemporaryDir dir_;
  QString modelPath_, sourcePath_;
  quint64 session_ = 0;
};

void WorkerThreadsTest::initTestCase() {
  QVERIFY(dir_.isValid());
  QStandardPaths::setTestModeEnabled(true);
  modelPath_ = QString::fromStdString(attnscope::testing::random_model_file("additive"));
  sourcePath_ = dir_.filePath(QStringLiteral("test.src"));
  QFile source(sourcePath_);
  QVERIFY(source.open(QIODevice::WriteOnly));
  for (int i = 0; i < 40; ++i) source.write("a b c d e f g\nj i h g\nb b c\n");
}

QList<int> WorkerThreadsTest::decodingCounts(EngineWorker* worker) {
  SeenCounts seen;
  QObject::connect(
      worker, &EngineWorker::sessionChanged, worker, [&seen] { seen.record(); },
      Qt::DirectConnection);
  QSignalSpy shown(worker, &EngineWorker::sessionChanged);
  QSignalSpy errors(worker, &EngineWorker::errorOccurred);
  SessionRequest request;
  request.session = ++session_;
  request.modelKey = kModel;
  request.sentence = QStringLiteral("a b c d e f g h");
  const quint64 generation = worker->nextGeneration();
  QMetaObject::invokeMethod(
      worker,
      [worker, path = modelPath_, generation, request] {
        worker->registerModel(kModel, path);
        worker->showSession(generation, request);
      },
      Qt::QueuedConnection);
  // Not shown.wait(): the worker may have answered before the wait began.
  if (!QTest::qWaitFor([&] { return !shown.isEmpty() || !errors.isEmpty(); }, 30000) ||
      !errors.isEmpty())
    qWarning() << "no session shown:" << errors;
  return shown.isEmpty() ? QList<int>{} : seen.counts();
}

QList<int> WorkerThreadsTest::corpusCounts(CorpusWorker* worker) {
  SeenCounts seen;
  QObject::connect(
      worker, &CorpusWorker::progress, worker, [&seen] { seen.record(); }, Qt::DirectConnection);
  QSignalSpy finished(worker, &CorpusWorker::finished);
  QSignalSpy failed(worker, &CorpusWorker::failed);
  CorpusRequest request;
  request.models = QStringList{kModel};
  request.paths = QStringList{modelPath_};
  request.sourcePath = sourcePath_;
  const quint64 generation = worker->nextGeneration();
  QMetaObject::invokeMethod(
      worker, [worker, generation, request] { worker->run(generation, request); },
      Qt::QueuedConnection);
  if (!QTest::qWaitFor([&] { return !finished.isEmpty() || !failed.isEmpty(); }, 60000) ||
      !failed.isEmpty())
    qWarning() << "the corpus run did not finish:" << failed;
  return finished.isEmpty() ? QList<int>{} : seen.counts();
}

void WorkerThreadsTest::trainInTrainTab() {
  TrainView view;
  TrainSettings* settings = view.settings();
  settings->setTask(QStringLiteral("reverse"));
  settings->examplesBox()->setValue(640);
  settings->epochsBox()->setValue(1);
  settings->batchSizeBox()->setValue(32);
  settings->embeddingBox()->setValue(16);
  settings->hiddenBox()->setValue(32);
  QSignalSpy ended(&view, &TrainView::runEnded);
  view.start();
  QVERIFY(view.isRunning());
  QVERIFY(ended.wait(120000));
  QVERIFY2(!view.modelPath().isEmpty(), "the run wrote no model");
}

void WorkerThreadsTest::eachWorkerDecodesWithItsOwnThreadCount() {
  const int cores = attnscope::resolve_thread_count(0);
  Running<EngineWorker> engine;
  Running<CorpusWorker> corpus;
  // One sentence at a time is memory-bound: one thread (see engine_worker.cpp).
  QCOMPARE(decodingCounts(engine.worker), QList<int>{1});
  // Batches of sentences: every core.
  QCOMPARE(corpusCounts(corpus.worker), QList<int>{cores});
  QCOMPARE(decodingCounts(engine.worker), QList<int>{1});  // unchanged by the corpus run
}

void WorkerThreadsTest::trainTabRunLeavesDecodingThreadsUnchanged() {
  auto engine = std::make_unique<Running<EngineWorker>>();
  auto corpus = std::make_unique<Running<CorpusWorker>>();
  const QList<int> decoding = decodingCounts(engine->worker);
  const QList<int> evaluating = corpusCounts(corpus->worker);
  QCOMPARE(decoding.size(), qsizetype(1));
  QCOMPARE(evaluating.size(), qsizetype(1));

  trainInTrainTab();
  if (QTest::currentTestFailed()) return;

  // The workers that ran before the training, and new ones (a tab's thread that first decodes
  // after it): as before.
  QCOMPARE(decodingCounts(engine->worker), decoding);
  QCOMPARE(corpusCounts(corpus->worker), evaluating);
  engine = std::make_unique<Running<EngineWorker>>();
  corpus = std::make_unique<Running<CorpusWorker>>();
  QCOMPARE(decodingCounts(engine->worker), decoding);
  QCOMPARE(corpusCounts(corpus->worker), evaluating);
  // And what they should be.
  QCOMPARE(decoding, QList<int>{1});
  QCOMPARE(evaluating, QList<int>{attnscope::resolve_thread_count(0)});
}

void WorkerThreadsTest::trainingThreadUsesTheOptionsCountAndGetsItsOwnBack() {
  for (const int threads : {2, 1}) {
    Running<TrainWorker> training;
    const auto countOnThread = [&] {
      int count = -1;
      QMetaObject::invokeMethod(
          training.worker, [&count] { count = attnscope::thread_count(); },
          Qt::BlockingQueuedConnection);
      return count;
    };
    const int before = countOnThread();
    SeenCounts seen;
    QObject::connect(
        training.worker, &TrainWorker::progress, training.worker, [&seen] { seen.record(); },
        Qt::DirectConnection);
    QObject::connect(
        training.worker, &TrainWorker::epochDone, training.worker, [&seen] { seen.record(); },
        Qt::DirectConnection);
    QSignalSpy finished(training.worker, &TrainWorker::finished);
    QSignalSpy failed(training.worker, &TrainWorker::failed);
    attnscope::TrainOptions options = attnscope::task_options(
        "reverse",
        dir_.filePath(QStringLiteral("threads-%1.attnmodel").arg(threads)).toStdString());
    options.task_examples = 640;
    options.epochs = 1;
    options.model.embedding = 16;
    options.model.hidden = options.model.attention = 32;
    options.threads = threads;
    training.worker->start(options);
    QVERIFY(QTest::qWaitFor([&] { return !finished.isEmpty() || !failed.isEmpty(); }, 120000));
    QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).toString()));
    QCOMPARE(seen.counts(), QList<int>{threads});
    QCOMPARE(countOnThread(), before);
  }
}

QTEST_MAIN(WorkerThreadsTest)
#include "worker_threads_test.moc"
