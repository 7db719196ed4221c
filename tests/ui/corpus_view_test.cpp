// QtTest (offscreen) of the Corpus tab: a run over small test sets with untrained models (the
// baseline without attention among them), its plot, tables, exports, cancel and bad input, and a
// double-clicked sentence opening in the Translation tab.
#include "tabs/corpus_view.h"

#include <attnscope/score_functions.h>

#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "core/app_settings.h"
#include "engine/test_models.h"
#include "plots/length_plot.h"
#include "ui/fixture.h"
#include "widgets/history_line_edit.h"
#include "window/main_window.h"

using namespace attnscope::ui;

class CorpusViewTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void measuresEveryCheckedModelInPlotAndTables();
  void sentenceTableSortsByValueAndFilters();
  void withoutReferenceMeasuresAttentionOnly();
  void exportsTablesAsCsvAndJsonAndThePlot();
  void cancelStopsTheRunAndKeepsTheLastReport();
  void badFilesGiveOneLineNamingTheFile();
  void trainingTargetGivesTheLeakShare();
  void doubleClickedSentenceOpensInTheTranslationTab();
  void aReferenceChecksTheModelsOfItsLanguage();
  void theTabSaysItsSearchAndHowLongARunTakes();

 private:
  // A file of `lines` sentences over the toy vocabulary, of 2 to 35 words.
  QString writeLines(const QString& name, int lines, int seed);
  // Runs `view` and waits for the run to end.
  bool runToEnd(CorpusView& view);

  QTemporaryDir dir_;
  QString additive_, none_;
  QString source_, reference_;
};

void CorpusViewTest::initTestCase() {
  QVERIFY(dir_.isValid());
  QVERIFY(test::isolateSettings());
  additive_ = QString::fromStdString(attnscope::testing::random_model_file("additive"));
  none_ = QString::fromStdString(attnscope::testing::random_model_file(attnscope::kNoAttention));
  source_ = writeLines("source.txt", 30, 1);
  reference_ = writeLines("reference.txt", 30, 2);
}

QString CorpusViewTest::writeLines(const QString& name, int lines, int seed) {
  const QString path = dir_.filePath(name);
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return {};
  for (int i = 0; i < lines; ++i) {
    const int words = 1 + (i * 7 + seed) % 35;
    QStringList line;
    for (int w = 0; w < words; ++w) line << QString(QChar('a' + (i + w * seed) % 10));
    file.write(line.join(' ').toUtf8() + '\n');
  }
  return path;
}

bool CorpusViewTest::runToEnd(CorpusView& view) {
  QSignalSpy ended(&view, &CorpusView::runEnded);
  view.run();
  return ended.wait(60000) && !view.isRunning();
}

void CorpusViewTest::measuresEveryCheckedModelInPlotAndTables() {
  CorpusView view;
  view.setModels({{"additive", additive_}, {"none", none_}});
  view.setFiles(source_, reference_);
  QVERIFY(view.runButton()->isEnabled());
  QSignalSpy errors(&view, &CorpusView::errorOccurred);
  QVERIFY(runToEnd(view));
  QCOMPARE(errors.count(), 0);
  const CorpusReport& report = view.report();
  QCOMPARE(report.models, QStringList({"additive", "none"}));
  QCOMPARE(report.evaluations.size(), size_t{2});
  QCOMPARE(view.progressBar()->value(), view.progressBar()->maximum());
  QCOMPARE(view.progressBar()->maximum(), 60);  // 30 sentences × 2 models

  // The plot: a line per model, a point per length bucket.
  QCOMPARE(view.plot()->graphCount(), 2);
  QCOMPARE(view.plot()->graph(1)->name(), QString("none"));
  QCOMPARE(view.plot()->graph(0)->data()->size(), 4);
  size_t bucketed = 0;
  for (size_t n : report.evaluations.front().sentences_by_length) bucketed += n;
  QCOMPARE(bucketed, size_t{30});

  // The metrics: a row per model; the baseline has BLEU but no attention figures.
  QTableWidget* metrics = view.metricsTable();
  QCOMPARE(metrics->rowCount(), 2);
  QCOMPARE(metrics->item(1, 0)->text(), QString("none"));
  QVERIFY(metrics->item(1, 1)->text() != QString("–"));
  QCOMPARE(metrics->item(0, 3)->text(), QString("–"));  // no training target: no leak share
  QVERIFY(metrics->isColumnHidden(3));                  // so the plot keeps its room
  for (int c = 4; c < 8; ++c) {
    QCOMPARE(metrics->item(1, c)->text(), QString("–"));
    bool number = false;
    metrics->item(0, c)->text().toDouble(&number);
    QVERIFY2(number, qPrintable(metrics->item(0, c)->text()));
  }

  // The sentences: a row per source line for the chosen model, its own translation in it.
  QCOMPARE(view.sentenceRows()->rowCount(), 30);
  view.sentenceModelBox()->setCurrentIndex(1);
  QCOMPARE(view.sentenceRows()->rowCount(), 30);
  const QAbstractItemModel* rows = view.sentenceRows();
  const QString translation = QString::fromStdString(report.evaluations[1].translations[0].text());
  bool found = false;
  for (int r = 0; r < rows->rowCount(); ++r)
    found |= rows->index(r, 0).data().toString() == "1" &&
             rows->index(r, 9).data().toString() == translation &&
             rows->index(r, 4).data().toString() == QString("–");  // no entropy without attention
  QVERIFY(found);
}

void CorpusViewTest::sentenceTableSortsByValueAndFilters() {
  CorpusView view;
  view.setModels({{"additive", additive_}});
  view.setFiles(source_, reference_);
  QVERIFY(runToEnd(view));
  QSortFilterProxyModel* rows = view.sentenceRows();
  // By words, longest first: by value (30 before 9), not by text ("9" before "30").
  size_t longest = 0;
  for (const auto& s : view.report().evaluations.front().sentences)
    longest = std::max(longest, s.source_words);
  QCOMPARE(longest, size_t{30});
  view.sentenceTable()->sortByColumn(1, Qt::DescendingOrder);
  int previous = 1000;
  for (int r = 0; r < rows->rowCount(); ++r) {
    const int words = rows->index(r, 1).data().toInt();
    QVERIFY(words <= previous);
    previous = words;
  }
  QCOMPARE(rows->index(0, 1).data().toInt(), 30);
  // The filter keeps the rows whose source or translation holds the text.
  const QString wanted = QString::fromStdString(view.report().sources[3]);
  view.filterEdit()->setText(wanted);
  // Exactly the rows holding it in some column, the wanted line's own among them.
  const QAbstractItemModel* all = rows->sourceModel();
  int holding = 0;
  for (int r = 0; r < all->rowCount(); ++r) {
    bool holds = false;
    for (int c = 0; c < all->columnCount(); ++c)
      holds |= all->index(r, c).data().toString().contains(wanted, Qt::CaseInsensitive);
    holding += holds;
  }
  QCOMPARE(rows->rowCount(), holding);
  QVERIFY(rows->rowCount() >= 1);
  QVERIFY(rows->rowCount() < 30);
  for (int r = 0; r < rows->rowCount(); ++r)
    QVERIFY(rows->index(r, 8).data().toString().contains(wanted) ||
            rows->index(r, 9).data().toString().contains(wanted));
  view.filterEdit()->clear();
  QCOMPARE(rows->rowCount(), 30);
}

void CorpusViewTest::withoutReferenceMeasuresAttentionOnly() {
  CorpusView view;
  view.setModels({{"additive", additive_}});
  view.setFiles(source_, QString());
  QVERIFY(runToEnd(view));
  QVERIFY(!view.report().hasReferences());
  QCOMPARE(view.metricsTable()->item(0, 1)->text(), QString("–"));
  QVERIFY(view.metricsTable()->item(0, 4)->text() != QString("–"));
  QCOMPARE(view.sentenceRows()->index(0, 2).data().toString(), QString("–"));
  QVERIFY(view.plot()->isHidden());
  // A reference opened after the run: the figures shown are still the run's, and it says so.
  view.setFiles(source_, reference_);
  QVERIFY2(view.statusLabel()->text().contains("last run's") &&
               view.statusLabel()->text().contains("reference none"),
           qPrintable(view.statusLabel()->text()));
  view.setFiles(source_, QString());
  QVERIFY_THROWS_EXCEPTION(std::runtime_error, view.exportPlot(dir_.filePath("p.png"), {}));
  // Seven models: every row of the table in view (no plot holds its pane open).
  QList<QPair<QString, QString>> seven;
  for (int i = 0; i < 7; ++i) seven.append({QStringLiteral("model %1").arg(i), additive_});
  view.setModels(seven);
  view.resize(1200, 700);
  view.show();
  QVERIFY(QTest::qWaitForWindowExposed(&view));
  QVERIFY(runToEnd(view));
  QTableWidget* table = view.metricsTable();
  QCOMPARE(table->rowCount(), 7);
  QTRY_VERIFY2(table->rowViewportPosition(6) + table->rowHeight(6) <= table->viewport()->height(),
               qPrintable(QStringLiteral("viewport %1 px").arg(table->viewport()->height())));
}

void CorpusViewTest::exportsTablesAsCsvAndJsonAndThePlot() {
  CorpusView view;
  view.setModels({{"additive", additive_}, {"none", none_}});
  view.setFiles(source_, reference_);
  QVERIFY(runToEnd(view));

  view.exportTables(dir_.filePath("corpus.csv"));
  QFile csv(dir_.filePath("corpus.csv"));
  QVERIFY(csv.open(QIODevice::ReadOnly));
  const QList<QByteArray> lines = csv.readAll().trimmed().split('\n');
  QCOMPARE(lines.size(), 1 + 2 * 30);
  QVERIFY(lines[0].startsWith("model,line,words,bleu,"));
  QVERIFY(lines[1].startsWith("additive,1,"));
  QVERIFY(lines[31].startsWith("none,1,"));

  view.exportTables(dir_.filePath("corpus.json"));
  QFile json(dir_.filePath("corpus.json"));
  QVERIFY(json.open(QIODevice::ReadOnly));
  const QJsonObject root = QJsonDocument::fromJson(json.readAll()).object();
  const QJsonArray models = root["models"].toArray();
  QCOMPARE(models.size(), 2);
  QCOMPARE(models[1].toObject()["model"].toString(), QString("none"));
  QVERIFY(models[1].toObject()["metrics"].isNull());
  QVERIFY(models[0].toObject()["metrics"].toObject()["entropy"].isDouble());
  QCOMPARE(models[0].toObject()["sentences"].toArray().size(), 30);
  QCOMPARE(models[0].toObject()["by_length"].toArray().size(), 4);

  ExportOptions options;
  options.size = QSize(640, 400);
  view.exportPlot(dir_.filePath("plot.png"), options);
  QCOMPARE(QImage(dir_.filePath("plot.png")).size(), QSize(640, 400));
  QVERIFY_THROWS_EXCEPTION(std::runtime_error, view.exportTables(dir_.filePath("t.xlsx")));
}

void CorpusViewTest::cancelStopsTheRunAndKeepsTheLastReport() {
  const QString longSource = writeLines("long.txt", 3000, 3);
  CorpusView view;
  view.setModels({{"additive", additive_}});
  view.setFiles(source_, QString());
  QVERIFY(runToEnd(view));
  const size_t before = view.report().sources.size();
  view.setFiles(longSource, QString());
  QSignalSpy ended(&view, &CorpusView::runEnded);
  view.run();
  QVERIFY(view.isRunning());
  QVERIFY(view.cancelButton()->isEnabled());
  QVERIFY(!view.runButton()->isEnabled());
  QTRY_VERIFY_WITH_TIMEOUT(view.progressBar()->value() > 0, 30000);  // it runs; the window too
  QTest::mouseClick(view.cancelButton(), Qt::LeftButton);
  QVERIFY(ended.wait(30000));
  QVERIFY(!view.isRunning());
  QVERIFY(view.progressBar()->value() < 3000);
  QVERIFY2(view.progressBar()->value() > 0, "the bar stays where the run stopped");
  QCOMPARE(view.report().sources.size(), before);  // the last finished run stays shown
  QVERIFY(view.runButton()->isEnabled());
}

void CorpusViewTest::badFilesGiveOneLineNamingTheFile() {
  CorpusView view;
  view.setModels({{"additive", additive_}});
  const auto failure = [&](const QString& source, const QString& reference) {
    view.setFiles(source, reference);
    QSignalSpy errors(&view, &CorpusView::errorOccurred);
    if (!runToEnd(view) || errors.count() != 1) return QString();
    return errors.front().front().toString();
  };
  const QString missing = dir_.filePath("missing.txt");
  QString message = failure(missing, QString());
  QVERIFY2(message.contains(missing) && !message.contains('\n'), qPrintable(message));
  message = failure(source_, writeLines("short.txt", 5, 2));
  QVERIFY2(message.contains("short.txt") && message.contains("30"), qPrintable(message));
  QFile latin1(dir_.filePath("latin1.txt"));
  QVERIFY(latin1.open(QIODevice::WriteOnly));
  latin1.write("a b\nd\xe9j\xe0 c\n");
  latin1.close();
  message = failure(latin1.fileName(), QString());
  QVERIFY2(message.contains("latin1.txt") && message.contains("line 2"), qPrintable(message));
  QFile empty(dir_.filePath("empty.txt"));
  QVERIFY(empty.open(QIODevice::WriteOnly));
  empty.close();
  message = failure(empty.fileName(), QString());
  QVERIFY2(message.contains("empty.txt"), qPrintable(message));
  // A model file that went bad since it was listed.
  QFile broken(dir_.filePath("broken.attnmodel"));
  QVERIFY(broken.open(QIODevice::WriteOnly));
  broken.write("not a model");
  broken.close();
  view.setModels({{"broken", broken.fileName()}});
  message = failure(source_, QString());
  QVERIFY2(message.contains("broken"), qPrintable(message));
}

void CorpusViewTest::trainingTargetGivesTheLeakShare() {
  // A training target that has only "a" and "b": every other source word the models write
  // is a leak (the source lines are lowercase letters).
  QFile target(dir_.filePath("train.tgt"));
  QVERIFY(target.open(QIODevice::WriteOnly));
  target.write("a b\nb a\n");
  target.close();
  CorpusView view;
  view.setModels({{"additive", additive_}});
  view.setFiles(source_, reference_);
  view.setTrainingTarget(target.fileName());
  QVERIFY(runToEnd(view));
  const attnscope::CorpusEvaluation& e = view.report().evaluations.at(0);
  QVERIFY(e.has_leak);
  // Counted here the long way: output words that are source words other than a and b.
  size_t leaked = 0, words = 0;
  for (size_t i = 0; i < e.translations.size(); ++i) {
    const QStringList source = QString::fromStdString(view.report().sources[i]).split(' ');
    for (const std::string& w : e.translations[i].words()) {
      const QString word = QString::fromStdString(w);
      ++words;
      leaked += source.contains(word) && word != "a" && word != "b" ? 1 : 0;
    }
  }
  QCOMPARE(e.copy.leak.leaked_words, leaked);
  QCOMPARE(e.copy.leak.output_words, words);
  QVERIFY(leaked > 0);
  QVERIFY(!view.metricsTable()->isColumnHidden(3));
  const QString shown = view.metricsTable()->item(0, 3)->text();
  QCOMPARE(shown, QString::number(100.0 * leaked / words, 'f', 2) + "%");
  QVERIFY(view.metricsTable()->item(0, 3)->toolTip().contains(QString::number(leaked)));

  view.exportTables(dir_.filePath("leak.json"));
  QFile json(dir_.filePath("leak.json"));
  QVERIFY(json.open(QIODevice::ReadOnly));
  const QJsonObject root = QJsonDocument::fromJson(json.readAll()).object();
  QCOMPARE(root["training_target"].toString(), target.fileName());
  const QJsonObject model = root["models"].toArray()[0].toObject();
  QCOMPARE(model["leak"].toObject()["leaked_words"].toInt(), static_cast<int>(leaked));

  // A training target that cannot be read: one line naming it, no report replaced.
  const QString missing = dir_.filePath("missing.tgt");
  view.setTrainingTarget(missing);
  QSignalSpy errors(&view, &CorpusView::errorOccurred);
  QVERIFY(runToEnd(view));
  QCOMPARE(errors.count(), 1);
  const QString message = errors.front().front().toString();
  QVERIFY2(message.contains(missing) && !message.contains('\n'), qPrintable(message));
  view.setTrainingTarget(QString());  // the setting is remembered: leave none for other tests
}

// The models translating into the reference's language (its file name's) are the ones checked.
void CorpusViewTest::aReferenceChecksTheModelsOfItsLanguage() {
  CorpusView view;
  const QString before = AppSettings().corpusReference();
  view.setFiles(source_, reference_);  // says no language
  const QString french = QString::fromUtf8("additive (en→fr)");
  view.setModels({{"additive", additive_}, {french, additive_}, {"none", none_}},
                 {{"additive", "en-de"}, {french, "en-fr"}, {"none", "en-de"}});
  view.addModel("mine", additive_);  // an opened file: its pair unknown here, left as it is
  const auto checked = [&] {
    QStringList names;
    for (int i = 0; i < view.modelList()->count(); ++i)
      if (view.modelList()->item(i)->checkState() == Qt::Checked)
        names << view.modelList()->item(i)->text();
    return names;
  };
  QCOMPARE(checked(), QStringList({"additive", "none", "mine"}));  // the default pair's
  const QString frenchReference = dir_.filePath("test.fr");
  QVERIFY(QFile::copy(reference_, frenchReference));
  view.setFiles(source_, frenchReference);
  QCOMPARE(checked(), QStringList({french, "mine"}));
  QVERIFY2(view.modelList()->item(1)->toolTip().startsWith(QString::fromUtf8("English → French")),
           qPrintable(view.modelList()->item(1)->toolTip()));
  view.setFiles(source_, reference_);  // no language: the user's choice stays
  QCOMPARE(checked(), QStringList({french, "mine"}));
  view.setFiles(source_, dir_.filePath("test_2016_flickr.de.gz"));
  QCOMPARE(checked(), QStringList({"additive", "none", "mine"}));
  // A name ending in two letters no model writes ("refs.md") says no language: nothing is
  // unticked, Run stays enabled.
  const QString markdown = dir_.filePath("refs.md");
  QVERIFY(QFile::copy(reference_, markdown));
  view.setFiles(source_, markdown);
  QCOMPARE(checked(), QStringList({"additive", "none", "mine"}));
  QVERIFY(view.runButton()->isEnabled());
  // Unticked by the user: Run says why it is greyed.
  for (int i = 0; i < view.modelList()->count(); ++i)
    view.modelList()->item(i)->setCheckState(Qt::Unchecked);
  QVERIFY(!view.runButton()->isEnabled());
  QVERIFY2(view.runButton()->toolTip().contains(QStringLiteral("Tick at least one model")),
           qPrintable(view.runButton()->toolTip()));
  view.setFiles(source_, before);  // the files are remembered: as they were, for other tests
}

void CorpusViewTest::doubleClickedSentenceOpensInTheTranslationTab() {
  QTemporaryDir models;
  QVERIFY(test::provideModels(models, attnscope::score_function_names()));
  MainWindow window;
  window.resize(1200, 800);
  window.show();
  CorpusView* view = window.corpusView();
  // Every shipped model of every pair (the source tree's English->French ones besides these).
  QTRY_VERIFY(view->modelList()->count() >
              static_cast<int>(attnscope::score_function_names().size()));
  // A reference whose name says no language: the default pair's checked, the others not.
  for (int i = 0; i < view->modelList()->count(); ++i) {
    const QListWidgetItem* item = view->modelList()->item(i);
    const bool defaultPair = attnscope::is_score_function(item->text().toStdString());
    QCOMPARE(item->checkState(), defaultPair ? Qt::Checked : Qt::Unchecked);
  }
  for (int i = 0; i < view->modelList()->count(); ++i)  // two are enough here
    if (view->modelList()->item(i)->text() != "general" &&
        view->modelList()->item(i)->text() != "none")
      view->modelList()->item(i)->setCheckState(Qt::Unchecked);
  window.tabs()->setCurrentWidget(view);
  view->setFiles(source_, reference_);
  QVERIFY(runToEnd(*view));
  view->sentenceModelBox()->setCurrentText("none");
  QTableView* table = view->sentenceTable();
  const QModelIndex cell = table->model()->index(4, 8);
  const QString sentence = cell.data().toString();
  QSignalSpy updated(&window, &MainWindow::heatmapUpdated);
  table->scrollTo(cell);
  const QPoint centre = table->visualRect(cell).center();
  QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, centre);
  QTest::mouseDClick(table->viewport(), Qt::LeftButton, {}, centre);
  QVERIFY(updated.wait(10000));
  QCOMPARE(window.tabs()->currentIndex(), 0);
  QCOMPARE(window.modelBox()->currentText(), QString("none"));
  QCOMPARE(window.sourceEdit()->text(), sentence);
}

// Greedy search is said in the tab and its JSON; the estimate counts the ticked models and the
// source's sentences; a run measures this computer's pace for the next estimate; with
// faithfulness the bar counts the tests as the decoding they cost (not one unit a sentence,
// which crossed 50% in seconds and then sat there for minutes).
void CorpusViewTest::theTabSaysItsSearchAndHowLongARunTakes() {
  AppSettings().setCorpusPace(CorpusPace{});
  CorpusView view;
  view.setModels({{"additive", additive_}, {"none", none_}});
  view.setFiles(source_, reference_);
  QVERIFY2(view.estimateLabel()->text().contains("Greedy search"),
           qPrintable(view.estimateLabel()->text()));
  QVERIFY2(view.estimateLabel()->text().contains("30 sentences × 2 models"),
           qPrintable(view.estimateLabel()->text()));
  view.modelList()->item(1)->setCheckState(Qt::Unchecked);
  QVERIFY2(view.estimateLabel()->text().contains("30 sentences × 1 model:"),
           qPrintable(view.estimateLabel()->text()));
  const CorpusPace pace = AppSettings().corpusPace();
  QVERIFY(runToEnd(view));
  QCOMPARE(view.progressBar()->maximum(), 30);
  QVERIFY2(AppSettings().corpusPace().decodeSeconds != pace.decodeSeconds, "pace measured");
  // Faithfulness (on three lines: an untrained model's tests take seconds a sentence).
  view.setFiles(writeLines("three.txt", 3, 5), QString());
  view.faithfulnessBox()->setChecked(true);
  const CorpusPace now = AppSettings().corpusPace();
  QVERIFY(runToEnd(view));
  QCOMPARE(view.progressBar()->maximum(), 3 * (1 + now.faithfulnessUnits()));
  QCOMPARE(view.progressBar()->value(), view.progressBar()->maximum());
  view.exportTables(dir_.filePath("search.json"));
  QFile json(dir_.filePath("search.json"));
  QVERIFY(json.open(QIODevice::ReadOnly));
  QCOMPARE(QJsonDocument::fromJson(json.readAll()).object()["search"].toString(),
           QString("greedy"));
}

QTEST_MAIN(CorpusViewTest)
#include "corpus_view_test.moc"
