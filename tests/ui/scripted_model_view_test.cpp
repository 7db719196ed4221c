// QtTest (offscreen) of the window on TorchScript models (docs/model-protocol.md) that the test
// builds in C++: the layer and head choice (also while stepping and for beam hypotheses), the
// heads grid and its export, the word view of a subword model, model info, drag and drop, and
// models that fail on load or mid-sentence.
#include <attnscope/translator.h>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDropEvent>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QMimeData>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "core/copied_words.h"
#include "engine/scripted_modules.h"
#include "engine/test_models.h"
#include "plots/attention_bars.h"
#include "plots/heatmap_plot.h"
#include "render/exporter.h"
#include "tabs/heads_view.h"
#include "ui/fixture.h"
#include "widgets/attention_view_controls.h"
#include "widgets/history_line_edit.h"
#include "widgets/step_panel.h"
#include "window/main_window.h"
#include "workers/decoding_controller.h"

using namespace attnscope::ui;
using attnscope::testing::ScriptedModuleSpec;
using attnscope::testing::write_scripted_module;
using attnscope::ui::test::sameWeights;

class ScriptedModelViewTest : public test::WindowTest {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void init();
  void cleanup();
  void layerAndHeadChooseTheMatrixAndTheHeadsTabShowsEveryHead();
  void wordViewMergesPiecesAndTogglesBack();
  void aModelFailingMidSentenceShowsTheMessageAndStaysUsable();
  void steppingKeepsTheChosenHeadAndTheBarsFollowIt();
  void aBeamHypothesisFollowsTheHeadChoice();
  void wordViewStepsByPieceAndAClickSelectsTheWordsLastPiece();
  void exportsSayWhichViewTheyShow();
  void theHeadsTabExportsItsGridOnOneColourScale();
  void modelInfoAndStatusLineDescribeATorchScriptModel();
  void droppingATorchScriptFileOpensIt();
  void aModelFailingOnLoadShowsTheMessageAndStaysUsable();
  void unknownWordsAreCopiedMarkedAndCanBeKept();

 private:
  bool open(const std::string& path) { return openModel(QString::fromStdString(path)); }
  // The step-wise session publishes its steps: waits until the worker has shown the last.
  bool typeAndTranslate(const QString& sentence) { return translate(sentence); }
  // Sends a step key to the heatmap and waits until the window shows `steps` steps.
  bool stepKey(int key, int steps);
  int shownSteps() const;
  QLabel* modelStatus() const;
  static ScriptedModuleSpec subwordSpec();
};

void ScriptedModelViewTest::initTestCase() { QVERIFY(setUpModels({"additive"})); }

void ScriptedModelViewTest::init() { QVERIFY(showWindow("additive")); }

void ScriptedModelViewTest::cleanup() { closeWindow(); }

int ScriptedModelViewTest::shownSteps() const {
  const auto& snapshot = window_->controller()->snapshot();
  return snapshot ? static_cast<int>(snapshot->steps.size()) : -1;
}

bool ScriptedModelViewTest::stepKey(int key, int steps) {
  QTest::keyClick(window_->heatmap(), static_cast<Qt::Key>(key));
  static_cast<void>(QTest::qWaitFor([&] { return shownSteps() == steps; }, 5000));
  UI_COMPARE(shownSteps(), steps);
  UI_VERIFY(QTest::qWaitFor([&] { return !window_->controller()->busy(); }, 5000));
  return true;
}

QLabel* ScriptedModelViewTest::modelStatus() const {
  for (QLabel* label : window_->statusBar()->findChildren<QLabel*>())
    if (label->text().contains("parameters")) return label;
  return nullptr;
}

ScriptedModuleSpec ScriptedModelViewTest::subwordSpec() {
  ScriptedModuleSpec spec;
  spec.vocabulary = {"<s>", "</s>", "<unk>", "ab@@", "c", "ab", "d@@", "e"};
  spec.subword_marker = "@@";
  return spec;
}

void ScriptedModelViewTest::layerAndHeadChooseTheMatrixAndTheHeadsTabShowsEveryHead() {
  const std::string path = write_scripted_module({2, 4}, "heads");
  const attnscope::Translation expected = attnscope::Translator(path).translate("a b c");
  QVERIFY(open(path));
  QVERIFY(typeAndTranslate("a b c"));
  AttentionViewControls* controls = window_->viewControls();
  QVERIFY(controls->isVisible());
  QVERIFY(!controls->wordsBox()->isVisible());  // not a subword model
  QCOMPARE(controls->layerBox()->count(), 2);
  QCOMPARE(controls->headBox()->count(), 5);  // the mean, then 4 heads
  QCOMPARE(window_->heatmap()->matrix().title, QString("layer 2 · mean of heads"));
  QVERIFY(sameWeights(window_->heatmap()->matrix(), expected.attention));

  controls->layerBox()->setCurrentIndex(0);
  controls->headBox()->setCurrentIndex(3);
  QCOMPARE(window_->heatmap()->matrix().title, QString("layer 1 · head 3"));
  QVERIFY(sameWeights(window_->heatmap()->matrix(), expected.attention_for({0, 2})));
  QVERIFY(typeAndTranslate("a b d"));  // the choice stays for the next sentence
  QCOMPARE(window_->heatmap()->matrix().title, QString("layer 1 · head 3"));

  QVERIFY(window_->tabs()->isTabEnabled(2));
  window_->tabs()->setCurrentIndex(2);
  HeadsView* heads = window_->headsView();
  QCOMPARE(heads->plots().size(), 5);
  QCOMPARE(heads->plots()[0]->matrix().title, QString("heads · layer 2 · head 1"));
  QCOMPARE(heads->plots()[4]->matrix().title, QString("heads · layer 2 · mean of heads"));
  heads->layerBox()->setCurrentIndex(0);
  QCOMPARE(heads->plots()[2]->matrix().title, QString("heads · layer 1 · head 3"));
  QVERIFY(sameWeights(heads->plots()[2]->matrix(),
                      attnscope::Translator(path).translate("a b d").attention_for({0, 2})));

  window_->tabs()->setCurrentIndex(0);
  window_->selectModel("additive");  // attnscope's own model: one matrix, no choice
  QVERIFY(typeAndTranslate("a b"));
  QVERIFY(!controls->isVisible());
  QVERIFY(!window_->tabs()->isTabEnabled(2));
  QCOMPARE(window_->heatmap()->matrix().title, QString());
}

void ScriptedModelViewTest::wordViewMergesPiecesAndTogglesBack() {
  QVERIFY(open(write_scripted_module(subwordSpec(), "pieces")));
  QVERIFY(typeAndTranslate("abc ab de"));
  AttentionViewControls* controls = window_->viewControls();
  QVERIFY(controls->wordsBox()->isVisible());
  QVERIFY(controls->wordsBox()->isChecked());
  const AttentionMatrix words = window_->heatmap()->matrix();
  QCOMPARE(words.sourceTokens, QStringList({"abc", "ab", "de", "</s>"}));
  QCOMPARE(words.targetTokens, QStringList({"abc", "ab", "de", "</s>"}));
  QCOMPARE(words.title, QString("words"));
  for (const auto& row : words.weights) {
    double sum = 0;
    for (double w : row) sum += w;
    QVERIFY(qAbs(sum - 1.0) < 1e-5);
  }
  QCOMPARE(words.rowOf(1), 0);  // "c" is the second piece of the first word
  QCOMPARE(words.lastStepOf(0), 1);

  controls->wordsBox()->setChecked(false);
  const AttentionMatrix pieces = window_->heatmap()->matrix();
  QCOMPARE(pieces.sourceTokens, QStringList({"ab@@", "c", "ab", "d@@", "e", "</s>"}));
  QCOMPARE(pieces.rows(), 6);
  QCOMPARE(pieces.title, QString("pieces"));
}

void ScriptedModelViewTest::aModelFailingMidSentenceShowsTheMessageAndStaysUsable() {
  ScriptedModuleSpec spec;
  spec.break_step =
      "        if int(t.item()) >= 2:\n"
      "            attention = attention * 1.5\n";
  const std::string path = write_scripted_module(spec, "later");
  QVERIFY(open(path));  // the probe step at load is fine
  window_->sourceEdit()->setText("a b c");
  QTest::keyClick(window_->sourceEdit(), Qt::Key_Return);
  QMessageBox* box = nullptr;
  QTRY_VERIFY((box = window_->findChild<QMessageBox*>()) != nullptr);
  QVERIFY(box->text().contains("step() returned attention rows that do not sum to 1"));
  QVERIFY(box->text().contains(QString::fromStdString(path)));
  box->close();
  QVERIFY(typeAndTranslate("a"));  // a sentence it can decode still works
  QCOMPARE(window_->heatmap()->matrix().targetTokens, QStringList({"a", "</s>"}));
}

void ScriptedModelViewTest::steppingKeepsTheChosenHeadAndTheBarsFollowIt() {
  const std::string path = write_scripted_module({2, 4}, "steps");
  const auto head = attnscope::Translator(path).translate("a b c d").attention_for({0, 2});
  QVERIFY(open(path));
  QVERIFY(typeAndTranslate("a b c d"));
  AttentionViewControls* controls = window_->viewControls();
  controls->layerBox()->setCurrentIndex(0);
  controls->headBox()->setCurrentIndex(3);
  HeatmapPlot* heatmap = window_->heatmap();
  QVERIFY(
      stepKey(Qt::Key_Home, 0));  // no attention yet: the choice (and its row) stays all the same
  QVERIFY(controls->isVisible());
  QCOMPARE(controls->layerBox()->currentIndex(), 0);
  QCOMPARE(controls->headBox()->currentIndex(), 3);
  QCOMPARE(heatmap->matrix().title, QString("layer 1 · head 3"));
  auto* bars = window_->stepPanel()->findChild<AttentionBars*>();
  QVERIFY(bars);
  for (int steps = 1; steps <= 3; ++steps) {
    QVERIFY(stepKey(Qt::Key_Right, steps));
    QCOMPARE(heatmap->matrix().title, QString("layer 1 · head 3"));
    QVERIFY(sameWeights(heatmap->matrix(), {head.begin(), head.begin() + steps}));
    QCOMPARE(heatmap->currentRow(), steps - 1);
    // The step panel's bars show the same head's row.
    const auto data = qobject_cast<QCPBars*>(bars->plottable(0))->data();
    QCOMPARE(data->size(), static_cast<int>(head[steps - 1].size()));
    for (int s = 0; s < data->size(); ++s)
      QVERIFY(qAbs(data->at(s)->value - head[steps - 1][s]) < 1e-6);
  }
  QVERIFY(stepKey(Qt::Key_Left, 2));
  QCOMPARE(heatmap->matrix().title, QString("layer 1 · head 3"));
  QVERIFY(sameWeights(heatmap->matrix(), {head.begin(), head.begin() + 2}));
}

void ScriptedModelViewTest::aBeamHypothesisFollowsTheHeadChoice() {
  const std::string path = write_scripted_module({2, 4}, "beams");
  attnscope::TranslationOptions options;
  options.beam_size = 5;
  const auto beam = attnscope::Translator(path).translate_nbest("a b c", options);
  QVERIFY(beam.size() > 1);
  QVERIFY(open(path));
  QVERIFY(searchBox());
  searchBox()->setCurrentText("Beam");  // beam 5 by default
  QSignalSpy updated(window_.get(), &MainWindow::heatmapUpdated);
  window_->sourceEdit()->setText("a b c");
  QTest::keyClick(window_->sourceEdit(), Qt::Key_Return);
  QVERIFY(updated.wait(10000));
  QListWidget* hypotheses = window_->beamList();
  QCOMPARE(hypotheses->count(), static_cast<int>(beam.size()));
  hypotheses->setCurrentRow(1);
  AttentionViewControls* controls = window_->viewControls();
  controls->layerBox()->setCurrentIndex(0);
  controls->headBox()->setCurrentIndex(2);
  QVERIFY(sameWeights(window_->heatmap()->matrix(), beam[1].attention_for({0, 1})));
  QCOMPARE(window_->heatmap()->matrix().title, QString("layer 1 · head 2"));
  QCOMPARE(hypotheses->currentRow(), 1);  // redrawn, not decoded again
  QCOMPARE(hypotheses->count(), static_cast<int>(beam.size()));
}

void ScriptedModelViewTest::wordViewStepsByPieceAndAClickSelectsTheWordsLastPiece() {
  QVERIFY(open(write_scripted_module(subwordSpec(), "stepped")));
  QVERIFY(typeAndTranslate("abc ab de"));  // pieces ab@@ c ab d@@ e </s>
  HeatmapPlot* heatmap = window_->heatmap();
  QVERIFY(stepKey(Qt::Key_Home, 0));
  QVERIFY(window_->viewControls()->wordsBox()->isVisible());
  auto* bars = window_->stepPanel()->findChild<AttentionBars*>();
  // After each step: the word rows so far, and the row of the word holding the newest piece.
  const QList<int> rows = {1, 1, 2, 3, 3, 4};
  const QList<int> current = {0, 0, 1, 2, 2, 3};
  for (int i = 0; i < rows.size(); ++i) {
    QVERIFY(stepKey(Qt::Key_Right, i + 1));
    QCOMPARE(heatmap->matrix().rows(), rows[i]);
    QCOMPARE(heatmap->currentRow(), current[i]);
    // The step panel's bars follow the heatmap: over its words (abc ab de </s>).
    QCOMPARE(qobject_cast<QCPBars*>(bars->plottable(0))->data()->size(), 4);
  }
  QCOMPARE(heatmap->matrix().targetTokens, QStringList({"abc", "ab", "de", "</s>"}));
  Q_EMIT heatmap->rowClicked(0);  // "abc": its last piece "c" is step 2
  QCOMPARE(window_->controller()->shownRow(), 1);
  QCOMPARE(heatmap->currentRow(), 0);
  Q_EMIT heatmap->rowClicked(2);  // "de": "e" is step 5
  QCOMPARE(window_->controller()->shownRow(), 4);
  QCOMPARE(heatmap->currentRow(), 2);
  window_->viewControls()->wordsBox()->setChecked(false);  // pieces: the step's own row
  QCOMPARE(heatmap->currentRow(), 4);
}

void ScriptedModelViewTest::exportsSayWhichViewTheyShow() {
  QVERIFY(open(write_scripted_module(subwordSpec(), "exported")));
  QVERIFY(typeAndTranslate("abc ab de"));
  QTemporaryDir out;
  ExportOptions options;
  options.size = QSize(400, 300);
  const auto read = [&](const QString& name) {
    QFile file(out.filePath(name));
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
  };
  window_->exportTo(out.filePath("words.csv"), options);
  QStringList lines = read("words.csv").split('\n', Qt::SkipEmptyParts);
  QCOMPARE(lines.size(), 5);
  QCOMPARE(lines[0], QString("target\\source (words),abc,ab,de,</s>"));
  QVERIFY(lines[1].startsWith("abc,"));
  window_->exportTo(out.filePath("words.json"), options);
  QJsonObject json = QJsonDocument::fromJson(read("words.json").toUtf8()).object();
  QCOMPARE(json["model"].toString(), QString("words"));
  QCOMPARE(json["view"].toString(), QString("words"));
  QCOMPARE(json["target_tokens"].toArray().size(), 4);

  window_->viewControls()->wordsBox()->setChecked(false);
  window_->exportTo(out.filePath("pieces.csv"), options);
  lines = read("pieces.csv").split('\n', Qt::SkipEmptyParts);
  QCOMPARE(lines.size(), 7);
  QCOMPARE(lines[0], QString("target\\source (pieces),ab@@,c,ab,d@@,e,</s>"));
  window_->exportTo(out.filePath("pieces.json"), options);
  json = QJsonDocument::fromJson(read("pieces.json").toUtf8()).object();
  QCOMPARE(json["model"].toString(), QString("pieces"));
  QCOMPARE(json["view"].toString(), QString("pieces"));
  // Read back, the file keeps its view: export → open → export gives the same bytes.
  window_->openAttentionFile(out.filePath("pieces.csv"));
  QCOMPARE(window_->heatmap()->matrix().view, QString("pieces"));
  window_->exportTo(out.filePath("again.csv"), options);
  QCOMPARE(read("again.csv"), read("pieces.csv"));
}

void ScriptedModelViewTest::theHeadsTabExportsItsGridOnOneColourScale() {
  QVERIFY(open(write_scripted_module({3, 2}, "grid")));
  QVERIFY(typeAndTranslate("a b c"));
  window_->tabs()->setCurrentIndex(2);
  HeadsView* heads = window_->headsView();
  heads->layerBox()->setCurrentIndex(1);
  QCOMPARE(heads->plots().size(), 3);  // 2 heads and their mean
  const QCPRange range = heads->plots()[0]->dataRange();
  for (HeatmapPlot* plot : heads->plots()) {
    QCOMPARE(plot->dataRange(), range);
    QVERIFY(plot->isVisible());
  }
  QTemporaryDir out;
  ExportOptions options;
  options.size = QSize(600, 400);
  window_->exportTo(out.filePath("heads.json"), options);
  QFile file(out.filePath("heads.json"));
  QVERIFY(file.open(QIODevice::ReadOnly));
  const QJsonArray grid = QJsonDocument::fromJson(file.readAll()).object()["heatmaps"].toArray();
  QCOMPARE(grid.size(), 3);
  QCOMPARE(grid[0].toObject()["model"].toString(), QString("grid · layer 2 · head 1"));
  QCOMPARE(grid[1].toObject()["model"].toString(), QString("grid · layer 2 · head 2"));
  QCOMPARE(grid[2].toObject()["model"].toString(), QString("grid · layer 2 · mean of heads"));
  window_->exportTo(out.filePath("heads.png"), options);
  QCOMPARE(QImage(out.filePath("heads.png")).size(), QSize(600, 400));
}

void ScriptedModelViewTest::modelInfoAndStatusLineDescribeATorchScriptModel() {
  const std::string path = write_scripted_module({2, 4}, "described");
  QVERIFY(open(path));
  QTRY_VERIFY(modelStatus() && modelStatus()->text().startsWith("described"));
  QVERIFY(modelStatus()->text().contains("TorchScript, 2 layer(s) × 4 head(s)"));
  QVERIFY(!modelStatus()->text().contains("BLEU"));
  const QString info = modelInfoBoxText();
  QVERIFY(info.startsWith("TorchScript model"));
  QVERIFY(info.contains("Attention: 2 layer(s) × 4 head(s)"));
  QVERIFY(info.contains("Vocabularies: 8 source / 8 target tokens"));
  QVERIFY(info.contains(QString::fromStdString(path)));
  QVERIFY(!info.contains("BLEU"));
}

void ScriptedModelViewTest::droppingATorchScriptFileOpensIt() {
  const std::string path = write_scripted_module({1, 3}, "dropped");
  QMimeData mime;
  mime.setUrls({QUrl::fromLocalFile(QString::fromStdString(path))});
  QDragEnterEvent enter(QPoint(20, 20), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(window_.get(), &enter);
  QVERIFY(enter.isAccepted());
  QSignalSpy opened(window_.get(), &MainWindow::modelOpened);
  QDropEvent drop(QPointF(20, 20), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(window_.get(), &drop);
  QVERIFY(opened.wait(10000));
  QCOMPARE(window_->modelBox()->currentText(), QString("dropped"));
  QVERIFY(typeAndTranslate("a b"));
  // One layer: only the head is a choice.
  QVERIFY(window_->viewControls()->headBox()->isVisible());
  QVERIFY(!window_->viewControls()->layerBox()->isVisible());
  QCOMPARE(window_->heatmap()->matrix().title, QString("layer 1 · mean of heads"));
}

void ScriptedModelViewTest::aModelFailingOnLoadShowsTheMessageAndStaysUsable() {
  ScriptedModuleSpec spec;
  spec.break_step = "        log_probs = log_probs + torch.zeros([3, 3])\n";  // every step
  const std::string path = write_scripted_module(spec, "raises");
  QSignalSpy opened(window_.get(), &MainWindow::modelOpened);
  window_->openModelFile(QString::fromStdString(path));
  QMessageBox* box = nullptr;
  QTRY_VERIFY((box = window_->findChild<QMessageBox*>()) != nullptr);
  QVERIFY(box->text().startsWith(QString::fromStdString("Model '" + path + "': ")));
  QVERIFY(box->text().contains("step() failed:"));
  QVERIFY(!box->text().contains('\n'));
  box->close();
  QVERIFY(opened.isEmpty());
  QCOMPARE(window_->modelBox()->findText("raises"), -1);
  QCOMPARE(window_->modelBox()->currentText(), QString("additive"));
  QVERIFY(typeAndTranslate("a b"));  // the window goes on with the model it had
  QVERIFY(showsTranslationOf("a b", "additive"));
  QVERIFY(!window_->viewControls()->isVisible());
}

// The toy copies its source, so an unknown source word comes out as "<unk>" attending to it.
void ScriptedModelViewTest::unknownWordsAreCopiedMarkedAndCanBeKept() {
  ScriptedModuleSpec spec;
  spec.tokenizer = "attnscope";
  QVERIFY(open(write_scripted_module(spec, "ui-copy.pt")));
  QVERIFY(typeAndTranslate("a Zebra b"));
  const auto& snapshot = *window_->controller()->snapshot();
  QCOMPARE(snapshot.steps.at(1).token, std::string("<unk>"));  // the step panel: what it emits

  const AttentionMatrix copied = window_->heatmap()->matrix();
  QCOMPARE(copied.targetTokens.at(1), QString("Zebra"));  // as typed, not "zebra"
  QVERIFY(copied.isCopied(1));
  QVERIFY(!copied.isCopied(0) && !copied.isCopied(2));
  QCOMPARE(copied.copiedFrom.at(1), 1);
  QVERIFY2(copied.copyNotes.at(1).startsWith("<unk> replaced by 'Zebra', the unknown source word "
                                             "(word 2 of 3) its attention weighs most (0."),
           qPrintable(copied.copyNotes.at(1)));
  const auto ticks = qSharedPointerCast<QCPAxisTickerText>(window_->heatmap()->yAxis->ticker());
  QCOMPARE(ticks->ticks().value(1), QString("Zebra (copied)"));
  QCOMPARE(ticks->ticks().value(0), QString("a"));
  const QString line = window_->outputLabel()->text();
  QVERIFY2(line.contains("href='copied:0'") && line.contains(">Zebra</a>"), qPrintable(line));
  QCOMPARE(unknownWordNoteOfLink(snapshot.translation, "copied:0"), copied.copyNotes.at(1));
  QVERIFY(unknownWordNoteOfLink(snapshot.translation, "copied:7").isEmpty());
  QVERIFY(unknownWordNoteOfLink(snapshot.translation, "https://example.org").isEmpty());

  // A row that weighs the appended end token most copies the unknown name all the same, and its
  // note says why the brighter cell was passed over.
  attnscope::Translation endPeaked;
  endPeaked.source.tokens = {"days", "business", "</s>"};
  endPeaked.source.typed = {"days", "Business", "</s>"};
  endPeaked.source.unknown = {false, true, false};
  endPeaked.source.kept_length = 2;
  endPeaked.tokens = {"<unk>", "</s>"};
  endPeaked.attention = {{0.12f, 0.19f, 0.69f}, {0.0f, 0.0f, 1.0f}};
  attnscope::copy_unknown_words(endPeaked);
  QCOMPARE(copyNote(endPeaked, endPeaked.copied.at(0)),
           QString("<unk> replaced by 'Business', the unknown source word (word 2 of 2) its "
                   "attention weighs most (0.19); the row weighs </s> more (0.69), which is no "
                   "word"));

  // An unknown lowercase word is English, not a name: "<unk>" stays, grey, and says why.
  attnscope::Translation common = endPeaked;
  common.copied.clear();
  common.source.typed = {"days", "business", "</s>"};
  common.tokens = {"<unk>", "</s>"};
  attnscope::copy_unknown_words(common);
  QVERIFY(common.copied.empty());
  QVERIFY(translationHtml(common).contains("href='kept:0'"));
  QCOMPARE(unknownWordNoteOfLink(common, "kept:0"),
           QString("<unk> kept: 'business' (word 2 of 2), the unknown source word its attention "
                   "weighs most (0.19), is a lowercase English word, not a name or a number; "
                   "copied, it would be English in the translation"));
  // Every source word known: the note names the word the row weighs most, as typed.
  attnscope::Translation known = common;
  known.kept_unknown.clear();
  known.source.tokens = {"boston", "days", "</s>"};
  known.source.typed = {"Boston", "days", "</s>"};
  known.source.unknown = {false, false, false};
  known.attention = {{0.9f, 0.04f, 0.06f}, {0.0f, 0.0f, 1.0f}};
  attnscope::copy_unknown_words(known);
  QCOMPARE(unknownWordNoteOfLink(known, "kept:0"),
           QString("<unk> kept: the model knows every source word but found no translation for "
                   "this step; its attention weighs 'Boston' (word 1 of 2) most (0.90), a word "
                   "the model knows: copying it could put English into the translation"));

  const QString json = QDir(models_.path()).filePath("copied.json");
  exportHeatmaps({window_->heatmap()}, json, {});
  QFile file(json);
  QVERIFY(file.open(QIODevice::ReadOnly));
  const QJsonArray from = QJsonDocument::fromJson(file.readAll()).object()["copied_from"].toArray();
  QCOMPARE(from.size(), copied.rows());
  QCOMPARE(from.at(1).toInt(), 1);
  QCOMPARE(from.at(0).toInt(), -1);

  // Keeping "<unk>": the same attention, nothing marked.
  QSignalSpy updated(window_.get(), &MainWindow::heatmapUpdated);
  window_->copyUnknownAction()->trigger();
  QVERIFY(updated.wait(10000));
  QVERIFY(QTest::qWaitFor([&] { return !window_->controller()->busy(); }, 20000));
  const AttentionMatrix kept = window_->heatmap()->matrix();
  QCOMPARE(kept.targetTokens.at(1), QString("<unk>"));
  QVERIFY(kept.copiedFrom.isEmpty());
  QCOMPARE(kept.weights, copied.weights);
  QVERIFY(!window_->outputLabel()->text().contains("copied:"));
  QVERIFY(window_->outputLabel()->text().contains("&lt;unk&gt;"));
  window_->copyUnknownAction()->setChecked(true);  // the choice is saved: leave the default
}

QTEST_MAIN(ScriptedModelViewTest)
#include "scripted_model_view_test.moc"
