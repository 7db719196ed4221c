// QtTest (offscreen) of what a new user trips over in the layout (issue 35): Compare all and the
// Corpus tab usable at 900×600 and larger (no plot squeezed below its size, no colour bar over a
// neighbour, no label or message cut off, the sentence table with rows to read), a reference that
// belongs to the sentence it was typed for, and an exported grid laid out for its own size.
#include <attnscope/model_catalog.h>

#include <QFile>
#include <QFontMetricsF>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QtMath>
#include <QtTest>

#include "plots/heatmap_plot.h"
#include "plots/length_plot.h"
#include "plots/tick_label_fit.h"
#include "render/exporter.h"
#include "tabs/compare_view.h"
#include "tabs/corpus_view.h"
#include "ui/fixture.h"
#include "widgets/candidates_view.h"
#include "widgets/decoding_tool_bar.h"
#include "widgets/step_panel.h"
#include "widgets/tool_bar_rows.h"
#include "window/main_window.h"
#include "workers/decoding_controller.h"
#include "workers/engine_worker.h"

using namespace attnscope::ui;

namespace {

// Long words, so that labels need room: the source has unknown words, marked "(?)".
const QString kSentence = QStringLiteral("zoltan and his grey cat sleep on the warm sofa");
const QString kReference = QStringLiteral("zoltan und seine graue katze schlafen auf dem sofa");

// The smallest cell area a heatmap is still read in, in pixels.
constexpr int kSmallestCells = 80;

// `widget`'s rectangle in `ancestor`'s coordinates.
QRect placed(const QWidget* widget, const QWidget* ancestor) {
  return QRect(widget->mapTo(ancestor, QPoint(0, 0)), widget->size());
}

QString describe(const QRect& r) {
  return QStringLiteral("%1×%2 at (%3, %4)").arg(r.width()).arg(r.height()).arg(r.x()).arg(r.y());
}

// Lays `plot` out at its size, as on screen, with its labels fitted.
void layOut(QCustomPlot* plot) {
  plot->replot();
  QTest::qWait(30);  // a refit queues one more replot
  plot->replot();
}

// The labels `axis` draws now (the thinned ones are empty).
QStringList drawnLabels(const QCPAxis* axis) {
  QStringList labels;
  for (const QString& label : axis->tickVectorLabels())
    if (!label.isEmpty()) labels << label;
  return labels;
}

QCPColorScale* colourScale(QCustomPlot* plot) {
  for (QCPLayoutElement* element : plot->plotLayout()->elements(true))
    if (auto* scale = dynamic_cast<QCPColorScale*>(element)) return scale;
  return nullptr;
}

// Everything `plot` draws lies inside the widget: axes with their labels, the colour bar with its
// numbers, the row labels beside the cells and the column labels below them, and the text of an
// empty or attention-less heatmap inside its cells.
bool drawsInside(HeatmapPlot* plot) {
  const QString name = plot->matrix().title;
  const QRect widget = plot->rect();
  QCPAxisRect* cells = plot->axisRect();
  UI_VERIFY2(cells->width() >= kSmallestCells && cells->height() >= kSmallestCells,
             qPrintable(name + ": cells " + describe(cells->rect())));
  UI_VERIFY2(
      widget.contains(cells->outerRect()),
      qPrintable(name + ": axes " + describe(cells->outerRect()) + " in " + describe(widget)));
  if (QCPColorScale* scale = colourScale(plot); scale && scale->visible())
    UI_VERIFY2(widget.contains(scale->outerRect()),
               qPrintable(name + ": colour bar " + describe(scale->outerRect()) + " in " +
                          describe(widget)));
  const QFontMetricsF rowFont(plot->yAxis->tickLabelFont());
  for (const QString& label : drawnLabels(plot->yAxis)) {
    const double room = cells->left() - plot->yAxis->tickLabelPadding();
    UI_VERIFY2(rowFont.horizontalAdvance(label) <= room + 1,
               qPrintable(QStringLiteral("%1: row label '%2' is %3 px wide, %4 px of room")
                              .arg(name, label)
                              .arg(rowFont.horizontalAdvance(label))
                              .arg(room)));
  }
  const QFontMetricsF columnFont(plot->xAxis->tickLabelFont());
  const double angle = qDegreesToRadians(plot->xAxis->tickLabelRotation());
  for (const QString& label : drawnLabels(plot->xAxis)) {
    const double depth = columnFont.horizontalAdvance(label) * std::sin(angle) +
                         columnFont.height() * std::cos(angle);
    const double room = widget.bottom() - cells->bottom() - plot->xAxis->tickLabelPadding();
    UI_VERIFY2(depth <= room + 1, qPrintable(QStringLiteral("%1: column label '%2' needs %3 px "
                                                            "below the cells, %4 px of room")
                                                 .arg(name, label)
                                                 .arg(depth)
                                                 .arg(room)));
  }
  for (int i = 0; i < plot->itemCount(); ++i) {
    auto* text = qobject_cast<QCPItemText*>(plot->item(i));
    if (text == nullptr || !text->visible() || text->text().isEmpty() ||
        text->position->type() != QCPItemPosition::ptAxisRectRatio)
      continue;
    QRectF box = QFontMetricsF(text->font()).boundingRect(QRectF(), Qt::AlignCenter, text->text());
    box.moveCenter(text->position->pixelPosition());
    UI_VERIFY2(QRectF(cells->rect()).adjusted(-1, -1, 1, 1).contains(box),
               qPrintable(QStringLiteral("%1: '%2' needs %3, the cells are %4")
                              .arg(name, text->text().simplified(), describe(box.toRect()),
                                   describe(cells->rect()))));
  }
  return true;
}

}  // namespace

class LayoutTest : public test::WindowTest {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void cleanup();
  void aNewSentenceClearsTheReferenceTypedForTheOldOne();
  void compareAllKeepsEveryPlotReadable_data();
  void compareAllKeepsEveryPlotReadable();
  void theWheelScrollsATallGridAndCtrlWheelZooms();
  void corpusTabKeepsItsTableAndPlotReadable_data();
  void corpusTabKeepsItsTableAndPlotReadable();
  void anExportedGridLabelsEverySourceWord();
  void everyToolbarControlIsInSight_data();
  void everyToolbarControlIsInSight();
  void theStepPanelFitsItsColumn_data();
  void theStepPanelFitsItsColumn();

 private:
  // The window at `size` in Compare all, every model forced onto `reference`, the difference of
  // the first two models shown.
  bool showCompareWithDifference(const QSize& size);
  bool addSizes();
  // `tab` (the current one) fits the page a window of `size` gives it.
  bool fitsItsPage(QWidget* tab, const QSize& size);

  QTemporaryDir files_;
};

void LayoutTest::initTestCase() {
  QVERIFY(setUpModels(attnscope::score_function_names()));
  QVERIFY(files_.isValid());
}

void LayoutTest::cleanup() { closeWindow(); }

bool LayoutTest::addSizes() {
  QTest::addColumn<QSize>("size");
  for (const QSize& size : {QSize(900, 600), QSize(1280, 800), QSize(1600, 1000)})
    QTest::newRow(qPrintable(QStringLiteral("%1x%2").arg(size.width()).arg(size.height()))) << size;
  return true;
}

bool LayoutTest::showCompareWithDifference(const QSize& size) {
  UI_VERIFY(showWindow("additive", size));
  UI_VERIFY(translate(kSentence));
  QSignalSpy compared(window_.get(), &MainWindow::compareUpdated);
  window_->showCompare(true);
  UI_VERIFY(compared.wait(10000));
  CompareView* view = window_->compareView();
  view->setMode(CompareTarget::Kind::Reference);
  view->referenceEdit()->setText(kReference);
  QTest::keyClick(view->referenceEdit(), Qt::Key_Return);
  UI_VERIFY(compared.wait(10000));
  view->differenceBox()->setChecked(true);
  UI_VERIFY(view->differencePlot()->isVisible());
  return fitsItsPage(view, size);
}

bool LayoutTest::fitsItsPage(QWidget* tab, const QSize& size) {
  // Had the window grown past `size`, that is how much smaller the tab's page would be.
  const QSize page = tab->size() - (window_->size() - size);
  UI_VERIFY2(tab->minimumSizeHint().width() <= page.width() &&
                 tab->minimumSizeHint().height() <= page.height(),
             qPrintable(QStringLiteral("the tab needs %1×%2, a %3×%4 window gives it %5×%6")
                            .arg(tab->minimumSizeHint().width())
                            .arg(tab->minimumSizeHint().height())
                            .arg(size.width())
                            .arg(size.height())
                            .arg(page.width())
                            .arg(page.height())));
  // No tab (the Train tab's settings column, for one) holds the window larger.
  UI_COMPARE(window_->size(), size);
  return true;
}

// With Common target: reference, no old maps before a reference is typed, and a reference typed
// for one sentence is not applied to the next.
void LayoutTest::aNewSentenceClearsTheReferenceTypedForTheOldOne() {
  QVERIFY(showWindow("additive"));
  QVERIFY(translate("a b c"));
  QSignalSpy compared(window_.get(), &MainWindow::compareUpdated);
  window_->showCompare(true);
  QVERIFY(compared.wait(10000));
  CompareView* view = window_->compareView();
  QVERIFY(!view->plots().front()->matrix().isEmpty());
  // No reference typed yet: the maps of the models' own translations must not stay, passing for
  // the reference's.
  view->setMode(CompareTarget::Kind::Reference);
  QVERIFY(view->referenceEdit()->text().isEmpty());
  for (HeatmapPlot* plot : view->plots())
    QVERIFY2(plot->matrix().isEmpty() && plot->matrix().columns() == 0,
             qPrintable(plot->matrix().title + ": " + plot->matrix().targetTokens.join(' ')));
  QVERIFY2(view->statusText().contains("reference above"), qPrintable(view->statusText()));
  compared.clear();
  view->referenceEdit()->setText("d e f");
  QTest::keyClick(view->referenceEdit(), Qt::Key_Return);
  QVERIFY(compared.wait(10000));
  QCOMPARE(compared.count(), 1);  // the own translations' answer, if still on its way, dropped
  QVERIFY2(view->statusText().contains("d e f"), qPrintable(view->statusText()));

  // The same sentence again keeps its reference.
  compared.clear();
  QVERIFY(translate("a b c"));
  QVERIFY(!compared.isEmpty() || compared.wait(10000));
  QCOMPARE(view->referenceEdit()->text(), QString("d e f"));
  QVERIFY2(view->statusText().contains("d e f"), qPrintable(view->statusText()));

  // Another sentence: the reference was the old one's.
  compared.clear();
  QVERIFY(translate("g h i j"));
  // A grid drawn on the old reference would have come by now.
  QVERIFY(test::workerDrained(window_->controller()->worker()));
  QVERIFY2(view->referenceEdit()->text().isEmpty(),
           qPrintable("reference kept: " + view->referenceEdit()->text() +
                      "; status: " + view->statusText()));
  QVERIFY2(!view->statusText().contains("d e f") &&
               view->statusText().contains("new sentence", Qt::CaseInsensitive),
           qPrintable(view->statusText()));
  for (HeatmapPlot* plot : view->plots())
    QVERIFY2(plot->matrix().isEmpty() && plot->matrix().columns() == 0,
             qPrintable(plot->matrix().title + ": " + plot->matrix().targetTokens.join(' ')));

  // A reference typed for it is used.
  compared.clear();
  view->referenceEdit()->setText("h i");
  QTest::keyClick(view->referenceEdit(), Qt::Key_Return);
  QVERIFY(compared.wait(10000));
  QVERIFY2(view->statusText().contains("h i"), qPrintable(view->statusText()));
  QCOMPARE(view->plots().front()->matrix().sourceTokens, QStringList({"g", "h", "i", "j", "</s>"}));

  // A reference typed after the sentence was changed (not yet translated) is that sentence's.
  compared.clear();
  window_->sourceEdit()->setText("a b c");
  view->referenceEdit()->clear();
  QTest::keyClicks(view->referenceEdit(), "e f g");
  QTest::keyClick(view->referenceEdit(), Qt::Key_Return);
  QVERIFY2(compared.wait(10000), qPrintable(view->statusText()));
  QCOMPARE(view->referenceEdit()->text(), QString("e f g"));
  QVERIFY2(view->statusText().contains("e f g"), qPrintable(view->statusText()));
  QCOMPARE(view->plots().front()->matrix().sourceTokens, QStringList({"a", "b", "c", "</s>"}));
}

void LayoutTest::theStepPanelFitsItsColumn_data() { addSizes(); }

// At 900×600 the panel was wider than its column (an unwrapped line): its bars were cut on the
// right with no scroll bar; and the candidates' list took twice its rows' height.
void LayoutTest::theStepPanelFitsItsColumn() {
  QFETCH(QSize, size);
  QVERIFY(showWindow("additive", size));
  QVERIFY(translate(kSentence));
  QVERIFY(settled());
  auto* scroll = window_->findChild<QScrollArea*>(QStringLiteral("stepPanelScroll"));
  QVERIFY(scroll != nullptr);
  StepPanel* panel = window_->stepPanel();
  QTRY_VERIFY2(panel->width() <= scroll->viewport()->width(),
               qPrintable(QStringLiteral("panel %1 px in a %2 px column")
                              .arg(panel->width())
                              .arg(scroll->viewport()->width())));
  const CandidatesView* list = panel->candidates();
  QVERIFY(list->count() > 0);
  const int rows = list->count() * list->sizeHintForRow(0) + 2 * list->frameWidth();
  QVERIFY2(
      list->height() <= rows + list->fontMetrics().height(),
      qPrintable(QStringLiteral("list %1 px for %2 px of rows").arg(list->height()).arg(rows)));
}

void LayoutTest::compareAllKeepsEveryPlotReadable_data() { addSizes(); }

void LayoutTest::compareAllKeepsEveryPlotReadable() {
  QFETCH(QSize, size);
  QVERIFY(showCompareWithDifference(size));
  CompareView* view = window_->compareView();
  QList<HeatmapPlot*> plots = view->plots();
  plots << view->differencePlot();
  QCOMPARE(plots.size(), static_cast<int>(attnscope::score_function_names().size()) + 1);
  for (HeatmapPlot* plot : plots) layOut(plot);
  for (HeatmapPlot* plot : plots) {
    QVERIFY2(plot->isVisible(), qPrintable(plot->matrix().title));
    QVERIFY2(plot->width() >= plot->minimumWidth() && plot->height() >= plot->minimumHeight(),
             qPrintable(plot->matrix().title + ": squeezed to " + describe(plot->rect())));
    QVERIFY(drawsInside(plot));
    // No plot over another: a colour bar inside its plot stays off its neighbour.
    for (HeatmapPlot* other : plots)
      if (other != plot)
        QVERIFY2(!placed(plot, view).intersects(placed(other, view)),
                 qPrintable(plot->matrix().title + " " + describe(placed(plot, view)) + " and " +
                            other->matrix().title + " " + describe(placed(other, view))));
  }
  // The baseline says why it has no heatmap, in words that fit its cells (checked above).
  QVERIFY(view->plots().back()->matrix().noAttention);
}

// At 900×600 the grid is taller than its tab: the wheel over a heatmap scrolls the rows into
// view, as on a page, instead of zooming that heatmap; Ctrl+wheel zooms it.
void LayoutTest::theWheelScrollsATallGridAndCtrlWheelZooms() {
  QVERIFY(showCompareWithDifference(QSize(900, 600)));
  CompareView* view = window_->compareView();
  HeatmapPlot* plot = view->plots().front();
  auto* scroll = view->findChild<QScrollArea*>();
  QVERIFY(scroll != nullptr);
  QScrollBar* bar = scroll->verticalScrollBar();
  QTRY_VERIFY(bar->isVisible() && bar->maximum() > 0);
  // Ticking Difference scrolled it into view, to the grid's end: back to the first plot.
  QTRY_VERIFY(bar->value() > 0);
  bar->setValue(0);
  layOut(plot);
  const QCPRange columns = plot->xAxis->range();
  const QPointF centre = plot->axisRect()->center();
  const auto wheel = [&](Qt::KeyboardModifiers modifiers) {
    QWheelEvent event(centre, plot->mapToGlobal(centre), QPoint(), QPoint(0, -120), Qt::NoButton,
                      modifiers, Qt::NoScrollPhase, false);
    QApplication::sendEvent(plot, &event);
  };
  wheel(Qt::NoModifier);
  QVERIFY2(bar->value() > 0, qPrintable(QString::number(bar->value())));
  QCOMPARE(plot->xAxis->range(), columns);
  // The difference plot, shown by ticking its box, is in view after the box scrolled there.
  view->differenceBox()->setChecked(false);
  view->differenceBox()->setChecked(true);
  QTRY_VERIFY(scroll->viewport()->rect().contains(
      QRect(view->differencePlot()->mapTo(scroll->viewport(), QPoint(0, 0)),
            view->differencePlot()->size())));
  wheel(Qt::ControlModifier);
  QVERIFY(plot->xAxis->range().size() != columns.size());
}

void LayoutTest::corpusTabKeepsItsTableAndPlotReadable_data() { addSizes(); }

void LayoutTest::corpusTabKeepsItsTableAndPlotReadable() {
  QFETCH(QSize, size);
  const QString source = files_.filePath("source.txt"), reference = files_.filePath("ref.txt");
  for (const QString& path : {source, reference}) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    for (int i = 0; i < 12; ++i)
      file.write(QByteArray("a b c d e f g h i j").left(2 * i + 1) + '\n');
  }
  QVERIFY(showWindow("additive", size));
  CorpusView* corpus = window_->corpusView();
  window_->tabs()->setCurrentWidget(corpus);
  corpus->setFiles(source, reference);
  QSignalSpy ended(corpus, &CorpusView::runEnded);
  corpus->run();
  QVERIFY(ended.wait(60000));
  QCOMPARE(corpus->report().sources.size(), size_t{12});
  QVERIFY(fitsItsPage(corpus, size));

  // The sentence table shows rows to read, not two.
  QTableView* table = corpus->sentenceTable();
  int shown = 0;
  for (int row = 0; row < table->model()->rowCount(); ++row)
    if (table->viewport()->rect().contains(table->visualRect(table->model()->index(row, 0))))
      ++shown;
  QVERIFY2(shown >= 6, qPrintable(QStringLiteral("%1 rows in view, the table %2")
                                      .arg(shown)
                                      .arg(describe(table->geometry()))));

  // The plot keeps its axes and their labels.
  LengthPlot* plot = corpus->plot();
  QVERIFY(plot->isVisible());
  layOut(plot);
  QVERIFY2(plot->height() >= plot->minimumHeight(), qPrintable(describe(plot->rect())));
  QCPAxisRect* axes = plot->axisRect();
  QVERIFY2(axes->height() >= kSmallestCells, qPrintable(describe(axes->rect())));
  QVERIFY2(plot->rect().contains(axes->outerRect()),
           qPrintable(describe(axes->outerRect()) + " in " + describe(plot->rect())));
  // The lengths under the axis do not run into each other.
  const QFontMetricsF font(plot->xAxis->tickLabelFont());
  const double spacing = axes->width() / plot->xAxis->range().size();
  for (const QString& label : drawnLabels(plot->xAxis))
    for (const QString& line : label.split('\n'))
      QVERIFY2(font.horizontalAdvance(line) + 4 <= spacing,
               qPrintable(QStringLiteral("'%1' is %2 px wide, the buckets %3 px apart")
                              .arg(line)
                              .arg(font.horizontalAdvance(line))
                              .arg(spacing)));
}

// A PNG of the grid larger than the window shows every source word, in plots not squashed.
void LayoutTest::anExportedGridLabelsEverySourceWord() {
  QVERIFY(showWindow("additive", QSize(900, 600)));
  // Eighteen words in a plot of the small window: on screen only every second one is labelled.
  const QString sentence = QStringLiteral(
      "zoltan and his grey cat sleep on the warm sofa while the old dog barks at "
      "the moon");
  QVERIFY(translate(sentence));
  QSignalSpy compared(window_.get(), &MainWindow::compareUpdated);
  window_->showCompare(true);
  QVERIFY(compared.wait(10000));
  CompareView* view = window_->compareView();
  HeatmapPlot* first = view->plots().front();
  layOut(first);
  const int words = first->matrix().columns();
  QVERIFY2(drawnLabels(first->xAxis).size() < words,
           qPrintable(QStringLiteral("on screen: %1 of %2 labels, cells %3")
                          .arg(drawnLabels(first->xAxis).size())
                          .arg(words)
                          .arg(describe(first->axisRect()->rect()))));

  // What each plot draws into the picture: its size there, its column labels.
  QHash<HeatmapPlot*, QPair<QSize, QStringList>> drawn;
  for (HeatmapPlot* plot : view->plots())
    connect(plot, &QCustomPlot::afterLayout, this, [plot, &drawn] {
      if (plot->viewport().size() != plot->size())
        drawn[plot] = {plot->viewport().size(), drawnLabels(plot->xAxis)};
    });
  ExportOptions options;
  options.size = QSize(2516, 1308);
  const QString path = files_.filePath("grid.png");
  window_->exportTo(path, options);
  QCOMPARE(QImage(path).size(), options.size);
  for (HeatmapPlot* plot : view->plots()) {
    disconnect(plot, &QCustomPlot::afterLayout, this, nullptr);
    QVERIFY2(drawn.contains(plot), qPrintable(plot->matrix().title));
    const auto& [cell, labels] = drawn[plot];
    QVERIFY2(labels.size() == plot->matrix().columns(),
             qPrintable(QStringLiteral("%1: %2 of %3 source words labelled in the picture: %4")
                            .arg(plot->matrix().title)
                            .arg(labels.size())
                            .arg(plot->matrix().columns())
                            .arg(labels.join(' '))));
    const double aspect = static_cast<double>(cell.width()) / cell.height();
    QVERIFY2(aspect > 0.6 && aspect < 1.6, qPrintable(QStringLiteral("%1: %2×%3 in the picture")
                                                          .arg(plot->matrix().title)
                                                          .arg(cell.width())
                                                          .arg(cell.height())));
  }
  // The window's plots are fitted to the window again.
  layOut(first);
  QVERIFY(drawnLabels(first->xAxis).size() < words);
}

// At 900×600 Colours and Numbers vanished into the toolbar's overflow menu: the view toolbar
// takes a row of its own when both do not fit, and shares the row when they do.
void LayoutTest::everyToolbarControlIsInSight_data() { addSizes(); }

void LayoutTest::everyToolbarControlIsInSight() {
  QFETCH(QSize, size);
  QVERIFY(showWindow("additive", size));
  auto* toolBar = window_->findChild<DecodingToolBar*>();
  QVERIFY(toolBar != nullptr);
  const QRect inside = window_->rect();
  for (QWidget* control :
       {static_cast<QWidget*>(window_->modelBox()), static_cast<QWidget*>(toolBar->colormapBox()),
        static_cast<QWidget*>(toolBar->valuesBox())}) {
    QTRY_VERIFY2(control->isVisible(), qPrintable(control->objectName()));
    const QRect at(control->mapTo(window_.get(), QPoint(0, 0)), control->size());
    QVERIFY2(inside.contains(at), qPrintable(QStringLiteral("%1 at %2,%3 %4×%5")
                                                 .arg(control->metaObject()->className())
                                                 .arg(at.x())
                                                 .arg(at.y())
                                                 .arg(at.width())
                                                 .arg(at.height())));
  }
  const int needed = toolBar->sizeHint().width() + toolBar->viewBar()->sizeHint().width();
  QCOMPARE(window_->toolBarRows()->wrapped(), needed > window_->width());
}

QTEST_MAIN(LayoutTest)
#include "layout_test.moc"
