// QtTest (offscreen) of the BLEU-by-length plot: one line per model with a point per bucket, a
// gap where a bucket is empty, and pictures written in each format.
#include "length_plot.h"

#include <QImage>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "exporter.h"

using namespace attnscope::ui;

class LengthPlotTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void oneLinePerModelWithAPointPerBucket();
  void exportsPicturesAndRefusesOtherFormats();
};

namespace {

QList<LengthSeries> twoModels() {
  return {{"additive", {40.0, 35.0, 30.0, std::nan("")}}, {"none", {38.0, 25.0, 12.0, 5.0}}};
}

const QStringList kBuckets = {"1–10\n(3)", "11–20\n(2)", "21–30\n(1)", "31+\n(0)"};

}  // namespace

void LengthPlotTest::oneLinePerModelWithAPointPerBucket() {
  LengthPlot plot;
  plot.setSeries(kBuckets, twoModels());
  QCOMPARE(plot.graphCount(), 2);
  QCOMPARE(plot.graph(0)->name(), QString("additive"));
  QCOMPARE(plot.graph(1)->name(), QString("none"));
  QCOMPARE(plot.graph(1)->data()->size(), 4);
  QCOMPARE(plot.graph(1)->data()->at(2)->value, 12.0);
  QVERIFY(std::isnan(plot.graph(0)->data()->at(3)->value));  // an empty bucket: a gap
  QVERIFY(plot.graph(0)->pen().color() != plot.graph(1)->pen().color());
  QVERIFY(plot.yAxis->range().upper >= 40.0);
  QCOMPARE(plot.yAxis->range().lower, 0.0);
  const auto ticks = qSharedPointerCast<QCPAxisTickerText>(plot.xAxis->ticker())->ticks();
  QCOMPARE(ticks.size(), 4);
  QCOMPARE(ticks.value(0), kBuckets[0]);
  // Setting new series replaces the old ones.
  plot.setSeries(kBuckets, {twoModels().front()});
  QCOMPARE(plot.graphCount(), 1);
}

void LengthPlotTest::exportsPicturesAndRefusesOtherFormats() {
  QTemporaryDir dir;
  LengthPlot plot;
  plot.setSeries(kBuckets, twoModels());
  ExportOptions options;
  options.size = QSize(640, 400);
  exportPlot(&plot, dir.filePath("plot.png"), options);
  const QImage image(dir.filePath("plot.png"));
  QCOMPARE(image.size(), QSize(640, 400));
  // Something was drawn in the first line's colour (#1f77b4).
  bool blue = false;
  for (int y = 0; y < image.height() && !blue; ++y)
    for (int x = 0; x < image.width() && !blue; ++x)
      blue = image.pixelColor(x, y) == QColor("#1f77b4");
  QVERIFY(blue);
  exportPlot(&plot, dir.filePath("plot.svg"), options);
  QFile svg(dir.filePath("plot.svg"));
  QVERIFY(svg.open(QIODevice::ReadOnly));
  QVERIFY(svg.readAll().contains("<svg"));
  exportPlot(&plot, dir.filePath("plot.pdf"), options);
  QVERIFY(QFileInfo(dir.filePath("plot.pdf")).size() > 1000);
  try {
    exportPlot(&plot, dir.filePath("plot.csv"), options);
    QFAIL("a CSV plot was written");
  } catch (const std::runtime_error& e) {
    QVERIFY(QString(e.what()).contains("unknown picture type '.csv'"));
  }
  QVERIFY(!QFileInfo::exists(dir.filePath("plot.csv")));
}

QTEST_MAIN(LengthPlotTest)
#include "length_plot_test.moc"
