// QtTest (offscreen) of the Corpus tab's faithfulness columns: off by default (the run stays
// fast and the columns hidden); checked, a run gives each model with attention numbers in range
// and the baseline without attention "n/a" saying why; the JSON export carries them.
#include <attnscope/score_functions.h>

#include <QCheckBox>
#include <QFile>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "core/app_settings.h"
#include "engine/test_models.h"
#include "tabs/corpus_view.h"
#include "ui/fixture.h"

using namespace attnscope::ui;

class CorpusFaithfulnessTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void offByDefaultWithHiddenColumns();
  void checkedGivesFiguresInRangeAndNotApplicableWithoutAttention();

 private:
  bool runToEnd(CorpusView& view);

  QTemporaryDir dir_;
  QString additive_, none_, source_;
};

// The columns: τ (IG), τ (LOO), TVD permuted, TVD uniform, argmax permuted, argmax uniform.
constexpr int kFirst = 8, kLast = 13;

void CorpusFaithfulnessTest::initTestCase() {
  QVERIFY(dir_.isValid());
  QVERIFY(test::isolateSettings());
  additive_ = QString::fromStdString(attnscope::testing::random_model_file("additive"));
  none_ = QString::fromStdString(attnscope::testing::random_model_file(attnscope::kNoAttention));
  source_ = dir_.filePath("source.txt");
  QFile file(source_);
  QVERIFY(file.open(QIODevice::WriteOnly));
  file.write("a b c d\nb c\nj i h g f e\na\n");
}

bool CorpusFaithfulnessTest::runToEnd(CorpusView& view) {
  QSignalSpy ended(&view, &CorpusView::runEnded);
  QSignalSpy errors(&view, &CorpusView::errorOccurred);
  view.run();
  UI_VERIFY(ended.wait(120000));
  UI_VERIFY(!view.isRunning());
  UI_COMPARE(errors.count(), 0);
  return true;
}

void CorpusFaithfulnessTest::offByDefaultWithHiddenColumns() {
  CorpusView view;
  view.setModels({{"additive", additive_}});
  view.setFiles(source_, QString());
  QVERIFY(!view.faithfulnessBox()->isChecked());
  QVERIFY(runToEnd(view));
  QVERIFY(!view.report().hasFaithfulness());
  QTableWidget* metrics = view.metricsTable();
  QCOMPARE(metrics->columnCount(), kLast + 1);
  for (int c = kFirst; c <= kLast; ++c) {
    QVERIFY2(metrics->isColumnHidden(c), qPrintable(QString::number(c)));
    // Each header says what its figure is.
    QVERIFY(!metrics->horizontalHeaderItem(c)->toolTip().isEmpty());
  }
  QCOMPARE(view.progressBar()->maximum(), 4);  // 4 sentences, decoded once
}

void CorpusFaithfulnessTest::checkedGivesFiguresInRangeAndNotApplicableWithoutAttention() {
  CorpusView view;
  view.setModels({{"additive", additive_}, {"none", none_}});
  view.setFiles(source_, QString());
  view.faithfulnessBox()->setChecked(true);
  const int units = AppSettings().corpusPace().faithfulnessUnits();  // as the run will weigh it
  QVERIFY(runToEnd(view));
  // 4 sentences × 2 models × (decoded once, measured at the faithfulness tests' weight)
  QCOMPARE(view.progressBar()->maximum(), 4 * 2 * (1 + units));
  QCOMPARE(view.report().faithfulness.size(), size_t{2});
  QTableWidget* metrics = view.metricsTable();
  QCOMPARE(metrics->rowCount(), 2);
  for (int c = kFirst; c <= kLast; ++c) {
    QVERIFY(!metrics->isColumnHidden(c));
    const QString text = metrics->item(0, c)->text();
    const bool percent = text.endsWith('%');
    bool number = false;
    const double value = QString(text).remove('%').toDouble(&number);
    QVERIFY2(number, qPrintable(text));
    if (c < kFirst + 2) {  // Kendall τ
      QVERIFY2(value >= -1 && value <= 1, qPrintable(text));
    } else if (!percent) {  // total variation distance
      QVERIFY2(value >= 0 && value <= 1, qPrintable(text));
    } else {
      QVERIFY2(value >= 0 && value <= 100, qPrintable(text));
    }
    QCOMPARE(percent, c >= kFirst + 4);
    // The baseline has no attention: n/a, and the tooltip says so.
    QCOMPARE(metrics->item(1, c)->text(), QString("n/a"));
    QVERIFY2(metrics->item(1, c)->toolTip().contains("no attention"),
             qPrintable(metrics->item(1, c)->toolTip()));
  }
  const attnscope::ModelFaithfulness& f = view.report().faithfulness.front();
  QVERIFY(f.steps > 0);
  QCOMPARE(f.permuted.trials, f.steps * 10);

  // The JSON export has the figures, null for the baseline.
  const QString json = dir_.filePath("corpus.json");
  view.exportTables(json);
  QFile file(json);
  QVERIFY(file.open(QIODevice::ReadOnly));
  const QJsonArray models = QJsonDocument::fromJson(file.readAll()).object()["models"].toArray();
  QCOMPARE(models.size(), 2);
  const QJsonObject additive = models[0].toObject()["faithfulness"].toObject();
  QVERIFY(additive["tvd_uniform"].isDouble());
  QVERIFY(additive["tau_loo"].isDouble());
  const QJsonObject none = models[1].toObject()["faithfulness"].toObject();
  QVERIFY(none["tvd_uniform"].isNull());
  QVERIFY(none["unavailable"].toObject()["tau_ig"].toString().contains("no attention"));
}

QTEST_MAIN(CorpusFaithfulnessTest)
#include "corpus_faithfulness_test.moc"
