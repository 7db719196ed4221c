// Attention files in the window (QT_QPA_PLATFORM=offscreen): an opened file shows its tokens and
// weights on the heatmap with an empty step panel, attnscope's own exports read back exactly, and
// a bad file gives one message box naming the file and the line.
#include <attnscope/attention_file.h>
#include <attnscope/model_catalog.h>

#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QMessageBox>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include "engine/test_models.h"
#include "plots/heatmap_plot.h"
#include "render/exporter.h"
#include "ui/fixture.h"
#include "widgets/attention_file_dialog.h"
#include "widgets/candidates_view.h"
#include "widgets/history_line_edit.h"
#include "widgets/step_panel.h"
#include "window/main_window.h"
#include "workers/decoding_controller.h"

using namespace attnscope::ui;

class AttentionFileTest : public test::WindowTest {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void init();
  void cleanup();
  void exportsReadBackExactly();
  void gridCsvKeepsTokensThatLookLikePlaceMarkers();
  void openedFileShowsItsTokensAndEmptiesTheStepPanel();
  void possibleLinksAreMarked();
  void badFileShowsOneMessageNamingFileAndLine();
  void dialogRemembersTheLastAnswers();

 private:
  QString write(const QString& name, const QByteArray& bytes);

  QTemporaryDir files_;
};

void AttentionFileTest::initTestCase() {
  QVERIFY(files_.isValid());
  QVERIFY(setUpModels({"location"}));
}

void AttentionFileTest::init() { QVERIFY(showWindow("location")); }

void AttentionFileTest::cleanup() { closeWindow(); }

QString AttentionFileTest::write(const QString& name, const QByteArray& bytes) {
  QFile file(files_.filePath(name));
  if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size()) return {};
  return file.fileName();
}

// What the exporter writes, the reader reads back to the last bit: random weights (any double
// the exporter may print), tokens with commas, quotes and non-ASCII letters.
void AttentionFileTest::exportsReadBackExactly() {
  QRandomGenerator random(7);
  AttentionMatrix m;
  m.title = QStringLiteral("additive");
  m.view = QStringLiteral("pieces");
  m.sourceTokens = {"a", "b,c", "\"quoted\"", "straße", "</s>"};
  m.targetTokens = {"ein", "x,\"y\"", "</s>"};
  m.unknownSource = {false, true, false, true, false};
  for (int r = 0; r < m.targetTokens.size(); ++r) {
    QVector<double> row;
    for (int c = 0; c < m.sourceTokens.size(); ++c) row << random.generateDouble() / 3;
    row[0] = r == 0 ? 0.0 : row[0];
    m.weights << row;
  }
  m.weights[1][1] = 1.0;
  m.weights[2][3] = 1e-9;
  for (const bool json : {true, false}) {
    const QByteArray written = json ? matricesToJson({m}) : matricesToCsv({m});
    const std::string text = written.toStdString();
    const AttentionMatrix read = AttentionMatrix::fromAttentionFile(
        attnscope::parse_attention_file({json ? "m.json" : "m.csv", text}, {}));
    QCOMPARE(read.sourceTokens, m.sourceTokens);
    QCOMPARE(read.targetTokens, m.targetTokens);
    QCOMPARE(json ? matricesToJson({read}) : matricesToCsv({read}), written);
    QCOMPARE(read.view, m.view);
    if (json) {
      QCOMPARE(read.weights, m.weights);  // JSON keeps every bit of a double
      QCOMPARE(read.unknownSource, m.unknownSource);
      QCOMPARE(read.title, m.title);
    }
  }
}

// The grid's long CSV fills seven fields per cell; a token "%2" must stay itself, not become
// the row number.
void AttentionFileTest::gridCsvKeepsTokensThatLookLikePlaceMarkers() {
  AttentionMatrix words;
  words.title = QStringLiteral("%3");
  words.sourceTokens = {"%2", "</s>"};
  words.targetTokens = {"%1", "</s>"};
  words.weights = {{0.25, 0.75}, {0.5, 0.5}};
  AttentionMatrix pieces = words;
  pieces.title = QStringLiteral("dot · pieces");
  pieces.view = QStringLiteral("pieces");
  const QStringList lines =
      QString::fromUtf8(matricesToCsv({words, pieces})).split('\n', Qt::SkipEmptyParts);
  QCOMPARE(lines.size(), 1 + 2 * 4);
  QCOMPARE(lines[0], QStringLiteral("model,target_index,target,source_index,source,weight,view"));
  QCOMPARE(lines[1], QStringLiteral("%3,0,%1,0,%2,0.25,"));
  QCOMPARE(lines[5], QString::fromUtf8("dot · pieces,0,%1,0,%2,0.25,pieces"));
}

void AttentionFileTest::openedFileShowsItsTokensAndEmptiesTheStepPanel() {
  // A translation first, so the step panel has a step to lose.
  QSignalSpy updated(window_.get(), &MainWindow::heatmapUpdated);
  window_->translateSentence(QStringLiteral("a b c"));
  QTRY_VERIFY_WITH_TIMEOUT(
      window_->controller()->snapshot() && window_->controller()->snapshot()->finished, 20000);
  Q_EMIT window_->heatmap()->rowClicked(0);
  QCOMPARE(window_->stepPanel()->candidates()->count(),
           static_cast<int>(window_->controller()->snapshot()->steps.at(0).candidates.size()));
  QVERIFY(window_->stepPanel()->candidates()->count() > 0);

  const QString path =
      write("marian.txt", "ein kleiner Hund ||| 0.7,0.2,0.1 0.1,0.1,0.8 0.1,0.8,0.1 0,0.05,0.95\n");
  attnscope::AttentionFileOptions options;
  options.source_text = "a dog";
  updated.clear();
  window_->openAttentionFile(path, options);
  QCOMPARE(updated.count(), 1);
  const AttentionMatrix& shown = window_->heatmap()->matrix();
  QCOMPARE(shown.sourceTokens, QStringList({"a", "dog", "</s>"}));
  QCOMPARE(shown.targetTokens, QStringList({"ein", "kleiner", "Hund", "</s>"}));
  QCOMPARE(shown.rows(), 4);
  QCOMPARE(shown.weights[1], QVector<double>({0.1, 0.1, 0.8}));
  QCOMPARE(window_->heatmap()->currentRow(), -1);
  QCOMPARE(window_->stepPanel()->candidates()->count(), 0);
  QVERIFY(!window_->controller()->snapshot());
  // Clicking a row of a file's heatmap has no step to show, and breaks nothing.
  Q_EMIT window_->heatmap()->rowClicked(1);
  QCOMPARE(window_->stepPanel()->candidates()->count(), 0);
  QVERIFY(window_->findChildren<QMessageBox*>().isEmpty());
}

void AttentionFileTest::possibleLinksAreMarked() {
  attnscope::AttentionFileOptions options;
  options.source_path = write("gold.en", "the house\n").toStdString();
  options.target_path = write("gold.de", "das haus\n").toStdString();
  window_->openAttentionFile(write("gold.talp", "0-0 1p1\n"), options);
  const AttentionMatrix& shown = window_->heatmap()->matrix();
  QCOMPARE(shown.weights, QVector<QVector<double>>({{1.0, 0.0}, {0.0, 0.5}}));
  QVERIFY(shown.isPossibleLink(1, 1));
  QVERIFY(!shown.isPossibleLink(0, 0));
  QVERIFY(shown.title.contains(QStringLiteral("possible links 0.5")));
}

void AttentionFileTest::badFileShowsOneMessageNamingFileAndLine() {
  window_->openAttentionFile(write("good.csv", "target\\source,a\nx,1\n"));
  const QString bad = write("bad.csv", "target\\source,a,b\nx,0.5,0.5\ny,nan,0\n");
  window_->openAttentionFile(bad);
  QTRY_VERIFY(!window_->findChildren<QMessageBox*>().isEmpty());
  const auto boxes = window_->findChildren<QMessageBox*>();
  QCOMPARE(boxes.size(), 1);
  const QString text = boxes.front()->text();
  QVERIFY2(text.contains(QStringLiteral("'%1' line 3").arg(bad)), qPrintable(text));
  QVERIFY2(text.contains(QStringLiteral("not a finite number")), qPrintable(text));
  QVERIFY(!text.contains(QLatin1Char('\n')));
  // The heatmap still shows the last good file, and a directory is refused the same way.
  QCOMPARE(window_->heatmap()->matrix().sourceTokens, QStringList({"a"}));
  boxes.front()->close();
  QTRY_VERIFY(window_->findChildren<QMessageBox*>().isEmpty());
  window_->openAttentionFile(files_.path());
  QTRY_VERIFY(!window_->findChildren<QMessageBox*>().isEmpty());
  QVERIFY(window_->findChildren<QMessageBox*>().front()->text().contains("directory"));
}

void AttentionFileTest::dialogRemembersTheLastAnswers() {
  const QString path = files_.filePath(QStringLiteral("gold.talp"));
  {
    AttentionFileDialog dialog(window_.get());
    dialog.findChild<QLineEdit*>(QStringLiteral("attentionPath"))->setText(path);
    dialog.findChild<QSpinBox*>(QStringLiteral("attentionLine"))->setValue(3);
    dialog.remember();
  }
  AttentionFileDialog again(window_.get());
  QCOMPARE(again.path(), path);
  QCOMPARE(again.options().line, size_t{3});
  QVERIFY(!again.options().format);  // "from the content"
}

QTEST_MAIN(AttentionFileTest)
#include "attention_file_test.moc"
