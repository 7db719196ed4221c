// QtTest (offscreen) of the Train tab on the real window: the reverse task trained with small
// settings while the heatmap, timeline and curves follow; pause, resume, stop; the model saved
// and opened in the Translation tab; the event loop's latency throughout; bad corpus files and
// bad settings named; the window closed while training.
#include "tabs/train_view.h"

#include <attnscope/trainer.h>
#include <attnscope/training_tasks.h>
#include <attnscope/translator.h>

#include <QAbstractButton>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <memory>

#include "engine/test_models.h"
#include "plots/heatmap_plot.h"
#include "plots/training_curves.h"
#include "tabs/snapshot_view.h"
#include "time_scale.h"
#include "ui/fixture.h"
#include "widgets/train_settings.h"
#include "window/main_window.h"
#include "workers/train_worker.h"

using namespace attnscope::ui;

namespace {

// How late a 10 ms timer fires at worst: the longest the GUI thread was kept from its events.
class LatencyProbe : public QObject {
 public:
  LatencyProbe() {
    timer_.setTimerType(Qt::PreciseTimer);
    timer_.setInterval(kInterval);
    connect(&timer_, &QTimer::timeout, this, [this] {
      const qint64 now = clock_.elapsed();
      if (now - last_ - kInterval > worst_) {
        worst_ = now - last_ - kInterval;
        worstAt_ = now;
      }
      last_ = now;
    });
  }
  void start() {
    worst_ = 0;
    clock_.start();
    last_ = 0;
    timer_.start();
  }
  void stop() { timer_.stop(); }
  qint64 worst() const { return worst_; }
  qint64 worstAt() const { return worstAt_; }  // ms after start()

 private:
  static constexpr qint64 kInterval = 10;
  QTimer timer_;
  QElapsedTimer clock_;
  qint64 last_ = 0;
  qint64 worst_ = 0;
  qint64 worstAt_ = 0;
};

}  // namespace

class TrainViewTest : public test::WindowTest {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void init();
  void cleanup();
  void tasksFillTheirDefaults();
  void snapshotTokensAreShownReadably();
  void trainsPausesResumesStopsSavesAndOpens();
  void trainsOnAParallelCorpusWithBleuPerEpoch();
  void badCorpusFilesGiveAMessageNamingThem();
  void workerNamesTheBadSetting();
  void closingWhileTrainingStopsCleanly();

 private:
  // A new window, on the Train tab.
  bool openWindow();
  // Small settings: the reverse task trains hundreds of batches a second.
  void chooseSmallReverse(TrainSettings* settings);
  QString writeFile(const QString& name, const QByteArray& bytes);
  // Closes the window's message box and returns its text ("" when there is none).
  QString takeMessage();

  QTemporaryDir dir_;
  TrainView* view_ = nullptr;
};

void TrainViewTest::initTestCase() {
  QVERIFY(dir_.isValid());
  // One small model for the Translation tab, so the window is ready at once.
  QVERIFY(setUpModels({"additive"}));
}

bool TrainViewTest::openWindow() {
  UI_VERIFY(showWindow(QString(), QSize(1280, 800)));
  view_ = window_->trainView();
  UI_VERIFY(view_);
  window_->tabs()->setCurrentWidget(view_);
  return true;
}

void TrainViewTest::init() { QVERIFY(openWindow()); }

void TrainViewTest::cleanup() {
  closeWindow();
  view_ = nullptr;
}

void TrainViewTest::chooseSmallReverse(TrainSettings* settings) {
  settings->setTask("reverse");
  settings->examplesBox()->setValue(4000);
  settings->epochsBox()->setValue(50);  // more than the test waits for: it stops the run
  settings->batchSizeBox()->setValue(32);
  settings->embeddingBox()->setValue(32);
  settings->hiddenBox()->setValue(64);
  settings->snapshotEveryBox()->setValue(2);
}

QString TrainViewTest::writeFile(const QString& name, const QByteArray& bytes) {
  const QString path = dir_.filePath(name);
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return {};
  file.write(bytes);
  return path;
}

QString TrainViewTest::takeMessage() {
  QMessageBox* box = nullptr;
  if (!QTest::qWaitFor([&] { return (box = window_->findChild<QMessageBox*>()) != nullptr; },
                       60000))
    return {};
  const QString text = box->text();
  box->close();  // deletes itself (WA_DeleteOnClose)
  const bool closed =
      QTest::qWaitFor([&] { return window_->findChild<QMessageBox*>() == nullptr; }, 5000);
  return closed ? text : QString();
}

void TrainViewTest::tasksFillTheirDefaults() {
  TrainSettings* settings = view_->settings();
  QCOMPARE(settings->taskBox()->count(), static_cast<int>(attnscope::training_tasks().size()) + 1);
  for (const attnscope::TaskSpec& spec : attnscope::training_tasks()) {
    settings->setTask(QString::fromStdString(spec.name));
    QCOMPARE(settings->task(), QString::fromStdString(spec.name));
    QCOMPARE(settings->taskBox()->currentData(Qt::ToolTipRole).toString(),
             QString::fromStdString(spec.description));
    QCOMPARE(settings->epochsBox()->value(), spec.epochs);
    QCOMPARE(settings->batchSizeBox()->value(), spec.batch_size);
    QCOMPARE(settings->embeddingBox()->value(), spec.embedding);
    QCOMPARE(settings->hiddenBox()->value(), spec.hidden);
    QCOMPARE(settings->examplesBox()->value(), spec.train_examples);
    QVERIFY(qAbs(settings->learningRateBox()->value() - spec.learning_rate) < 1e-9);
    QVERIFY(settings->isComplete());
    QVERIFY(view_->startButton()->isEnabled());
    const attnscope::TrainOptions options = settings->options("model.attnmodel");
    QCOMPARE(options.task, spec.name);
    QCOMPARE(options.model.score, std::string("additive"));  // the default score function
    QCOMPARE(options.model.dropout, spec.dropout);           // not shown, but the task's
    QCOMPARE(options.task_examples, spec.train_examples);
  }
  // A corpus: TrainOptions' defaults, and no Start without its four files.
  settings->setTask(QString());
  settings->setCorpusFiles({});
  const attnscope::TrainOptions defaults;
  QCOMPARE(settings->epochsBox()->value(), defaults.epochs);
  QCOMPARE(settings->hiddenBox()->value(), static_cast<int>(defaults.model.hidden));
  QVERIFY(settings->examplesBox()->isHidden());
  QVERIFY(!settings->isComplete());
  QVERIFY(!view_->startButton()->isEnabled());
  settings->setCorpusFiles({"a.en", "a.de", "v.en", "v.de"});
  QVERIFY(view_->startButton()->isEnabled());
  QCOMPARE(settings->options("m").validation_target_path, std::string("v.de"));
  QVERIFY(settings->options("m").task.empty());
  // The language pair comes from the file names, as train --src-lang/--tgt-lang's defaults.
  QCOMPARE(settings->options("m").model.target_language, std::string("de"));
  settings->setCorpusFiles({"train.en.gz", "train.fr.gz", "v.en", "v.fr"});
  QCOMPARE(settings->options("m").model.source_language, std::string("en"));
  QCOMPARE(settings->options("m").model.target_language, std::string("fr"));
  // The decoder: the plain GRU by default, the conditional GRU when chosen.
  QCOMPARE(settings->options("m").model.decoder, std::string(attnscope::kGruDecoder));
  settings->decoderBox()->setCurrentIndex(
      settings->decoderBox()->findData(QString(attnscope::kConditionalGruDecoder)));
  QCOMPARE(settings->options("m").model.decoder, std::string(attnscope::kConditionalGruDecoder));
}

void TrainViewTest::snapshotTokensAreShownReadably() {
  attnscope::TrainingSnapshot s;
  s.source = {"\u2581a", "b", "\u2581c", "\u2581", "</s>"};
  s.output = {"\u2581c", "\u2581b", "a", "</s>"};
  s.subword_marker = "\u2581";
  s.attention.assign(4, std::vector<float>(5, 0.2f));
  const AttentionMatrix m = AttentionMatrix::fromSnapshot(s, "t");
  // As the Translation tab's pieces view shows them: the model's own tokens, marks included.
  QCOMPARE(m.sourceTokens, QStringList({"\u2581a", "b", "\u2581c", "\u2581", "</s>"}));
  QCOMPARE(m.targetTokens, QStringList({"\u2581c", "\u2581b", "a", "</s>"}));
  QCOMPARE(m.rows(), 4);
  QVERIFY(!m.noAttention);
  s.attention.clear();  // the baseline without attention
  QVERIFY(AttentionMatrix::fromSnapshot(s, "t").noAttention);
}

void TrainViewTest::trainsPausesResumesStopsSavesAndOpens() {
  TrainSettings* settings = view_->settings();
  chooseSmallReverse(settings);
  QVERIFY(view_->startButton()->isEnabled());
  QVERIFY(!view_->pauseButton()->isEnabled() && !view_->resumeButton()->isEnabled());
  QVERIFY(!view_->stopButton()->isEnabled() && !view_->saveButton()->isEnabled());

  LatencyProbe latency;
  latency.start();
  QSignalSpy progress(view_, &TrainView::progressed);
  QTest::mouseClick(view_->startButton(), Qt::LeftButton);
  QVERIFY(view_->isRunning());
  QVERIFY(!settings->isEnabled());
  QVERIFY(!view_->startButton()->isEnabled() && view_->pauseButton()->isEnabled());
  QVERIFY(!view_->resumeButton()->isEnabled() && view_->stopButton()->isEnabled());
  QVERIFY(!view_->saveButton()->isEnabled() && !view_->openButton()->isEnabled());
  QVERIFY(!view_->exportTimelineButton()->isEnabled());

  // Snapshots arrive: the heatmap shows the newest, the timeline grows and follows it.
  SnapshotView* snapshots = view_->snapshotView();
  QSlider* timeline = snapshots->timeline();
  QTRY_VERIFY_WITH_TIMEOUT(view_->snapshots().size() >= 3 && snapshots->shownIndex() >= 0, 60000);
  const AttentionMatrix& shown = snapshots->heatmap()->matrix();
  QVERIFY(shown.rows() > 0);
  QCOMPARE(shown.targetTokens.size(), shown.rows());
  // The task's probe, a word a column, and the end token.
  QStringList probe = QString::fromStdString(attnscope::training_task("reverse").probe).split(' ');
  QCOMPARE(shown.sourceTokens, probe << "</s>");
  QVERIFY(test::rowsSumToOne(shown, 1e-3));
  QCOMPARE(timeline->maximum(), static_cast<int>(view_->snapshots().size()) - 1);
  QCOMPARE(timeline->value(), timeline->maximum());
  QVERIFY(progress.count() > 0);
  QVERIFY(view_->progressBar()->value() > 0);

  // Redraws are coalesced: at most five a second however many snapshots arrive.
  const int redrawsBefore = snapshots->redraws();
  const size_t snapshotsBefore = view_->snapshots().size();
  QElapsedTimer clock;
  clock.start();
  QTest::qWait(2000);
  const int redraws = snapshots->redraws() - redrawsBefore;
  const auto added = static_cast<int>(view_->snapshots().size() - snapshotsBefore);
  qInfo("%d snapshots and %d heatmap redraws in %lld ms", added, redraws, clock.elapsed());
  QVERIFY(redraws > 0);
  QVERIFY2(redraws <= clock.elapsed() / 200 + 2, qPrintable(QString::number(redraws)));

  // Moved back, the timeline stays put while snapshots arrive; at the end again, it follows.
  timeline->setValue(0);
  QTRY_COMPARE(snapshots->shownIndex(), 0);
  const int maximum = timeline->maximum();
  QTRY_VERIFY_WITH_TIMEOUT(timeline->maximum() > maximum + 1, 30000);
  QCOMPARE(timeline->value(), 0);
  QCOMPARE(snapshots->shownIndex(), 0);
  timeline->setValue(timeline->maximum());
  const int followed = timeline->maximum();
  QTRY_VERIFY_WITH_TIMEOUT(timeline->maximum() > followed, 30000);
  QCOMPARE(timeline->value(), timeline->maximum());

  // Pause: once it has taken effect, nothing arrives.
  QSignalSpy paused(view_, &TrainView::pausedChanged);
  QTest::mouseClick(view_->pauseButton(), Qt::LeftButton);
  QVERIFY(!view_->pauseButton()->isEnabled() && view_->resumeButton()->isEnabled());
  QVERIFY(paused.wait(30000));
  QCOMPARE(paused.last().first().toBool(), true);
  QVERIFY(view_->isPaused());
  progress.clear();
  const size_t pausedSnapshots = view_->snapshots().size();
  QTest::qWait(1000);
  QCOMPARE(progress.count(), 0);
  QCOMPARE(view_->snapshots().size(), pausedSnapshots);

  // Resume: progress continues.
  QTest::mouseClick(view_->resumeButton(), Qt::LeftButton);
  QVERIFY(!view_->isPaused());
  QVERIFY(view_->pauseButton()->isEnabled() && !view_->resumeButton()->isEnabled());
  QTRY_VERIFY_WITH_TIMEOUT(progress.count() > 0, 30000);
  QTRY_VERIFY_WITH_TIMEOUT(view_->snapshots().size() > pausedSnapshots, 30000);
  // The time left says whose it is: the epoch's, and at most the run's.
  QTRY_VERIFY_WITH_TIMEOUT(view_->statusLabel()->text().contains("epoch: "), 30000);
  QVERIFY2(view_->statusLabel()->text().contains(QString::fromUtf8("left · run: ≤ ")),
           qPrintable(view_->statusLabel()->text()));

  // Stop: the epoch so far is validated and the model kept.
  QSignalSpy ended(view_, &TrainView::runEnded);
  QTest::mouseClick(view_->stopButton(), Qt::LeftButton);
  QVERIFY(!view_->stopButton()->isEnabled());
  QVERIFY(ended.wait(120000));
  latency.stop();
  qInfo("event loop latency while training: worst %lld ms late (10 ms timer), %lld ms after Start",
        latency.worst(), latency.worstAt());
  // The target (< 100 ms) is the real build's; sanitizer builds run everything several times
  // slower and say by how much (build.sh sanitize).
  const double scale = attnscope::testing::time_scale();
  QVERIFY2(latency.worst() < 100 * std::max(1.0, scale),
           qPrintable(QString::number(latency.worst())));
  QVERIFY(!view_->isRunning());
  QVERIFY(settings->isEnabled() && view_->startButton()->isEnabled());
  QVERIFY(!view_->pauseButton()->isEnabled() && !view_->stopButton()->isEnabled());
  QVERIFY(view_->saveButton()->isEnabled() && view_->openButton()->isEnabled());
  QVERIFY(view_->exportTimelineButton()->isEnabled());
  QVERIFY(window_->findChild<QMessageBox*>() == nullptr);

  // The curves hold the training loss and the stopped epoch's validation.
  TrainingCurves* curves = view_->curves();
  QVERIFY(curves->trainingLoss()->dataCount() > 3);
  QVERIFY(curves->validationLoss()->dataCount() >= 1);
  QVERIFY(curves->figure()->dataCount() >= 1);
  const double accuracy = curves->figure()->data()->at(0)->value;
  QVERIFY(accuracy >= 0 && accuracy <= 100);
  // One unbroken line through the epochs (a gap at each epoch's start read as a broken curve).
  for (auto it = curves->trainingLoss()->data()->constBegin();
       it != curves->trainingLoss()->data()->constEnd(); ++it)
    QVERIFY(std::isfinite(it->value) && it->value > 0);
  // Nothing covers the curves: the legend sits below the plots, and a figure of 0 is drawn above
  // its axis, not on it.
  QVERIFY(curves->legend->layout() == curves->plotLayout());
  QVERIFY(curves->legend->outerRect().top() >= curves->axisRect()->outerRect().bottom());
  QVERIFY(curves->figureRect()->axis(QCPAxis::atLeft)->range().lower < 0);
  // The training curve says what it is (its jump at each epoch's start then needs no question).
  QVERIFY(curves->trainingLoss()->name().contains("epoch"));

  // Save: the file is the model, and it translates.
  const QString saved = dir_.filePath("saved/reverse.attnmodel");
  QVERIFY(QDir().mkpath(dir_.filePath("saved")));
  view_->saveModel(saved);
  QVERIFY(QFile::exists(saved));
  QCOMPARE(QFileInfo(saved).size(), QFileInfo(view_->modelPath()).size());
  attnscope::Translator translator(saved.toStdString());
  const attnscope::Translation t = translator.translate(attnscope::training_task("reverse").probe);
  QVERIFY(!t.tokens.empty());
  // The model the run wrote, copied: its translation token for token.
  QCOMPARE(t.tokens, attnscope::Translator(view_->modelPath().toStdString())
                         .translate(attnscope::training_task("reverse").probe)
                         .tokens);
  QCOMPARE(t.attention.size(), t.tokens.size());
  for (const auto& row : t.attention) QCOMPARE(row.size(), t.source.tokens.size());
  const QString unwritable = dir_.filePath("no-such-folder/x.attnmodel");
  try {
    view_->saveModel(unwritable);
    QFAIL("saving into a missing folder did not throw");
  } catch (const std::runtime_error& e) {
    QVERIFY2(QString(e.what()).contains(unwritable), e.what());
  }

  // Export timeline: the recorded snapshots as an animation and as small multiples.
  const QString gif = dir_.filePath("saved/reverse.gif"), png = dir_.filePath("saved/reverse.png");
  view_->exportTimeline(gif);
  view_->exportTimeline(png);
  QFile gifFile(gif), pngFile(png);
  QVERIFY(gifFile.open(QIODevice::ReadOnly) && pngFile.open(QIODevice::ReadOnly));
  QCOMPARE(gifFile.read(6), QByteArray("GIF89a"));
  QCOMPARE(pngFile.read(8), QByteArray("\x89PNG\r\n\x1a\n", 8));

  // Open in the Translation tab: listed, selected, shown.
  QSignalSpy opened(window_.get(), &MainWindow::modelOpened);
  QTest::mouseClick(view_->openButton(), Qt::LeftButton);
  QCOMPARE(window_->tabs()->currentIndex(), 0);
  QVERIFY(opened.wait(30000));
  // The saved copy, named as saved (Model info then gives its path, not the temporary one).
  const QString key = opened.first().first().toString();
  QCOMPARE(key, QStringLiteral("reverse"));
  QCOMPARE(window_->modelBox()->currentText(), key);
}

void TrainViewTest::trainsOnAParallelCorpusWithBleuPerEpoch() {
  QByteArray source, target;
  const QList<QByteArray> words = {"a", "b", "c", "d", "e", "f"};
  for (int i = 0; i < 60; ++i) {
    QList<QByteArray> line;
    for (int w = 0; w < 3 + i % 4; ++w) line << words[(i + w * 5) % words.size()];
    source += line.join(' ') + '\n';
    target += line.join(' ').toUpper() + '\n';
  }
  TrainSettings* settings = view_->settings();
  settings->setTask(QString());
  settings->setCorpusFiles({writeFile("train.en", source), writeFile("train.de", target),
                            writeFile("valid.en", source.left(source.indexOf("\n", 40) + 1)),
                            writeFile("valid.de", target.left(target.indexOf("\n", 40) + 1))});
  settings->epochsBox()->setValue(2);
  settings->batchSizeBox()->setValue(16);
  settings->embeddingBox()->setValue(16);
  settings->hiddenBox()->setValue(32);
  settings->snapshotEveryBox()->setValue(1);
  QSignalSpy ended(view_, &TrainView::runEnded);
  QTest::mouseClick(view_->startButton(), Qt::LeftButton);
  QVERIFY(ended.wait(120000));
  QVERIFY2(window_->findChild<QMessageBox*>() == nullptr, qPrintable(view_->statusLabel()->text()));
  // The probe is the first validation sentence; BLEU per epoch, not exact matches.
  QVERIFY(!view_->snapshots().empty());
  const attnscope::TrainingSnapshot& last = view_->snapshots().back();
  QCOMPARE(last.source.back(), std::string("</s>"));
  QStringList firstLine = QString::fromUtf8(source.left(source.indexOf('\n'))).split(' ');
  QCOMPARE(test::qStrings(last.source), firstLine << "</s>");
  QCOMPARE(last.attention.size(), last.output.size());
  QCOMPARE(view_->curves()->figure()->dataCount(), 2);
  QStringList titles;
  for (const QCPTextElement* title : view_->curves()->findChildren<QCPTextElement*>())
    titles << title->text();
  QVERIFY2(titles.contains("Validation BLEU"), qPrintable(titles.join(", ")));
  QVERIFY(QFileInfo(view_->modelPath()).isFile());
  QVERIFY(view_->statusLabel()->text().contains("2 of 2 epochs"));
}

void TrainViewTest::badCorpusFilesGiveAMessageNamingThem() {
  TrainSettings* settings = view_->settings();
  settings->setTask(QString());
  settings->epochsBox()->setValue(1);
  QByteArray lines;
  for (int i = 0; i < 40; ++i) lines += "a b c d e\n";
  const QString good = writeFile("good.txt", lines);
  const QString missing = dir_.filePath("missing.txt");
  const QString notUtf8 = writeFile("latin1.txt", QByteArray(lines).replace("c", "\xe9\xe8"));
  const QString shorter = writeFile("short.txt", "a b\n");
  const QList<QStringList> cases = {
      {missing, good, good, good}, {good, good, good, notUtf8}, {good, shorter, good, good}};
  const QStringList named = {missing, notUtf8, shorter};
  for (int i = 0; i < cases.size(); ++i) {
    settings->setCorpusFiles(cases[i]);
    QSignalSpy ended(view_, &TrainView::runEnded);
    QTest::mouseClick(view_->startButton(), Qt::LeftButton);
    const QString message = takeMessage();
    QVERIFY2(message.contains(named[i]) && !message.contains('\n'), qPrintable(message));
    QTRY_VERIFY_WITH_TIMEOUT(!ended.isEmpty(), 30000);
    QVERIFY(!view_->isRunning());
    QVERIFY(view_->startButton()->isEnabled() && settings->isEnabled());
    QVERIFY(!view_->saveButton()->isEnabled());
  }
}

void TrainViewTest::workerNamesTheBadSetting() {
  QThread thread;
  auto* worker = new TrainWorker;
  worker->moveToThread(&thread);
  connect(&thread, &QThread::finished, worker, &QObject::deleteLater);
  thread.start();
  QSignalSpy failed(worker, &TrainWorker::failed);
  attnscope::TrainOptions options =
      attnscope::task_options("reverse", dir_.filePath("bad.attnmodel").toStdString());
  options.epochs = 0;
  worker->start(options);
  // The worker thread may fail before wait() starts, and wait() only counts later signals.
  QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 30000);
  QCOMPARE(failed.first().at(1).toString(), QString("epochs"));
  const QString message = failed.first().at(0).toString();
  QVERIFY2(!message.isEmpty() && !message.contains('\n'), qPrintable(message));
  thread.quit();
  thread.wait();
}

void TrainViewTest::closingWhileTrainingStopsCleanly() {
  for (const bool pause : {false, true}) {
    chooseSmallReverse(view_->settings());
    view_->settings()->examplesBox()->setValue(20000);  // so that it is still running
    QSignalSpy progress(view_, &TrainView::progressed);
    view_->start();
    QTRY_VERIFY_WITH_TIMEOUT(progress.count() > 2, 60000);
    if (pause) {
      QSignalSpy paused(view_, &TrainView::pausedChanged);
      view_->pause();
      QVERIFY(paused.wait(30000));
    }
    QVERIFY(view_->isRunning());
    QElapsedTimer clock;
    clock.start();
    // Closing asks before the run is lost (train_corpus_usability_test.cpp): discard it.
    QTimer discard;
    connect(&discard, &QTimer::timeout, this, [] {
      if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget()))
        for (QAbstractButton* button : box->buttons())
          if (box->buttonRole(button) == QMessageBox::DestructiveRole) button->click();
    });
    discard.start(20);
    QVERIFY(window_->close());
    window_.reset();  // joins the training thread
    qInfo("closed while %s: %lld ms", pause ? "paused" : "training", clock.elapsed());
    QVERIFY(clock.elapsed() < 30000);
    QVERIFY(openWindow());
  }
}

QTEST_MAIN(TrainViewTest)
#include "train_view_test.moc"
