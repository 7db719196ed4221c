// QtTest (offscreen) of decoding as a new user meets it (issue 35): Reset undoes a forced token
// and the forced step is marked; forcing, stepping and the help work from the keyboard; a subword
// model's step panel shows words or pieces as the heatmap does, without raw subword marks; the
// Play button draws with glyphs the font has and keeps its width.
#include <attnscope/translator.h>

#include <QAbstractButton>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QtTest>

#include "engine/test_models.h"
#include "plots/attention_bars.h"
#include "plots/heatmap_plot.h"
#include "ui/fixture.h"
#include "widgets/attention_view_controls.h"
#include "widgets/candidates_view.h"
#include "widgets/decoding_tool_bar.h"
#include "widgets/history_line_edit.h"
#include "widgets/step_panel.h"
#include "window/main_window.h"
#include "workers/decoding_controller.h"

using namespace attnscope::ui;

namespace {
// Long enough that the untrained test model decodes well past step 3.
const QString kSentence = QStringLiteral("a b c d e f g h");
const QString kSubwordSentence = QStringLiteral("Kalomi nerutavi so.");
constexpr int kForcedStep = 2;  // the third step, as in the issue
const QString kRawMark = QString::fromUtf8("▁");

QStringList tickLabels(const QCPAxis* axis) {
  const auto ticker = qSharedPointerCast<QCPAxisTickerText>(axis->ticker());
  return ticker ? ticker->ticks().values() : QStringList();
}
}  // namespace

class DecodingKeysTest : public test::WindowTest {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void init();
  void cleanup();
  // Finding 3.
  void resetReturnsToTheModelsOwnDecoding();
  void endShowsEveryStepOfGreedyDecoding();
  void aForcedStepIsMarkedInTheHeatmapAndTheTranslationLine();
  // Finding 6.
  void enterOnACandidateForcesIt();
  void theHeatmapShowsKeyboardFocus();
  void upAndDownMoveFromTheClickedRow();
  void tabReachesTheStepButtons();
  void spaceOnAFocusedStepButtonPressesThatButton();
  void labelsHaveMnemonics();
  void homeAndEndChooseInAFocusedComboBox();
  void helpListsTheDecodingKeys();
  // Finding 11.
  void theStepPanelShowsNoRawSubwordMark();
  void theStepBarsFollowWordsOrPieces();
  // Finding 12.
  void stepButtonsDrawWithTheFontAndPlayKeepsItsWidth();

 private:
  QToolBar* toolBar() const { return window_->findChild<QToolBar*>("decodingToolBar"); }
  QAction* action(const char* name) const { return window_->findChild<QAction*>(name); }
  QWidget* buttonOf(const char* name) const { return toolBar()->widgetForAction(action(name)); }
  const std::vector<attnscope::Step>& steps() const {
    return window_->controller()->snapshot()->steps;
  }
  // Triggers `name` and waits until its request is answered.
  bool run(const char* name) {
    QAction* a = action(name);
    UI_VERIFY2(a != nullptr, name);
    a->trigger();
    return settled();
  }
  // Selects step `step` on the heatmap and returns a candidate there other than the emitted
  // token, and no special token (<unk>, </s>); −1 when there is none.
  int alternativeAt(int step);
  // Forces candidate `index` of the shown step by clicking it.
  bool clickCandidate(int index);
  // The window made active, so focus and shortcuts work as on a desktop.
  bool activate();
  // Triggers `a` and returns the text of the message box it opens, read and closed from inside
  // its loop.
  QString messageBoxTextOf(QAction* a);

  std::string subword_;
};

void DecodingKeysTest::initTestCase() {
  QVERIFY(setUpModels({"additive"}));
  subword_ = attnscope::testing::subword_model();
}

// The app's own first size (the offscreen screen would cap it at 800×600, where the tool bar's
// last buttons go into its overflow menu).
void DecodingKeysTest::init() { QVERIFY(showWindow("additive", QSize(1200, 800))); }

void DecodingKeysTest::cleanup() { closeWindow(); }

int DecodingKeysTest::alternativeAt(int step) {
  Q_EMIT window_->heatmap()->rowClicked(window_->heatmap()->matrix().rowOf(step));
  if (window_->controller()->shownRow() != step) return -1;
  CandidatesView* candidates = window_->stepPanel()->candidates();
  const QString emitted = QString::fromStdString(steps().at(static_cast<size_t>(step)).token);
  for (int i = 0; i < candidates->count(); ++i) {
    const QString token = candidates->item(i)->data(Qt::UserRole).toString();
    if (token != emitted && !token.startsWith('<')) return i;
  }
  return -1;
}

bool DecodingKeysTest::clickCandidate(int index) {
  CandidatesView* candidates = window_->stepPanel()->candidates();
  QSignalSpy updated(window_.get(), &MainWindow::heatmapUpdated);
  QTest::mouseClick(candidates->viewport(), Qt::LeftButton, {},
                    candidates->visualItemRect(candidates->item(index)).center());
  UI_VERIFY(updated.wait(5000));
  return settled();
}

bool DecodingKeysTest::activate() {
  window_->activateWindow();
  UI_VERIFY(QTest::qWaitForWindowActive(window_.get()));
  return true;
}

QString DecodingKeysTest::messageBoxTextOf(QAction* a) {
  QString text;
  QTimer closer;
  QObject::connect(&closer, &QTimer::timeout, window_.get(), [&] {
    if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
      text = box->text() + QLatin1Char('\n') + box->informativeText();
      box->accept();
    }
  });
  closer.start(20);
  a->trigger();
  // A box that does not block returns at once: wait for it.
  static_cast<void>(QTest::qWaitFor([&] { return !text.isEmpty(); }, 3000));
  return text;
}

// Finding 3: after forcing a token at step 3, Reset (Home) and stepping forward brought the
// forced token back; only Enter started afresh.
void DecodingKeysTest::resetReturnsToTheModelsOwnDecoding() {
  QVERIFY(translate(kSentence));
  const std::vector<attnscope::Step> own = steps();
  QVERIFY2(own.size() > kForcedStep + 1, qPrintable(QString::number(own.size())));
  const int index = alternativeAt(kForcedStep);
  QVERIFY(index >= 0);
  const QString alternative =
      window_->stepPanel()->candidates()->item(index)->data(Qt::UserRole).toString();
  QVERIFY(clickCandidate(index));
  QVERIFY(steps().at(kForcedStep).forced);
  QCOMPARE(QString::fromStdString(steps().at(kForcedStep).token), alternative);

  QVERIFY(run("resetAction"));
  QCOMPARE(steps().size(), size_t{0});
  for (int i = 0; i <= kForcedStep; ++i) QVERIFY(run("stepForwardAction"));
  QCOMPARE(steps().size(), size_t{kForcedStep + 1});
  QVERIFY2(!steps().at(kForcedStep).forced, "Reset kept the forced token");
  QCOMPARE(steps().at(kForcedStep).token, own.at(kForcedStep).token);
  // The Home key is Reset too, and after it the model decodes to its own end again.
  QVERIFY(clickCandidate(alternativeAt(kForcedStep)));
  QTest::keyClick(window_->heatmap(), Qt::Key_Home);
  QVERIFY(settled());
  QVERIFY(run("playAction"));
  QTRY_VERIFY_WITH_TIMEOUT(!window_->controller()->playing(), 30000);
  QVERIFY(settled());
  QCOMPARE(steps().size(), own.size());
  for (size_t i = 0; i < own.size(); ++i) {
    QVERIFY(!steps()[i].forced);
    QCOMPARE(steps()[i].token, own[i].token);
  }
}

// End did nothing in greedy decoding (it showed every step of a beam's search only): from the
// middle of a session, while playing, it shows the whole translation and pauses; at the end it
// changes nothing; on a sentence typed but not translated yet it translates it to its end.
void DecodingKeysTest::endShowsEveryStepOfGreedyDecoding() {
  QVERIFY(activate());
  QVERIFY(translate(kSentence));
  const std::vector<attnscope::Step> own = steps();
  QVERIFY(own.size() > 3);
  QVERIFY(run("resetAction"));
  QVERIFY(run("stepForwardAction"));
  QVERIFY(run("stepForwardAction"));
  QCOMPARE(steps().size(), size_t{2});
  window_->controller()->play();
  QTest::keyClick(window_->heatmap(), Qt::Key_End);
  QVERIFY(settled());
  QVERIFY(!window_->controller()->playing());
  QCOMPARE(steps().size(), own.size());
  for (size_t i = 0; i < own.size(); ++i) QCOMPARE(steps()[i].token, own[i].token);
  QVERIFY(run("endAction"));  // at the end already
  QCOMPARE(steps().size(), own.size());
  const QString next = QStringLiteral("A dog runs on the beach.");
  window_->sourceEdit()->setText(next);
  QVERIFY(run("endAction"));
  QCOMPARE(window_->controller()->sentence(), next);
  const attnscope::Translation expected =
      engineTranslation(next, window_->modelBox()->currentText());
  QCOMPARE(steps().size(), expected.tokens.size());
  QVERIFY(buttonOf("endAction")->isVisible());
}

// Finding 3: a forced step was marked only in the step panel.
void DecodingKeysTest::aForcedStepIsMarkedInTheHeatmapAndTheTranslationLine() {
  QVERIFY(translate(kSentence));
  const int index = alternativeAt(kForcedStep);
  QVERIFY(index >= 0);
  const QString alternative =
      window_->stepPanel()->candidates()->item(index)->data(Qt::UserRole).toString();
  QVERIFY(clickCandidate(index));
  HeatmapPlot* heatmap = window_->heatmap();
  const AttentionMatrix& m = heatmap->matrix();
  const int row = m.rowOf(kForcedStep);
  // The data keeps the token (exports, tests); the row's label and hover say it was forced.
  QCOMPARE(m.targetTokens.value(row), alternative);
  const QStringList labels = tickLabels(heatmap->yAxis);
  QCOMPARE(labels.size(), m.rows());
  for (int r = 0; r < labels.size(); ++r)
    QVERIFY2(labels[r].contains("forced") == (r == row), qPrintable(labels[r]));
  heatmap->replot();
  const QPoint cell(qRound(heatmap->xAxis->coordToPixel(0)),
                    qRound(heatmap->yAxis->coordToPixel(row)));
  QVERIFY2(heatmap->toolTipAt(cell).contains("forced"), qPrintable(heatmap->toolTipAt(cell)));
  // The translation line draws the forced word apart from the others and says why.
  const QString line = window_->outputLabel()->text();
  QVERIFY2(line.contains(QRegularExpression(
               QStringLiteral("<span[^>]*>%1</span>")
                   .arg(QRegularExpression::escape(alternative.toHtmlEscaped())))),
           qPrintable(line));
  QVERIFY2(line.contains("forced"), qPrintable(line));
  // Reset: nothing forced, nothing marked.
  QVERIFY(run("resetAction"));
  QVERIFY(run("playAction"));
  QTRY_VERIFY_WITH_TIMEOUT(!window_->controller()->playing(), 30000);
  QVERIFY(settled());
  for (const QString& label : tickLabels(heatmap->yAxis))
    QVERIFY2(!label.contains("forced"), qPrintable(label));
  QVERIFY2(!window_->outputLabel()->text().contains("forced"),
           qPrintable(window_->outputLabel()->text()));
}

// Finding 6: Tab to the candidates, arrow to one, Enter did nothing.
void DecodingKeysTest::enterOnACandidateForcesIt() {
  QVERIFY(activate());
  QVERIFY(translate(kSentence));
  const int index = alternativeAt(kForcedStep);
  QVERIFY(index >= 0);
  CandidatesView* candidates = window_->stepPanel()->candidates();
  const QString alternative = candidates->item(index)->data(Qt::UserRole).toString();
  candidates->setFocus(Qt::TabFocusReason);
  QTRY_VERIFY(candidates->hasFocus());
  candidates->setCurrentRow(0);
  for (int i = 0; i < index; ++i) QTest::keyClick(candidates, Qt::Key_Down);
  QCOMPARE(candidates->currentRow(), index);
  QSignalSpy updated(window_.get(), &MainWindow::heatmapUpdated);
  QTest::keyClick(candidates, Qt::Key_Return);
  QVERIFY2(updated.wait(5000), "Enter on a candidate did not force it");
  QVERIFY(settled());
  QVERIFY(!window_->controller()->playing());  // not Play
  QVERIFY(steps().at(kForcedStep).forced);
  QCOMPARE(QString::fromStdString(steps().at(kForcedStep).token), alternative);
}

// Finding 6: nothing showed that the heatmap had the keyboard focus the arrow keys need.
void DecodingKeysTest::theHeatmapShowsKeyboardFocus() {
  QVERIFY(activate());
  QVERIFY(translate(kSentence));
  HeatmapPlot* heatmap = window_->heatmap();
  QTRY_VERIFY(heatmap->hasFocus());
  const QImage focused = heatmap->grab().toImage();
  window_->sourceEdit()->setFocus();
  QTRY_VERIFY(!heatmap->hasFocus());
  const QImage unfocused = heatmap->grab().toImage();
  QCOMPARE(focused.size(), unfocused.size());
  // The outermost pixels: a frame all round when focused, the plain background when not.
  int differing = 0, border = 0;
  for (int x = 0; x < focused.width(); ++x)
    for (int y : {1, focused.height() - 2}) {
      ++border;
      differing += focused.pixel(x, y) != unfocused.pixel(x, y);
    }
  for (int y = 0; y < focused.height(); ++y)
    for (int x : {1, focused.width() - 2}) {
      ++border;
      differing += focused.pixel(x, y) != unfocused.pixel(x, y);
    }
  QVERIFY2(differing > border / 2,
           qPrintable(QStringLiteral("%1 of %2 border pixels differ").arg(differing).arg(border)));
}

// Finding 6: Tab never reached Reset, Back, Play and Step.
void DecodingKeysTest::tabReachesTheStepButtons() {
  QVERIFY(activate());
  QVERIFY(translate(kSentence));
  QTRY_VERIFY(window_->heatmap()->hasFocus());
  QSet<QWidget*> reached;
  for (int i = 0; i < 80; ++i) {
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
    reached.insert(QApplication::focusWidget());
  }
  for (const char* name :
       {"resetAction", "stepBackAction", "playAction", "stepForwardAction", "endAction"})
    QVERIFY2(reached.contains(buttonOf(name)), name);
  QVERIFY(reached.contains(window_->stepPanel()->candidates()));
  QVERIFY(reached.contains(window_->heatmap()));
}

// With a step button focused by Tab, Space presses that button (as on any button), not Play.
void DecodingKeysTest::spaceOnAFocusedStepButtonPressesThatButton() {
  QVERIFY(activate());
  QVERIFY(translate(kSentence));
  QVERIFY(run("resetAction"));
  QWidget* step = buttonOf("stepForwardAction");
  step->setFocus(Qt::TabFocusReason);
  QTRY_VERIFY(step->hasFocus());
  QTest::keyClick(step, Qt::Key_Space);
  QVERIFY(!window_->controller()->playing());
  QVERIFY(settled());
  QCOMPARE(steps().size(), size_t{1});
}

// Finding 6: labels had no mnemonics (Alt+M for Model).
void DecodingKeysTest::labelsHaveMnemonics() {
  QVERIFY(activate());
  for (QLabel* label : toolBar()->findChildren<QLabel*>())
    QVERIFY2(label->text().contains('&') && label->buddy() != nullptr, qPrintable(label->text()));
  QTest::keyClick(window_->sourceEdit(), Qt::Key_M, Qt::AltModifier);
  QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget*>(window_->modelBox()));
}

// Home and End in the Model box chose nothing: the window's Reset and End took them.
void DecodingKeysTest::homeAndEndChooseInAFocusedComboBox() {
  QVERIFY(activate());
  QComboBox* box = window_->modelBox();
  QVERIFY2(box->count() >= 2, "needs two models to choose between");
  QTest::keyClick(window_->sourceEdit(), Qt::Key_M, Qt::AltModifier);
  QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget*>(box));
  QTest::keyClick(box, Qt::Key_End);
  QTRY_COMPARE(box->currentIndex(), box->count() - 1);
  QTest::keyClick(box, Qt::Key_Home);
  QTRY_COMPARE(box->currentIndex(), 0);
  QTest::keyClick(box, Qt::Key_Down);
  QTRY_COMPARE(box->currentIndex(), 1);
}

// Finding 6: Help did not list the decoding keys.
void DecodingKeysTest::helpListsTheDecodingKeys() {
  QAction* keys = nullptr;
  for (QAction* a : window_->findChildren<QAction*>())
    if (QString(a->text()).remove('&').startsWith("Keys")) keys = a;
  QVERIFY2(keys != nullptr, "no Help > Keys");
  QVERIFY(!keys->shortcut().isEmpty());
  const QString text = messageBoxTextOf(keys);
  for (const QString& key :
       {QString::fromUtf8("→"), QString::fromUtf8("←"), QString::fromUtf8("↑ ↓"), QString("Space"),
        QString("Home"), QString("End"), QString("Enter"), QString("candidate"), QString("Tab"),
        QString("Reset")})
    QVERIFY2(text.contains(key), qPrintable(key + " missing in: " + text));
}

// A reader who clicked a row and pressed an arrow key expected to go on from that row; ← and →
// decode from the sentence's end. ↑ ↓ move the frame and the step panel, and decode nothing.
void DecodingKeysTest::upAndDownMoveFromTheClickedRow() {
  QVERIFY(translate(kSentence));
  const size_t decoded = steps().size();
  QVERIFY(decoded > 3);
  HeatmapPlot* heatmap = window_->heatmap();
  Q_EMIT heatmap->rowClicked(heatmap->matrix().rowOf(1));
  QCOMPARE(window_->controller()->shownRow(), 1);
  QTest::keyClick(heatmap, Qt::Key_Down);
  QCOMPARE(window_->controller()->shownRow(), 2);
  QCOMPARE(heatmap->currentRow(), heatmap->matrix().rowOf(2));
  QTest::keyClick(heatmap, Qt::Key_Up);
  QTest::keyClick(heatmap, Qt::Key_Up);
  QCOMPARE(window_->controller()->shownRow(), 0);
  QTest::keyClick(heatmap, Qt::Key_Up);  // the first row stays
  QCOMPARE(window_->controller()->shownRow(), 0);
  QCOMPARE(steps().size(), decoded);  // moving is not decoding
  const int lastRow = heatmap->matrix().rows() - 1;
  for (int i = 0; i <= lastRow + 1; ++i) QTest::keyClick(heatmap, Qt::Key_Down);
  QCOMPARE(heatmap->currentRow(), lastRow);
  QCOMPARE(steps().size(), decoded);
}

// Finding 11: "Step 10: ▁seine", candidates "▁hat", "▁sein".
void DecodingKeysTest::theStepPanelShowsNoRawSubwordMark() {
  QVERIFY(openModel(QString::fromStdString(subword_)));
  QVERIFY(translate(kSubwordSentence));
  QCheckBox* words = window_->viewControls()->wordsBox();
  bool sawMark = false;  // the model's own pieces carry it, or the test proves nothing
  for (const bool inWords : {true, false}) {
    words->setChecked(inWords);
    for (int row = 0; row < window_->heatmap()->matrix().rows(); ++row) {
      Q_EMIT window_->heatmap()->rowClicked(row);
      const int step = window_->controller()->shownRow();
      QVERIFY(step >= 0);
      const attnscope::Step& s = steps().at(static_cast<size_t>(step));
      sawMark = sawMark || QString::fromStdString(s.token).contains(kRawMark);
      for (QLabel* label : window_->stepPanel()->findChildren<QLabel*>())
        QVERIFY2(!label->text().contains(kRawMark), qPrintable(label->text()));
      CandidatesView* candidates = window_->stepPanel()->candidates();
      QVERIFY(candidates->count() > 0);
      for (int i = 0; i < candidates->count(); ++i) {
        QVERIFY2(!candidates->item(i)->text().contains(kRawMark),
                 qPrintable(candidates->item(i)->text()));
        // What is forced is the model's piece, as it is.
        QCOMPARE(candidates->item(i)->data(Qt::UserRole).toString(),
                 QString::fromStdString(s.candidates.at(static_cast<size_t>(i)).token));
      }
      for (const QString& label : tickLabels(window_->stepPanel()->bars()->xAxis))
        QVERIFY2(!label.contains(kRawMark), qPrintable(label));
    }
  }
  QVERIFY(sawMark);
}

// Finding 11: the bars showed pieces ("▁z ol t an") under a heatmap showing words.
void DecodingKeysTest::theStepBarsFollowWordsOrPieces() {
  QVERIFY(openModel(QString::fromStdString(subword_)));
  QVERIFY(translate(kSubwordSentence));
  QCheckBox* words = window_->viewControls()->wordsBox();
  AttentionBars* bars = window_->stepPanel()->bars();
  const auto barValues = [&] {
    QVector<double> values;
    const auto data = qobject_cast<QCPBars*>(bars->plottable(0))->data();
    for (int i = 0; i < data->size(); ++i) values << data->at(i)->value;
    return values;
  };
  words->setChecked(true);
  const int last = static_cast<int>(steps().size()) - 1;
  Q_EMIT window_->heatmap()->rowClicked(window_->heatmap()->matrix().rowOf(last));
  AttentionMatrix m = window_->heatmap()->matrix();
  QCOMPARE(m.view, QString("words"));
  // Over words, as the heatmap's columns: the pieces of a word summed.
  QCOMPARE(tickLabels(bars->xAxis), m.sourceTokens);
  const QVector<double> wordBars = barValues();
  QCOMPARE(wordBars.size(), m.columns());
  double sum = 0;
  for (double w : wordBars) sum += w;
  QVERIFY2(qAbs(sum - 1.0) < 1e-4, qPrintable(QString::number(sum)));
  const size_t pieces = window_->controller()->snapshot()->translation.source.tokens.size();
  QVERIFY(static_cast<size_t>(m.columns()) < pieces);  // some word was split

  words->setChecked(false);
  m = window_->heatmap()->matrix();
  QCOMPARE(m.view, QString("pieces"));
  QCOMPARE(tickLabels(bars->xAxis).size(), static_cast<int>(pieces));
  const QVector<double> pieceBars = barValues();
  QCOMPARE(pieceBars.size(), static_cast<int>(pieces));
  const auto& attention = steps().at(static_cast<size_t>(last)).attention;
  for (int i = 0; i < pieceBars.size(); ++i)
    QVERIFY(qAbs(pieceBars[i] - attention.at(static_cast<size_t>(i))) < 1e-6);
  words->setChecked(true);
}

// Finding 12: "▯ Pause" (the font lacks the glyph), and the toolbar shifted when Play toggled.
void DecodingKeysTest::stepButtonsDrawWithTheFontAndPlayKeepsItsWidth() {
  auto* bar = qobject_cast<DecodingToolBar*>(toolBar());
  QVERIFY(bar != nullptr);
  QAction* play = action("playAction");
  QWidget* playButton = buttonOf("playAction");
  QWidget* stepButton = buttonOf("stepForwardAction");
  const auto drawable = [](QWidget* button, const QString& text) {
    const QFontMetrics metrics(button->font());
    for (const char32_t c : text.toUcs4())
      if (!metrics.inFontUcs4(c)) return false;
    return true;
  };
  QTest::qWait(50);
  const int width = playButton->width(), stepX = stepButton->x();
  for (const bool playing : {true, false, true, false}) {
    bar->setPlaying(playing);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QTest::qWait(20);
    QVERIFY2(drawable(playButton, play->text()), qPrintable(play->text()));
    QVERIFY(!play->icon().isNull());
    QCOMPARE(playButton->width(), width);
    QCOMPARE(stepButton->x(), stepX);
  }
  for (const char* name :
       {"resetAction", "stepBackAction", "playAction", "stepForwardAction", "endAction"}) {
    QVERIFY2(drawable(buttonOf(name), action(name)->text()), qPrintable(action(name)->text()));
    QVERIFY2(!action(name)->icon().isNull(), name);
  }
}

QTEST_MAIN(DecodingKeysTest)
#include "decoding_keys_test.moc"
