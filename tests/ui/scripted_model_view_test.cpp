// QtTest (offscreen) of the window on TorchScript models (docs/model-protocol.md) that the test
// builds in C++: the layer and head choice, the heads grid, the word view of a subword model,
// and a model that fails mid-sentence.
#include <attnscope/translator.h>

#include <QCheckBox>
#include <QComboBox>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "attention_view_controls.h"
#include "decoding_controller.h"
#include "engine/scripted_modules.h"
#include "engine/test_models.h"
#include "heads_view.h"
#include "heatmap_plot.h"
#include "history_line_edit.h"
#include "main_window.h"

using namespace attnscope::ui;
using attnscope::testing::ScriptedModuleSpec;
using attnscope::testing::write_scripted_module;

class ScriptedModelViewTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void init();
  void cleanup();
  void layerAndHeadChooseTheMatrixAndTheHeadsTabShowsEveryHead();
  void wordViewMergesPiecesAndTogglesBack();
  void aModelFailingMidSentenceShowsTheMessageAndStaysUsable();

 private:
  void open(const std::string& path);
  void typeAndTranslate(const QString& sentence);
  static void compareWeights(const AttentionMatrix& m,
                             const std::vector<std::vector<float>>& expected);

  QTemporaryDir models_;
  std::unique_ptr<MainWindow> window_;
};

void ScriptedModelViewTest::initTestCase() {
  QVERIFY(models_.isValid());
  const QString made = QString::fromStdString(attnscope::testing::random_model_file("additive"));
  QVERIFY(QFile::copy(made, models_.filePath("additive.attnmodel")));
  qputenv("ATTNSCOPE_MODEL_DIR", models_.path().toUtf8());
  QStandardPaths::setTestModeEnabled(true);
}

void ScriptedModelViewTest::init() {
  window_ = std::make_unique<MainWindow>();
  window_->show();
  QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
  QTRY_COMPARE(window_->modelBox()->currentText(), QString("additive"));
}

void ScriptedModelViewTest::cleanup() { window_.reset(); }

void ScriptedModelViewTest::open(const std::string& path) {
  QSignalSpy opened(window_.get(), &MainWindow::modelOpened);
  window_->openModelFile(QString::fromStdString(path));
  QVERIFY(opened.wait(10000));
}

void ScriptedModelViewTest::typeAndTranslate(const QString& sentence) {
  QSignalSpy updated(window_.get(), &MainWindow::heatmapUpdated);
  window_->sourceEdit()->setText(sentence);
  QTest::keyClick(window_->sourceEdit(), Qt::Key_Return);
  QVERIFY(updated.wait(10000));
  // The step-wise session publishes its steps; wait until the worker has shown the last.
  QVERIFY(QTest::qWaitFor([&] { return !window_->controller()->busy(); }, 20000));
}

void ScriptedModelViewTest::compareWeights(const AttentionMatrix& m,
                                           const std::vector<std::vector<float>>& expected) {
  QCOMPARE(m.rows(), static_cast<int>(expected.size()));
  for (int r = 0; r < m.rows(); ++r) {
    QCOMPARE(m.weights[r].size(), static_cast<int>(expected[r].size()));
    for (int c = 0; c < m.columns(); ++c) QVERIFY(qAbs(m.weights[r][c] - expected[r][c]) < 1e-6);
  }
}

void ScriptedModelViewTest::layerAndHeadChooseTheMatrixAndTheHeadsTabShowsEveryHead() {
  const std::string path = write_scripted_module({2, 4}, "heads");
  const attnscope::Translation expected = attnscope::Translator(path).translate("a b c");
  open(path);
  typeAndTranslate("a b c");
  AttentionViewControls* controls = window_->viewControls();
  QVERIFY(controls->isVisible());
  QVERIFY(!controls->wordsBox()->isVisible());  // not a subword model
  QCOMPARE(controls->layerBox()->count(), 2);
  QCOMPARE(controls->headBox()->count(), 5);  // the mean, then 4 heads
  QCOMPARE(window_->heatmap()->matrix().title, QString("layer 2 · mean of heads"));
  compareWeights(window_->heatmap()->matrix(), expected.attention);

  controls->layerBox()->setCurrentIndex(0);
  controls->headBox()->setCurrentIndex(3);
  QCOMPARE(window_->heatmap()->matrix().title, QString("layer 1 · head 3"));
  compareWeights(window_->heatmap()->matrix(), expected.attention_for({0, 2}));
  typeAndTranslate("a b d");  // the choice stays for the next sentence
  QCOMPARE(window_->heatmap()->matrix().title, QString("layer 1 · head 3"));

  QVERIFY(window_->tabs()->isTabEnabled(2));
  window_->tabs()->setCurrentIndex(2);
  HeadsView* heads = window_->headsView();
  QCOMPARE(heads->plots().size(), 5);
  QCOMPARE(heads->plots()[0]->matrix().title, QString("heads · layer 2 · head 1"));
  QCOMPARE(heads->plots()[4]->matrix().title, QString("heads · layer 2 · mean of heads"));
  heads->layerBox()->setCurrentIndex(0);
  QCOMPARE(heads->plots()[2]->matrix().title, QString("heads · layer 1 · head 3"));
  compareWeights(heads->plots()[2]->matrix(),
                 attnscope::Translator(path).translate("a b d").attention_for({0, 2}));

  window_->tabs()->setCurrentIndex(0);
  window_->selectModel("additive");  // attnscope's own model: one matrix, no choice
  typeAndTranslate("a b");
  QVERIFY(!controls->isVisible());
  QVERIFY(!window_->tabs()->isTabEnabled(2));
  QCOMPARE(window_->heatmap()->matrix().title, QString());
}

void ScriptedModelViewTest::wordViewMergesPiecesAndTogglesBack() {
  ScriptedModuleSpec spec;
  spec.vocabulary = {"<s>", "</s>", "<unk>", "ab@@", "c", "ab", "d@@", "e"};
  spec.subword_marker = "@@";
  open(write_scripted_module(spec, "pieces"));
  typeAndTranslate("abc ab de");
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
  open(path);  // the probe step at load is fine
  window_->sourceEdit()->setText("a b c");
  QTest::keyClick(window_->sourceEdit(), Qt::Key_Return);
  QMessageBox* box = nullptr;
  QTRY_VERIFY((box = window_->findChild<QMessageBox*>()) != nullptr);
  QVERIFY(box->text().contains("step() returned attention rows that do not sum to 1"));
  QVERIFY(box->text().contains(QString::fromStdString(path)));
  box->close();
  typeAndTranslate("a");  // a sentence it can decode still works
  QCOMPARE(window_->heatmap()->matrix().targetTokens, QStringList({"a", "</s>"}));
}

QTEST_MAIN(ScriptedModelViewTest)
#include "scripted_model_view_test.moc"
