// The step-wise session logic without widgets: a DecodingController over a real EngineWorker on
// its own thread and an untrained test model, so stepping is deterministic and checkable against
// the engine's own greedy search.
#include "workers/decoding_controller.h"

#include <attnscope/translator.h>

#include <QSignalSpy>
#include <QThread>
#include <QtTest>

#include "engine/test_models.h"
#include "workers/engine_worker.h"

using namespace attnscope::ui;

namespace {
const QString kModel = QStringLiteral("additive");
// 19 words + </s>: the test models read 20 tokens, so up to 2 × 20 + 10 = 50 steps.
const QString kLong = QStringLiteral("a b c d e f g h i j a b c d e f g h i");
}  // namespace

class DecodingControllerTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void init();
  void cleanup();
  void goesToExactSteps();
  void rapidRequestsAllTakeEffect();
  void stepBackBeforeTheEndIsKnown();
  void forcedTokenDecodesOnAndIsReplayed();
  void rewindShowsNoStep();
  void playStopsAtTheEndAndStartsOverFromThere();
  void newerSentenceSupersedesOlder();
  void clearEndsTheSession();
  void failedRequestIsNotBusyForever();

 private:
  // Waits until the newest request is answered.
  bool settle();
  int shown() const { return static_cast<int>(controller_->snapshot()->steps.size()); }
  QStringList shownTokens() const;

  std::string path_;
  attnscope::Translation greedy_;  // kLong, decoded by the engine directly
  QThread thread_;
  EngineWorker* worker_ = nullptr;
  std::unique_ptr<DecodingController> controller_;
};

void DecodingControllerTest::initTestCase() {
  path_ = attnscope::testing::random_model_file(kModel.toStdString());
  greedy_ = attnscope::Translator(path_).translate(kLong.toStdString());
  // The tests step past 30; a shorter greedy output would make them prove less.
  QVERIFY2(greedy_.tokens.size() > 35, qPrintable(QString::number(greedy_.tokens.size())));
}

void DecodingControllerTest::init() {
  worker_ = new EngineWorker;
  worker_->moveToThread(&thread_);
  thread_.start();
  QMetaObject::invokeMethod(
      worker_,
      [w = worker_, path = QString::fromStdString(path_)] { w->registerModel(kModel, path); },
      Qt::QueuedConnection);
  controller_ = std::make_unique<DecodingController>(worker_);
}

void DecodingControllerTest::cleanup() {
  controller_.reset();
  thread_.quit();
  thread_.wait();
  delete worker_;  // its thread has stopped
}

bool DecodingControllerTest::settle() {
  return QTest::qWaitFor([&] { return !controller_->busy(); }, 20000);
}

QStringList DecodingControllerTest::shownTokens() const {
  QStringList tokens;
  for (const auto& step : controller_->snapshot()->steps)
    tokens << QString::fromStdString(step.token);
  return tokens;
}

static QStringList firstTokens(const attnscope::Translation& t, int n) {
  QStringList tokens;
  for (int i = 0; i < n && i < static_cast<int>(t.tokens.size()); ++i)
    tokens << QString::fromStdString(t.tokens[i]);
  return tokens;
}

void DecodingControllerTest::goesToExactSteps() {
  const int full = static_cast<int>(greedy_.tokens.size());
  controller_->start(kModel, kLong, 0);
  QVERIFY(settle());
  QCOMPARE(shown(), 0);
  QVERIFY(!controller_->snapshot()->finished);
  QCOMPARE(controller_->shownRow(), -1);
  controller_->goToStep(7);
  QVERIFY(settle());
  QCOMPARE(shown(), 7);
  QCOMPARE(shownTokens(), firstTokens(greedy_, 7));
  controller_->stepForward();
  QVERIFY(settle());
  QCOMPARE(shown(), 8);
  QCOMPARE(controller_->shownRow(), 7);
  controller_->stepBack();
  QVERIFY(settle());
  QCOMPARE(shown(), 7);
  controller_->goToStep(1000);  // past the end: the whole sentence
  QVERIFY(settle());
  QCOMPARE(shown(), full);
  QVERIFY(controller_->snapshot()->finished);
  QCOMPARE(controller_->targetStep(), full);
  QCOMPARE(shownTokens(), firstTokens(greedy_, full));
  controller_->stepForward();  // at the end: nothing to ask for
  QVERIFY(!controller_->busy());
  QCOMPARE(controller_->targetStep(), full);
}

void DecodingControllerTest::rapidRequestsAllTakeEffect() {
  controller_->start(kModel, kLong, 0);
  QVERIFY(settle());
  // No event is processed between the calls: each one must count although none was answered.
  for (int i = 0; i < 30; ++i) controller_->stepForward();
  QCOMPARE(controller_->targetStep(), 30);
  for (int i = 0; i < 4; ++i) controller_->stepBack();
  QCOMPARE(controller_->targetStep(), 26);
  QVERIFY(settle());
  QCOMPARE(shown(), 26);
  QCOMPARE(shownTokens(), firstTokens(greedy_, 26));
  // Forward again past where the session is, in one burst, with an answer possibly in flight.
  for (int i = 0; i < 9; ++i) controller_->stepForward();
  QVERIFY(settle());
  QCOMPARE(shown(), 35);
}

void DecodingControllerTest::stepBackBeforeTheEndIsKnown() {
  const int full = static_cast<int>(greedy_.tokens.size());
  controller_->start(kModel, kLong);  // to the end, whose step count is not known yet
  controller_->stepBack();
  controller_->stepBack();
  QVERIFY(settle());
  QCOMPARE(shown(), full - 2);
  QVERIFY(!controller_->snapshot()->finished);
  QCOMPARE(controller_->targetStep(), full - 2);
  controller_->stepForward();
  controller_->stepForward();
  controller_->stepForward();  // one more than there is
  QCOMPARE(controller_->targetStep(), full);
  QVERIFY(settle());
  QCOMPARE(shown(), full);
  QVERIFY(controller_->snapshot()->finished);
}

void DecodingControllerTest::forcedTokenDecodesOnAndIsReplayed() {
  controller_->start(kModel, kLong);
  QVERIFY(settle());
  const auto& candidates = controller_->snapshot()->steps.at(2).candidates;
  QVERIFY(candidates.size() >= 2);
  const QString alternative = QString::fromStdString(candidates[1].token);
  QVERIFY(alternative != QString::fromStdString(greedy_.tokens[2]));
  controller_->force(2, alternative);
  QVERIFY(settle());
  const auto& steps = controller_->snapshot()->steps;
  QVERIFY(steps.size() > 3);  // decoded on past the forced step
  QVERIFY(controller_->snapshot()->finished);
  QVERIFY(!steps[1].forced);
  QVERIFY(steps[2].forced);
  QCOMPARE(QString::fromStdString(steps[2].token), alternative);
  QCOMPARE(controller_->shownRow(), 2);
  // Back over the forced step and forward again: the what-if is still there.
  controller_->goToStep(1);
  controller_->goToStep(3);
  QVERIFY(settle());
  QCOMPARE(shown(), 3);
  QVERIFY(controller_->snapshot()->steps[2].forced);
  QCOMPARE(QString::fromStdString(controller_->snapshot()->steps[2].token), alternative);
  // A fresh start of the same sentence forgets it.
  controller_->start(kModel, kLong);
  QVERIFY(settle());
  QVERIFY(!controller_->snapshot()->steps[2].forced);
  QCOMPARE(shownTokens(), firstTokens(greedy_, static_cast<int>(greedy_.tokens.size())));
}

void DecodingControllerTest::rewindShowsNoStep() {
  controller_->start(kModel, kLong);
  QVERIFY(settle());
  controller_->rewind();
  QVERIFY(settle());
  QCOMPARE(shown(), 0);
  QCOMPARE(controller_->shownRow(), -1);
  QVERIFY(!controller_->snapshot()->finished);
  controller_->stepForward();
  QVERIFY(settle());
  QCOMPARE(shownTokens(), firstTokens(greedy_, 1));
}

void DecodingControllerTest::playStopsAtTheEndAndStartsOverFromThere() {
  const int full = static_cast<int>(greedy_.tokens.size());
  controller_->start(kModel, kLong, 0);
  QVERIFY(settle());
  controller_->setPlayInterval(1);  // ticks faster than the answers come
  QSignalSpy playing(controller_.get(), &DecodingController::playingChanged);
  controller_->play();
  QVERIFY(controller_->playing());
  QTRY_VERIFY_WITH_TIMEOUT(!controller_->playing(), 20000);
  QVERIFY(settle());
  QCOMPARE(shown(), full);
  QVERIFY(controller_->snapshot()->finished);
  QCOMPARE(playing.count(), 2);
  QCOMPARE(playing[0][0].toBool(), true);
  QCOMPARE(playing[1][0].toBool(), false);
  // Play at the end starts from the first step again.
  controller_->setPlayInterval(60000);
  controller_->togglePlay();
  QVERIFY(controller_->playing());
  QCOMPARE(controller_->targetStep(), 0);
  QVERIFY(settle());
  QCOMPARE(shown(), 0);
  controller_->togglePlay();
  QVERIFY(!controller_->playing());
}

void DecodingControllerTest::newerSentenceSupersedesOlder() {
  QSignalSpy changed(controller_.get(), &DecodingController::snapshotChanged);
  controller_->start(kModel, kLong);
  controller_->start(kModel, QStringLiteral("a b"));
  QVERIFY(settle());
  QCOMPARE(changed.count(), 1);  // the older sentence is never shown
  QStringList source;
  for (const auto& token : controller_->snapshot()->translation.source.tokens)
    source << QString::fromStdString(token);
  QCOMPARE(source, QStringList({"a", "b", "</s>"}));
  QVERIFY(controller_->isSessionOf(kModel, QStringLiteral("a b")));
  QVERIFY(!controller_->isSessionOf(kModel, kLong));
  const int full = shown();
  controller_->stepBack();  // steps the newer session
  QVERIFY(settle());
  QCOMPARE(shown(), full - 1);
  QCOMPARE(controller_->snapshot()->translation.source.tokens.size(), size_t{3});
}

void DecodingControllerTest::clearEndsTheSession() {
  // As a beam search does (the beam view runs it): the greedy session ends, its answers dropped.
  controller_->start(kModel, kLong);
  QSignalSpy changed(controller_.get(), &DecodingController::snapshotChanged);
  controller_->clear();
  QVERIFY(!controller_->snapshot().has_value());
  QVERIFY(!controller_->isSessionOf(kModel, kLong));
  QVERIFY(!controller_->busy());
  controller_->stepForward();  // no session to step
  QVERIFY(!controller_->busy());
  // The worker answers in order: once a later session's answer is in, the cleared one's would
  // have come before it. Only the later one is shown.
  controller_->start(kModel, QStringLiteral("a b c"));
  QVERIFY(settle());
  QCOMPARE(changed.count(), 1);
  QCOMPARE(controller_->snapshot()->translation.source.tokens.size(), size_t{4});  // and </s>
}

void DecodingControllerTest::failedRequestIsNotBusyForever() {
  QSignalSpy errors(worker_, &EngineWorker::errorOccurred);
  controller_->start(QStringLiteral("no such model"), kLong);
  // The engine thread may answer before wait() starts, and wait() only counts later signals.
  QTRY_VERIFY_WITH_TIMEOUT(!errors.isEmpty(), 20000);
  QVERIFY2(errors[0][0].toString().contains("no such model"), qPrintable(errors[0][0].toString()));
  QVERIFY(settle());
  QVERIFY(!controller_->snapshot().has_value());
}

QTEST_MAIN(DecodingControllerTest)
#include "decoding_controller_test.moc"
