// QtTest (offscreen) of the heatmap grid the Compare and Heads tabs show: one colour scale over
// all its heatmaps, a hovered cell outlined in every one and named in the tooltip, one gradient
// for all, including heatmaps added later.
#include "widgets/heatmap_grid.h"

#include <QGridLayout>
#include <QSignalSpy>
#include <QToolTip>
#include <QtTest>

#include "plots/colormaps.h"
#include "plots/heatmap_plot.h"

using namespace attnscope::ui;

class HeatmapGridTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void everyPlotHasTheColourScaleOfTheLargestWeight();
  void hoveringACellNamesItAndOutlinesItEverywhere();
  void theGradientReachesEveryPlotAndLaterOnes();
  void plotsAreLaidOutRowByRowAndKeptWhenTheCountChanges();
};

namespace {

// Two target rows ("x", "y") over three source columns ("a", "b", "c"), `largest` in the last cell.
AttentionMatrix matrix(const QString& title, double largest) {
  AttentionMatrix m;
  m.title = title;
  m.sourceTokens = {"a", "b", "c"};
  m.targetTokens = {"x", "y"};
  m.weights = {{0.1, 0.2, 0.05}, {0.0, 0.1, largest}};
  return m;
}

}  // namespace

void HeatmapGridTest::everyPlotHasTheColourScaleOfTheLargestWeight() {
  HeatmapGrid grid;
  grid.setPlotCount(3, 3);
  grid.setMatrices({matrix("one", 0.3), matrix("two", 0.9), matrix("three", 0.5)});
  for (HeatmapPlot* plot : grid.plots()) QCOMPARE(plot->dataRange(), QCPRange(0.0, 0.9));
  // The scale follows the matrices shown, down as well as up.
  grid.setMatrices({matrix("one", 0.3), matrix("two", 0.4), matrix("three", 0.2)});
  for (HeatmapPlot* plot : grid.plots()) QCOMPARE(plot->dataRange(), QCPRange(0.0, 0.4));
  QCOMPARE(grid.plots()[1]->matrix().title, QString("two"));
}

void HeatmapGridTest::hoveringACellNamesItAndOutlinesItEverywhere() {
  HeatmapGrid grid;
  grid.resize(900, 400);
  grid.setPlotCount(3, 3);
  grid.setMatrices({matrix("one", 0.3), matrix("two", 0.9), matrix("three", 0.5)});
  grid.show();
  QVERIFY(QTest::qWaitForWindowExposed(&grid));
  HeatmapPlot* hovered = grid.plots()[1];
  hovered->replot();  // lays the axes out at the plot's size
  const QPoint cell(qRound(hovered->xAxis->coordToPixel(2)),
                    qRound(hovered->yAxis->coordToPixel(1)));  // column "c", row "y"
  QCOMPARE(hovered->cellAt(cell), QPoint(2, 1));
  QSignalSpy highlighted(&grid, &HeatmapGrid::cellHighlighted);

  QMouseEvent move(QEvent::MouseMove, cell, hovered->mapToGlobal(cell), Qt::NoButton, Qt::NoButton,
                   Qt::NoModifier);
  QApplication::sendEvent(hovered, &move);
  QTRY_VERIFY(QToolTip::isVisible());
  QVERIFY2(QToolTip::text().startsWith("source: c\ntarget: y\nweight: 0.9000"),
           qPrintable(QToolTip::text()));
  for (HeatmapPlot* plot : grid.plots()) QCOMPARE(plot->highlightedCell(), QPoint(2, 1));
  QCOMPARE(highlighted.size(), 1);
  QCOMPARE(highlighted.front(), QVariantList({1, 2}));  // (row, column)

  QEvent leave(QEvent::Leave);
  QApplication::sendEvent(hovered, &leave);
  for (HeatmapPlot* plot : grid.plots()) QCOMPARE(plot->highlightedCell(), QPoint(-1, -1));
}

void HeatmapGridTest::theGradientReachesEveryPlotAndLaterOnes() {
  HeatmapGrid grid;
  grid.setPlotCount(2, 2);
  const QCPColorGradient magma = colormap("magma");
  QVERIFY(grid.plots()[0]->gradient() != magma);
  grid.setGradient(magma);
  for (HeatmapPlot* plot : grid.plots()) QVERIFY(plot->gradient() == magma);
  grid.setPlotCount(5, 3);
  for (HeatmapPlot* plot : grid.plots()) QVERIFY(plot->gradient() == magma);
}

void HeatmapGridTest::plotsAreLaidOutRowByRowAndKeptWhenTheCountChanges() {
  HeatmapGrid grid;
  grid.setPlotCount(5, 3);
  auto* layout = qobject_cast<QGridLayout*>(grid.layout());
  QVERIFY(layout != nullptr);
  const auto positionOf = [&](HeatmapPlot* plot) {
    int row = -1, column = -1, rowSpan = 0, columnSpan = 0;
    layout->getItemPosition(layout->indexOf(plot), &row, &column, &rowSpan, &columnSpan);
    return QPoint(column, row);
  };
  QCOMPARE(positionOf(grid.plots()[2]), QPoint(2, 0));
  QCOMPARE(positionOf(grid.plots()[3]), QPoint(0, 1));
  const QList<HeatmapPlot*> before = grid.plots();
  grid.setPlotCount(3, 2);
  QCOMPARE(grid.plots(), before.mid(0, 3));
  QCOMPARE(layout->count(), 3);
  QCOMPARE(positionOf(grid.plots()[2]), QPoint(0, 1));
}

QTEST_MAIN(HeatmapGridTest)
#include "heatmap_grid_test.moc"
