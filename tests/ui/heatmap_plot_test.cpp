// QtTest (offscreen) of one heatmap: every cell is drawn in its colour, also when the matrix has
// a single row (the first decoding step) or a single column; a long title elided, whole on hover,
// beside a colour scale that keeps its width; the cells' left edge steady while stepping; and the
// step panel's bar chart, whose value name fits its height.
#include "plots/heatmap_plot.h"

#include <QtTest>

#include "plots/attention_bars.h"
#include "plots/colormaps.h"
#include "plots/tick_label_fit.h"
#include "render/exporter.h"

using namespace attnscope::ui;

class HeatmapPlotTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void everyCellIsDrawnInItsColour_data();
  void everyCellIsDrawnInItsColour();
  void aLongTitleIsElidedAndTheScaleKeepsItsWidth();
  void cellNumbersKeepEveryDigit();
  void aVeryLongTokenLeavesTheCellsTheirRoom();
  void theLeftEdgeStaysWhileStepping();
  void aShortBarChartElidesItsValueName();
  void theColourScaleKeepsItsTopWhileStepping();
  void anExportIsReadyForASlideOrAPaper();
  void barsAreDrawnWithTheStepTheyBelongTo();
  void columnLabelsTurnOnlyWhenTheyDoNotFit();
};

// A copied 100-letter word: its labels are cut in the middle (start and mark kept), so the cells
// keep most of the plot; hovering the cell names the whole word.
void HeatmapPlotTest::aVeryLongTokenLeavesTheCellsTheirRoom() {
  const QString word = QStringLiteral("Supercalifragilistic").repeated(5);
  AttentionMatrix m;
  m.targetTokens = {"der", word, "."};
  m.sourceTokens = {"the", word, "."};
  m.copiedFrom = {-1, 1, -1};
  m.copyNotes = {{}, QStringLiteral("copied from source word '%1'").arg(word), {}};
  m.unknownSource = {false, true, false};
  m.weights = {{0.8, 0.1, 0.1}, {0.1, 0.8, 0.1}, {0.1, 0.1, 0.8}};
  HeatmapPlot plot;
  plot.resize(640, 420);
  plot.show();
  QVERIFY(QTest::qWaitForWindowExposed(&plot));
  plot.setMatrix(m);
  plot.replot();
  for (QCPAxis* axis : {plot.xAxis, plot.yAxis}) {
    // The ticks keep the whole word; the label drawn is cut, its mark kept.
    auto ticker = qSharedPointerCast<SparseTickerText>(axis->ticker());
    QVERIFY(ticker->ticks().value(1).startsWith(word));
    const QString shown = axis->tickVectorLabels().value(1);
    QVERIFY2(shown.size() <= 26 && shown.contains(QChar(0x2026)), qPrintable(shown));
    QVERIFY2(
        shown.endsWith(axis == plot.xAxis ? QStringLiteral("(?)") : QStringLiteral("(copied)")),
        qPrintable(shown));
  }
  const QRect cells = plot.axisRect()->rect();
  QVERIFY2(cells.width() > plot.width() / 2, qPrintable(QString::number(cells.width())));
  QVERIFY2(cells.height() > plot.height() / 3, qPrintable(QString::number(cells.height())));
  const QPointF cell(plot.xAxis->coordToPixel(1), plot.yAxis->coordToPixel(1));
  QVERIFY2(plot.toolTipAt(cell.toPoint()).contains(word),
           qPrintable(plot.toolTipAt(cell.toPoint())));
}

// Stepping, a short word after a long one moved the cells' left edge back and forth: within one
// sentence it only ever moves to make room, and a new sentence starts afresh.
void HeatmapPlotTest::theLeftEdgeStaysWhileStepping() {
  const auto firstRows = [](const QStringList& words) {
    AttentionMatrix m;
    m.sourceTokens = {"a", "cyclist", "rides", "."};
    for (const QString& word : words) {
      m.targetTokens << word;
      m.weights.push_back({0.25, 0.25, 0.25, 0.25});
    }
    return m;
  };
  HeatmapPlot plot;
  plot.resize(640, 420);
  plot.show();
  QVERIFY(QTest::qWaitForWindowExposed(&plot));
  const auto leftEdgeFor = [&plot](const AttentionMatrix& m) {
    plot.setMatrix(m);
    plot.replot();
    return plot.axisRect()->rect().left();
  };
  const int first = leftEdgeFor(firstRows({"ein"}));
  const int widened = leftEdgeFor(firstRows({"ein", "fahrradfahrer"}));
  QVERIFY2(widened > first, qPrintable(QString("%1 %2").arg(first).arg(widened)));
  QCOMPARE(leftEdgeFor(firstRows({"ein", "fahrradfahrer", "."})), widened);
  QCOMPARE(leftEdgeFor(firstRows({"ein"})), widened);  // a step back
  AttentionMatrix next = firstRows({"ein"});
  next.sourceTokens = {"a", "dog", "."};
  next.weights = {{0.5, 0.25, 0.25}};
  QCOMPARE(leftEdgeFor(next), first);
}

// Numbers in the cells drop only a leading zero: attributions reach 10 and more.
void HeatmapPlotTest::cellNumbersKeepEveryDigit() {
  AttentionMatrix m;
  m.targetTokens = {"a"};
  m.sourceTokens = {"x", "y", "z", "w"};
  m.weights = {{10.53, -20.1, 0.45, -0.25}};
  HeatmapPlot plot;
  plot.setShowValues(true);
  plot.setMatrix(m);
  QStringList texts;
  for (int i = 0; i < plot.itemCount(); ++i)
    if (auto* text = qobject_cast<QCPItemText*>(plot.item(i)); text && text->visible())
      texts << text->text();
  for (const char* expected : {"10.53", "-20.10", ".45", "-.25"})
    QVERIFY2(texts.contains(QLatin1String(expected)), qPrintable(texts.join(' ')));
}

void HeatmapPlotTest::aLongTitleIsElidedAndTheScaleKeepsItsWidth() {
  AttentionMatrix m;
  m.targetTokens = {"a", "b"};
  m.sourceTokens = {"x", "y", "</s>"};
  m.weights = {{0.5, 0.25, 0.25}, {0.1, 0.2, 0.7}};
  m.title = QStringLiteral(
      "additive · integrated gradients (32 steps): completeness gap 0.003 · words\nwhat if: "
      "zwei männer stehen vor einem gebäude und warten auf den bus");
  HeatmapPlot plot;
  plot.setValueName(QStringLiteral("contribution to log p"));
  plot.resize(320, 260);
  plot.show();  // laid out at its size
  QVERIFY(QTest::qWaitForWindowExposed(&plot));
  plot.setMatrix(m);
  plot.replot();
  const QStringList lines = plot.shownTitle().split('\n');
  QCOMPARE(lines.size(), 2);
  for (const QString& line : lines) {
    QVERIFY2(line.endsWith(QStringLiteral("…")), qPrintable(line));
    QVERIFY(plot.fontMetrics().horizontalAdvance(line) < plot.width());
  }
  QVERIFY(plot.titleRect().right() <= plot.colorScaleRect().left());
  QVERIFY2(plot.colorScaleRect().width() >= 60,
           qPrintable(QString::number(plot.colorScaleRect().width())));
  QCOMPARE(plot.toolTipAt(plot.titleRect().center()), m.title);
  // Wide enough: the title as given, no tooltip needed.
  plot.resize(1600, 400);
  plot.replot();
  QCOMPARE(plot.shownTitle(), m.title);
}

void HeatmapPlotTest::everyCellIsDrawnInItsColour_data() {
  QTest::addColumn<QStringList>("targets");
  QTest::addColumn<QStringList>("sources");
  QTest::newRow("one row") << QStringList{"zwei"} << QStringList{"two", "men", "</s>"};
  QTest::newRow("one column") << QStringList{"a", "b", "c"} << QStringList{"</s>"};
  QTest::newRow("one cell") << QStringList{"</s>"} << QStringList{"</s>"};
  QTest::newRow("three by four") << QStringList{"a", "b", "c"}
                                 << QStringList{"w", "x", "y", "</s>"};
}

void HeatmapPlotTest::everyCellIsDrawnInItsColour() {
  QFETCH(QStringList, targets);
  QFETCH(QStringList, sources);
  AttentionMatrix m;
  m.targetTokens = targets;
  m.sourceTokens = sources;
  // Weights far apart in the colour map, so neighbouring cells differ clearly.
  for (int r = 0; r < targets.size(); ++r) {
    m.weights.emplace_back();
    for (int c = 0; c < sources.size(); ++c)
      m.weights.back().push_back((r * sources.size() + c) % 2 == 0 ? 1.0 : 0.2);
  }
  HeatmapPlot plot;
  plot.setGradient(colormap(QStringLiteral("viridis")));
  plot.setMatrix(m);
  plot.setCurrentRow(-1);  // no frame over the cells
  plot.resize(500, 400);
  plot.replot();
  const QImage image = plot.toPixmap(500, 400).toImage();
  for (int r = 0; r < targets.size(); ++r)
    for (int c = 0; c < sources.size(); ++c) {
      const QPoint centre(qRound(plot.xAxis->coordToPixel(c)), qRound(plot.yAxis->coordToPixel(r)));
      const QColor want = plot.gradient().color(m.weights[r][c], plot.dataRange());
      const QColor got = image.pixelColor(centre);
      QVERIFY2(qAbs(got.red() - want.red()) + qAbs(got.green() - want.green()) +
                       qAbs(got.blue() - want.blue()) <=
                   12,
               qPrintable(QStringLiteral("cell (%1, %2) at (%3, %4) is %5, not %6")
                              .arg(r)
                              .arg(c)
                              .arg(centre.x())
                              .arg(centre.y())
                              .arg(got.name(), want.name())));
    }
}

// The step panel's bars at 1200×800 cut "contribution to log p" at the chart's top: the name is
// broken over two lines, elided only where two lines do not fit, and whole again with room.
void HeatmapPlotTest::aShortBarChartElidesItsValueName() {
  const QString name = QStringLiteral("contribution to log p");
  AttentionBars bars;
  bars.setValueName(name);
  bars.setRow({"a", "dog", "runs"}, {0.5f, 2.0f, -1.0f});
  bars.resize(300, 140);
  bars.show();
  QVERIFY(QTest::qWaitForWindowExposed(&bars));
  bars.replot();
  // Two lines where one does not fit, each within the axis, the whole name still read.
  const QString shortLabel = bars.yAxis->label();
  QVERIFY2(shortLabel.contains('\n'), qPrintable(shortLabel));
  QCOMPARE(QString(shortLabel).replace('\n', ' '), name);
  for (const QString& line : shortLabel.split('\n'))
    QVERIFY(QFontMetrics(bars.yAxis->labelFont()).horizontalAdvance(line) <=
            bars.axisRect()->height());
  // A name with no space to break at is elided.
  bars.setValueName(QStringLiteral("contribution-to-the-log-probability-of-the-word"));
  bars.replot();
  QVERIFY2(bars.yAxis->label().endsWith(QChar(0x2026)), qPrintable(bars.yAxis->label()));
  bars.setValueName(name);
  QCOMPARE(bars.valueName(), name);
  bars.resize(300, 400);
  bars.replot();
  QCOMPARE(bars.yAxis->label(), name);
}

// In step mode the scale fitted the rows so far, so a cell changed colour when a row with a
// higher weight came: within one sentence's steps the top only rises.
void HeatmapPlotTest::theColourScaleKeepsItsTopWhileStepping() {
  AttentionMatrix m;
  m.title = QStringLiteral("additive");
  m.sourceTokens = {"a", "dog", "."};
  m.targetTokens = {"ein"};
  m.weights = {{0.6, 0.3, 0.1}};
  HeatmapPlot plot;
  plot.setMatrix(m);
  QCOMPARE(plot.dataRange().upper, 0.6);
  m.targetTokens << "hund";
  m.weights.push_back({0.05, 0.9, 0.05});
  plot.setMatrix(m);
  QCOMPARE(plot.dataRange().upper, 0.9);
  AttentionMatrix back = m;  // a step back: the top stays
  back.targetTokens = {"ein"};
  back.weights = {{0.6, 0.3, 0.1}};
  plot.setMatrix(back);
  QCOMPARE(plot.dataRange().upper, 0.9);
  AttentionMatrix root = m;   // Home, then the first step again: the top stays (it fell to 1, then
  root.targetTokens.clear();  // to the first row's 0.6, and rose at the row that had 0.9)
  root.weights.clear();
  plot.setMatrix(root);
  QCOMPARE(plot.dataRange().upper, 0.9);
  plot.setMatrix(back);
  QCOMPARE(plot.dataRange().upper, 0.9);
  AttentionMatrix other = back;  // another sentence starts afresh
  other.sourceTokens = {"a", "cat", "."};
  plot.setMatrix(other);
  QCOMPARE(plot.dataRange().upper, 0.6);
  AttentionMatrix forced = m;  // a different word at a step: not a step of the same decoding
  plot.setMatrix(m);
  forced.targetTokens = {"eine"};
  forced.weights = {{0.7, 0.2, 0.1}};
  plot.setMatrix(forced);
  QCOMPARE(plot.dataRange().upper, 0.7);
}

// An export for a slide or a paper: no current-step or hover frame (they mark the window's
// state), cells as vector rectangles in SVG and PDF (not one embedded bitmap), and the title
// asked for drawn above; the window's frames are back afterwards.
void HeatmapPlotTest::anExportIsReadyForASlideOrAPaper() {
  AttentionMatrix m;
  m.title = QStringLiteral("additive");
  m.targetTokens = {"a", "b", "c"};
  m.sourceTokens = {"w", "x", "y", "</s>"};
  for (int r = 0; r < 3; ++r) {
    m.weights.emplace_back();
    for (int c = 0; c < 4; ++c) m.weights.back().push_back((r + c) % 2 == 0 ? 1.0 : 0.2);
  }
  HeatmapPlot plot;
  plot.setGradient(colormap(QStringLiteral("viridis")));
  plot.setMatrix(m);
  plot.setCurrentRow(1);
  plot.setHighlightedCell(0, 2);
  plot.resize(500, 400);
  plot.replot();
  const auto visibleFrames = [&plot] {
    int frames = 0;
    for (int i = 0; i < plot.itemCount(); ++i)
      if (auto* rect = qobject_cast<QCPItemRect*>(plot.item(i)))
        frames += rect->visible() && rect->pen().width() > 0 && rect->brush() == Qt::NoBrush;
    return frames;
  };
  QCOMPARE(visibleFrames(), 2);  // the current step's and the hovered cell's
  QTemporaryDir dir;
  ExportOptions options;
  options.size = QSize(500, 400);
  options.title = QStringLiteral("additive · English → German · “w x y”");
  const auto bytesOf = [&dir](const QString& name) {
    QFile file(dir.filePath(name));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
  };
  exportHeatmaps({&plot}, dir.filePath("h.svg"), options);
  const QByteArray svg = bytesOf("h.svg");
  QVERIFY2(svg.count("<rect") >= 12, "a rectangle a cell");
  QVERIFY2(svg.count("<image") <= 1, "no bitmap but the colour scale's bar");
  QVERIFY(svg.contains(QStringLiteral("English → German").toUtf8()));
  exportHeatmaps({&plot}, dir.filePath("h.pdf"), options);
  QVERIFY(bytesOf("h.pdf").count("/Subtype /Image") <= 1);
  exportHeatmaps({&plot}, dir.filePath("h.png"), options);
  const QImage png(dir.filePath("h.png"));
  QCOMPARE(png.size(), QSize(500, 400));
  int framePixels = 0;
  const QColor red("#ff3b30"), orange("#ff9500");
  for (int y = 0; y < png.height(); ++y)
    for (int x = 0; x < png.width(); ++x) {
      const QColor c = png.pixelColor(x, y);
      for (const QColor& frame : {red, orange})
        framePixels += qAbs(c.red() - frame.red()) + qAbs(c.green() - frame.green()) +
                           qAbs(c.blue() - frame.blue()) <
                       40;
    }
  QCOMPARE(framePixels, 0);
  QCOMPARE(visibleFrames(), 2);  // the window's frames are back
}

// During Play the step panel's heading said step 10 while its bars were step 9's: the bars were
// redrawn on a later event than the heading. A new row is in the very next paint.
void HeatmapPlotTest::barsAreDrawnWithTheStepTheyBelongTo() {
  AttentionBars bars;
  bars.resize(300, 200);
  bars.show();
  QVERIFY(QTest::qWaitForWindowExposed(&bars));
  bars.setRow({"a", "b", "c"}, {0.1f, 0.2f, 0.7f});
  QCoreApplication::processEvents();
  bars.setRow({"a", "b", "c"}, {0.7f, 0.2f, 0.1f});
  const QImage now = bars.grab().toImage();  // no event processed since the new row
  QCoreApplication::processEvents();         // whatever was queued
  QCOMPARE(now, bars.grab().toImage());
  // The heatmap's current-step frame, likewise.
  AttentionMatrix m;
  m.targetTokens = {"x", "y", "z"};
  m.sourceTokens = {"a", "b"};
  m.weights = {{0.5, 0.5}, {0.2, 0.8}, {0.9, 0.1}};
  HeatmapPlot plot;
  plot.resize(400, 300);
  plot.show();
  QVERIFY(QTest::qWaitForWindowExposed(&plot));
  plot.setMatrix(m);
  plot.setCurrentRow(0);
  QCoreApplication::processEvents();
  plot.setCurrentRow(2);
  const QImage framed = plot.grab().toImage();
  QCoreApplication::processEvents();
  QCOMPARE(framed, plot.grab().toImage());
}

// The Train tab's single letters stood turned 60° like marks: labels that fit their column
// stand upright; words wider than a column turn, so neighbours do not overlap.
void HeatmapPlotTest::columnLabelsTurnOnlyWhenTheyDoNotFit() {
  HeatmapPlot plot;
  plot.resize(500, 400);
  plot.show();
  QVERIFY(QTest::qWaitForWindowExposed(&plot));
  AttentionMatrix m;
  m.targetTokens = {"x", "y"};
  m.sourceTokens = {"a", "b", "c", "</s>"};
  m.weights = {{0.25, 0.25, 0.25, 0.25}, {0.1, 0.2, 0.3, 0.4}};
  plot.setMatrix(m);
  plot.replot();
  QCOMPARE(plot.xAxis->tickLabelRotation(), 0.0);
  m.sourceTokens = {"restaurants", "performances", "afternoons", "</s>"};
  plot.resize(260, 400);
  plot.setMatrix(m);
  plot.replot();
  QCOMPARE(plot.xAxis->tickLabelRotation(), 60.0);
}

QTEST_MAIN(HeatmapPlotTest)
#include "heatmap_plot_test.moc"
