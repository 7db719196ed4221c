// QtTest (offscreen) of the BLEU-by-length plot: one line per model with a point per bucket, a
// gap where a bucket is empty, and pictures written in each format.
#include "plots/length_plot.h"

#include <QImage>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "render/exporter.h"

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

// Whether a pixel within `radius` of `point` in `image` has `colour`, give or take a little: an
// antialiased line is blended with the background at its edges.
bool colourNear(const QImage& image, QPointF point, const QColor& colour, int radius = 2) {
  constexpr int kTolerance = 24;  // summed over red, green and blue, of 765
  for (int dy = -radius; dy <= radius; ++dy)
    for (int dx = -radius; dx <= radius; ++dx) {
      const QColor c = image.pixelColor(qRound(point.x()) + dx, qRound(point.y()) + dy);
      const int distance = qAbs(c.red() - colour.red()) + qAbs(c.green() - colour.green()) +
                           qAbs(c.blue() - colour.blue());
      if (distance <= kTolerance) return true;
    }
  return false;
}

// Where graph `g` of `plot` puts the point (bucket, value) on the picture.
QPointF at(const LengthPlot& plot, int g, double bucket, double value) {
  return {plot.graph(g)->keyAxis()->coordToPixel(bucket),
          plot.graph(g)->valueAxis()->coordToPixel(value)};
}

}  // namespace

void LengthPlotTest::oneLinePerModelWithAPointPerBucket() {
  LengthPlot plot;
  QVERIFY(!plot.legend->visible());  // no lines yet: no empty legend box
  plot.setSeries(kBuckets, twoModels());
  QVERIFY(plot.legend->visible());
  QCOMPARE(plot.graphCount(), 2);
  QCOMPARE(plot.graph(0)->name(), QString("additive"));
  QCOMPARE(plot.graph(1)->name(), QString("none"));
  // A point per bucket, at the bucket's place and its BLEU.
  for (int g = 0; g < 2; ++g) {
    const QVector<double> bleu = twoModels()[g].bleu;
    QCOMPARE(plot.graph(g)->data()->size(), 4);
    for (int b = 0; b < 4; ++b) {
      QCOMPARE(plot.graph(g)->data()->at(b)->key, double(b));
      if (!std::isnan(bleu[b])) QCOMPARE(plot.graph(g)->data()->at(b)->value, bleu[b]);
    }
  }
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
  // The widget laid out at the picture's size: its axes map data to the picture's pixels.
  plot.resize(options.size);
  plot.replot();
  exportPlot(&plot, dir.filePath("plot.png"), options);
  const QImage image(dir.filePath("plot.png"));
  QCOMPARE(image.size(), QSize(640, 400));
  // Each line is drawn in its colour through its points, inside the axes and away from the
  // legend (whose swatches have the same colours): halfway between buckets 0 and 1, and 1 and 2.
  const QRect legend = plot.legend->outerRect();
  const QRect axes = plot.axisRect()->rect();
  for (int g = 0; g < 2; ++g) {
    const QColor colour = plot.graph(g)->pen().color();
    const QVector<double> bleu = twoModels()[g].bleu;
    for (int b = 0; b < 2; ++b) {
      const QPointF middle = at(plot, g, b + 0.5, (bleu[b] + bleu[b + 1]) / 2);
      QVERIFY(axes.contains(middle.toPoint()) && !legend.contains(middle.toPoint()));
      QVERIFY2(colourNear(image, middle, colour),
               qPrintable(QStringLiteral("no %1 line at (%2, %3)")
                              .arg(colour.name())
                              .arg(middle.x())
                              .arg(middle.y())));
    }
  }
  // The gap: no segment of the first line towards its empty last bucket.
  const QColor first = plot.graph(0)->pen().color();
  const double gapX = at(plot, 0, 2.5, 0).x();
  for (int y = axes.top(); y <= axes.bottom(); ++y)
    QVERIFY2(!colourNear(image, QPointF(gapX, y), first, 0), qPrintable(QString::number(y)));
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
