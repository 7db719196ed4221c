// QtTest (offscreen) of the window on one of attnscope's own subword models (SentencePiece
// pieces, trained by the test): the heatmap shows words by default and pieces on request, the
// step panel offers pieces and forcing one works, the model info says what the model reads, and
// the compare grid shows it in words beside a word model.
#include <attnscope/text.h>
#include <attnscope/translator.h>

#include <QApplication>
#include <QCheckBox>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "attention_view_controls.h"
#include "candidates_view.h"
#include "compare_view.h"
#include "decoding_controller.h"
#include "engine/test_models.h"
#include "heatmap_plot.h"
#include "history_line_edit.h"
#include "main_window.h"
#include "model_info_text.h"
#include "step_panel.h"

using namespace attnscope::ui;

class SubwordModelViewTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void init();
  void cleanup();
  void theHeatmapShowsWordsThenPieces();
  void theStepPanelForcesAPiece();
  void modelInfoSaysItIsASubwordModel();
  void compareGridShowsWordsAndADifferenceWithAWordModel();

 private:
  void typeAndTranslate(const QString& sentence);

  QTemporaryDir models_;
  std::string path_;
  std::unique_ptr<MainWindow> window_;
};

const QString kSentence = QStringLiteral("Kalomi nerutavi so.");

// Merging a word's pieces keeps each row a distribution over the source.
bool rowsSumToOne(const AttentionMatrix& m) {
  for (const auto& row : m.weights) {
    double sum = 0;
    for (double w : row) sum += w;
    if (qAbs(sum - 1.0) >= 1e-5) return false;
  }
  return true;
}

void SubwordModelViewTest::initTestCase() {
  QVERIFY(models_.isValid());
  path_ = attnscope::testing::subword_model();
  const QString words = QString::fromStdString(attnscope::testing::random_model_file("additive"));
  QVERIFY(QFile::copy(words, models_.filePath("additive.attnmodel")));
  // Listed as a shipped model too, so the compare grid holds a word and a subword model.
  QVERIFY(QFile::copy(QString::fromStdString(path_), models_.filePath("dot.attnmodel")));
  qputenv("ATTNSCOPE_MODEL_DIR", models_.path().toUtf8());
  QStandardPaths::setTestModeEnabled(true);
}

void SubwordModelViewTest::init() {
  window_ = std::make_unique<MainWindow>();
  window_->show();
  QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
  QTRY_COMPARE(window_->modelBox()->currentText(), QString("additive"));
  QSignalSpy opened(window_.get(), &MainWindow::modelOpened);
  window_->openModelFile(QString::fromStdString(path_));
  QVERIFY(opened.wait(10000));
}

void SubwordModelViewTest::cleanup() { window_.reset(); }

void SubwordModelViewTest::typeAndTranslate(const QString& sentence) {
  QSignalSpy updated(window_.get(), &MainWindow::heatmapUpdated);
  window_->sourceEdit()->setText(sentence);
  QTest::keyClick(window_->sourceEdit(), Qt::Key_Return);
  QVERIFY(updated.wait(10000));
  QVERIFY(QTest::qWaitFor([&] { return !window_->controller()->busy(); }, 20000));
}

void SubwordModelViewTest::theHeatmapShowsWordsThenPieces() {
  typeAndTranslate(kSentence);
  const attnscope::Translation expected =
      attnscope::Translator(path_).translate(kSentence.toStdString());
  AttentionViewControls* controls = window_->viewControls();
  QVERIFY(controls->isVisible());
  QVERIFY(controls->wordsBox()->isVisible());
  QVERIFY(controls->wordsBox()->isChecked());
  const AttentionMatrix words = window_->heatmap()->matrix();
  QCOMPARE(words.title, QString("words"));
  QCOMPARE(words.sourceTokens, QStringList({"kalomi", "nerutavi", "so", ".", "</s>"}));
  QVERIFY(rowsSumToOne(words));
  QStringList expectedWords;
  for (const auto& w : expected.words()) expectedWords << QString::fromStdString(w);
  if (expected.tokens.back() == "</s>") expectedWords << "</s>";  // finished within its limit
  QCOMPARE(words.targetTokens, expectedWords);

  controls->wordsBox()->setChecked(false);
  const AttentionMatrix pieces = window_->heatmap()->matrix();
  QCOMPARE(pieces.title, QString("pieces"));
  QStringList sourcePieces;
  for (const auto& p : expected.source.tokens) sourcePieces << QString::fromStdString(p);
  QCOMPARE(pieces.sourceTokens, sourcePieces);
  QVERIFY(pieces.sourceTokens.size() > words.sourceTokens.size());  // some word was split
  QCOMPARE(pieces.rows(), static_cast<int>(expected.tokens.size()));
  controls->wordsBox()->setChecked(true);
}

void SubwordModelViewTest::theStepPanelForcesAPiece() {
  typeAndTranslate(kSentence);
  Q_EMIT window_->heatmap()->rowClicked(0);
  const int step = window_->controller()->shownRow();
  CandidatesView* candidates = window_->stepPanel()->candidates();
  QVERIFY(candidates->count() >= 2);
  const QString alternative = candidates->item(1)->data(Qt::UserRole).toString();
  const attnscope::Translator translator(path_);
  QVERIFY(translator.start("x")->force(alternative.toStdString()).token ==
          alternative.toStdString());  // a piece of the vocabulary, as shown
  QSignalSpy updated(window_.get(), &MainWindow::heatmapUpdated);
  QTest::mouseClick(candidates->viewport(), Qt::LeftButton, {},
                    candidates->visualItemRect(candidates->item(1)).center());
  QVERIFY(updated.wait(5000));
  QTRY_VERIFY(!window_->controller()->busy());
  const auto& steps = window_->controller()->snapshot()->steps;
  QVERIFY(static_cast<int>(steps.size()) > step);
  QCOMPARE(QString::fromStdString(steps[step].token), alternative);
  QVERIFY(steps[step].forced);
}

void SubwordModelViewTest::modelInfoSaysItIsASubwordModel() {
  typeAndTranslate(kSentence);  // the model is loaded and its info known
  const QString info = modelInfoText(*window_);
  QVERIFY2(info.contains("vocabularies 100 / 100 SentencePiece pieces (a subword model)"),
           qPrintable(info));
}

void SubwordModelViewTest::compareGridShowsWordsAndADifferenceWithAWordModel() {
  typeAndTranslate(kSentence);
  QSignalSpy compared(window_.get(), &MainWindow::compareUpdated);
  window_->showCompare(true);
  QVERIFY(compared.wait(10000));
  CompareView* view = window_->compareView();
  // The score functions in order: `dot` first (here the subword model), then word models (the
  // test's additive, and the shipped ones when the tree has them).
  QVERIFY(view->plots().size() >= 2);
  const AttentionMatrix subwords = view->plots()[0]->matrix();
  QCOMPARE(subwords.title, QString::fromUtf8("dot · words"));  // says its view, as exports do
  QCOMPARE(subwords.view, QString("words"));
  QVERIFY(view->wordsBox()->isVisible());
  for (int i = 1; i < view->plots().size(); ++i)  // word models have one view: titles say none
    QCOMPARE(view->plots()[i]->matrix().title, view->models()[i]);
  QCOMPARE(subwords.sourceTokens, QStringList({"kalomi", "nerutavi", "so", ".", "</s>"}));
  QVERIFY(rowsSumToOne(subwords));
  for (const QString& word : subwords.targetTokens)
    QVERIFY2(!word.contains(QString::fromUtf8("▁")), qPrintable(word));  // words, not pieces

  // Both forced onto a reference of words the word model does not know: the same rows, the
  // word model's "<unk>" where the subword model spells a word, and the difference (first −
  // second plot, the default) drawn with the spelled words.
  view->setMode(CompareTarget::Kind::Reference);
  view->referenceEdit()->setText(QStringLiteral("Nerutavi kalomi so."));
  QTest::keyClick(view->referenceEdit(), Qt::Key_Return);
  QVERIFY(compared.wait(10000));
  const AttentionMatrix a = view->plots()[0]->matrix(), b = view->plots()[1]->matrix();
  QCOMPARE(a.sourceTokens, b.sourceTokens);
  QCOMPARE(a.rows(), b.rows());
  QCOMPARE(a.targetTokens, QStringList({"nerutavi", "kalomi", "so", ".", "</s>"}));
  QVERIFY(b.targetTokens.contains("<unk>"));
  view->differenceBox()->setChecked(true);
  QVERIFY(view->differencePlot()->isVisible());
  const AttentionMatrix d = view->differencePlot()->matrix();
  QCOMPARE(d.rows(), a.rows());
  QCOMPARE(d.targetTokens, a.targetTokens);
  for (int r = 0; r < d.rows(); ++r)
    for (int c = 0; c < d.columns(); ++c)
      QCOMPARE(d.weights[r][c], a.weights[r][c] - b.weights[r][c]);

  // Pieces: the subword model's rows and columns are what it emits and reads; a word model's
  // words no longer line up with them, and the status line says why there is no difference.
  view->wordsBox()->setChecked(false);
  QVERIFY(compared.wait(10000));
  const AttentionMatrix pieces = view->plots()[0]->matrix();
  QCOMPARE(pieces.title, QString::fromUtf8("dot · pieces"));
  QCOMPARE(pieces.view, QString("pieces"));
  QVERIFY(pieces.columns() > a.columns());  // the made-up words are split into pieces
  QVERIFY(pieces.sourceTokens.first().startsWith(QString::fromUtf8("▁")));
  QVERIFY(rowsSumToOne(pieces));
  QCOMPARE(view->plots()[1]->matrix().targetTokens, b.targetTokens);
  QVERIFY(!view->differencePlot()->isVisible());
  QVERIFY2(view->statusText().contains("No difference: dot and " + view->models()[1]),
           qPrintable(view->statusText()));
  QCOMPARE(view->models().first(), QString("dot"));  // titles name the view, keys the model
}

QTEST_MAIN(SubwordModelViewTest)
#include "subword_model_view_test.moc"
