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

#include "engine/test_models.h"
#include "plots/heatmap_plot.h"
#include "tabs/compare_view.h"
#include "ui/fixture.h"
#include "widgets/attention_view_controls.h"
#include "widgets/candidates_view.h"
#include "widgets/history_line_edit.h"
#include "widgets/step_panel.h"
#include "window/main_window.h"
#include "workers/decoding_controller.h"

using namespace attnscope::ui;
using attnscope::ui::test::rowsSumToOne;

class SubwordModelViewTest : public test::WindowTest {
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
  bool typeAndTranslate(const QString& sentence) { return translate(sentence); }

  std::string path_;
};

const QString kSentence = QStringLiteral("Kalomi nerutavi so.");

void SubwordModelViewTest::initTestCase() {
  path_ = attnscope::testing::subword_model();
  QVERIFY(setUpModels({"additive"}));
  // Listed as a shipped model too, so the compare grid holds a word and a subword model.
  QVERIFY(listModel(QString::fromStdString(path_), "dot"));
}

void SubwordModelViewTest::init() {
  QVERIFY(showWindow("additive"));
  QVERIFY(openModel(QString::fromStdString(path_)));
}

void SubwordModelViewTest::cleanup() { closeWindow(); }

void SubwordModelViewTest::theHeatmapShowsWordsThenPieces() {
  QVERIFY(typeAndTranslate(kSentence));
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
  QVERIFY(typeAndTranslate(kSentence));
  Q_EMIT window_->heatmap()->rowClicked(0);
  const int step = window_->controller()->shownRow();
  CandidatesView* candidates = window_->stepPanel()->candidates();
  // The step's top-k pieces, most probable first.
  const auto& top =
      window_->controller()->snapshot()->steps.at(static_cast<size_t>(step)).candidates;
  QVERIFY(top.size() >= 2);
  QCOMPARE(candidates->count(), static_cast<int>(top.size()));
  for (int i = 0; i < candidates->count(); ++i)
    QCOMPARE(candidates->item(i)->data(Qt::UserRole).toString(),
             QString::fromStdString(top[static_cast<size_t>(i)].token));
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
  QVERIFY(typeAndTranslate(kSentence));  // the model is loaded and its info known
  const QString info = modelInfoBoxText();
  QVERIFY2(info.contains("vocabularies 100 / 100 SentencePiece pieces (a subword model)"),
           qPrintable(info));
}

void SubwordModelViewTest::compareGridShowsWordsAndADifferenceWithAWordModel() {
  QVERIFY(typeAndTranslate(kSentence));
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
