// QtTest on the real widgets (QT_QPA_PLATFORM=offscreen): the window over six small untrained
// models, one per score function, made by the test itself.
#include "window/main_window.h"

#include <attnscope/model_catalog.h>
#include <attnscope/translator.h>

#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QListWidget>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "plots/attention_bars.h"
#include "plots/heatmap_plot.h"
#include "plots/tick_label_fit.h"
#include "tabs/compare_view.h"
#include "ui/fixture.h"
#include "widgets/candidates_view.h"
#include "widgets/history_line_edit.h"
#include "widgets/step_panel.h"
#include "workers/decoding_controller.h"
#include "workers/engine_worker.h"

using namespace attnscope::ui;
using attnscope::ui::test::qStrings;
using attnscope::ui::test::sameWeights;

class MainWindowTest : public test::WindowTest {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void init();
  void cleanup();
  void enterShowsHeatmapWithTokensAndNormalisedRows();
  void steppingAddsAndRemovesRows();
  void forcingACandidateChangesTheToken();
  void switchingScoreFunctionChangesTheMatrix();
  void compareGridHoldsAPlotPerModelAndCommonTargetSharesAxes();
  void exportWritesValidFilesOfTheRequestedSize();
  void corruptModelShowsErrorAndWindowStaysUsable();
  void historyWalksBackAndForth();
  void beamListsHypothesesAndShowsTheChosenOne();
  void quickStepKeysAndPlayAllTakeEffect();
  void typingOnTheHeatmapStartsTheNextSentence();
  void tickLabelsShrinkToTheirCellsAndGrowBack();
  void tooManyLabelsShowEveryNthAndHoverNamesTheRest();

 private:
  // Types `sentence` key by key, presses Return and waits for the heatmap's first answer.
  bool typeAndTranslate(const QString& sentence) {
    return translate(sentence, Entry::Typed, Settle::No);
  }
  attnscope::Translation expected(const QString& sentence) const {
    return engineTranslation(sentence, "additive");
  }
  QStringList tickLabels(QCPAxis* axis) const;
};

void MainWindowTest::initTestCase() { QVERIFY(setUpModels(attnscope::score_function_names())); }

void MainWindowTest::init() { QVERIFY(showWindow("additive")); }

void MainWindowTest::cleanup() { closeWindow(); }

QStringList MainWindowTest::tickLabels(QCPAxis* axis) const {
  return qSharedPointerCast<QCPAxisTickerText>(axis->ticker())->ticks().values();
}

void MainWindowTest::enterShowsHeatmapWithTokensAndNormalisedRows() {
  QVERIFY(typeAndTranslate("a b c d"));
  QVERIFY(settled());  // the last step shown
  const AttentionMatrix& m = window_->heatmap()->matrix();
  QCOMPARE(m.sourceTokens, QStringList({"a", "b", "c", "d", "</s>"}));
  // A row per output token of the engine's own greedy translation, and its attention.
  const attnscope::Translation e = expected("a b c d");
  QCOMPARE(m.targetTokens, qStrings(e.tokens));
  QCOMPARE(m.rows(), static_cast<int>(e.tokens.size()));
  QVERIFY(sameWeights(m, e.attention));
  for (const auto& row : m.weights) {
    QCOMPARE(row.size(), 5);
    double sum = 0;
    for (double w : row) sum += w;
    QVERIFY(qAbs(sum - 1.0) < 1e-5);
  }
  QCOMPARE(tickLabels(window_->heatmap()->xAxis), m.sourceTokens);
  QCOMPARE(tickLabels(window_->heatmap()->yAxis), m.targetTokens);
  auto* map = qobject_cast<QCPColorMap*>(window_->heatmap()->plottable(0));
  QVERIFY(map);
  QCOMPARE(map->data()->keySize(), 5);
  QCOMPARE(map->data()->valueSize(), m.rows());
  QVERIFY(e.copied.empty());  // so the line is the plain words, without links
  QCOMPARE(window_->outputLabel()->text(), QString::fromStdString(e.text()));
}

void MainWindowTest::steppingAddsAndRemovesRows() {
  QVERIFY(typeAndTranslate("a b c"));
  const int full = window_->heatmap()->matrix().rows();
  QSignalSpy updated(window_.get(), &MainWindow::heatmapUpdated);
  QTest::keyClick(window_->heatmap(), Qt::Key_Home);
  QVERIFY(updated.wait(5000));
  QCOMPARE(window_->heatmap()->matrix().rows(), 0);
  const int k = std::min(3, full);
  for (int i = 1; i <= k; ++i) {
    QTest::keyClick(window_->heatmap(), Qt::Key_Right);
    QVERIFY(updated.wait(5000));
    QCOMPARE(window_->heatmap()->matrix().rows(), i);
    QCOMPARE(window_->heatmap()->currentRow(), i - 1);  // the newest row is highlighted
  }
  QTest::keyClick(window_->heatmap(), Qt::Key_Left);
  QVERIFY(updated.wait(5000));
  QCOMPARE(window_->heatmap()->matrix().rows(), k - 1);
}

void MainWindowTest::forcingACandidateChangesTheToken() {
  QVERIFY(typeAndTranslate("a b c"));
  const QString before = window_->heatmap()->matrix().targetTokens.value(0);
  Q_EMIT window_->heatmap()->rowClicked(0);  // select the first step
  CandidatesView* candidates = window_->stepPanel()->candidates();
  // The first step's top-k, most probable first: its emitted token, then the alternatives.
  const std::vector<attnscope::Candidate>& top =
      window_->controller()->snapshot()->steps[0].candidates;
  QVERIFY(top.size() >= 2);
  QCOMPARE(candidates->count(), static_cast<int>(top.size()));
  for (int i = 0; i < candidates->count(); ++i)
    QCOMPARE(candidates->item(i)->data(Qt::UserRole).toString(),
             QString::fromStdString(top[static_cast<size_t>(i)].token));
  const QString alternative = candidates->item(1)->data(Qt::UserRole).toString();
  QVERIFY(alternative != before);
  QSignalSpy updated(window_.get(), &MainWindow::heatmapUpdated);
  QTest::mouseClick(candidates->viewport(), Qt::LeftButton, {},
                    candidates->visualItemRect(candidates->item(1)).center());
  QVERIFY(updated.wait(5000));
  QCOMPARE(window_->heatmap()->matrix().targetTokens.value(0), alternative);
  QVERIFY(window_->controller()->snapshot()->steps.front().forced);
}

void MainWindowTest::switchingScoreFunctionChangesTheMatrix() {
  QVERIFY(typeAndTranslate("a b c d e"));
  const AttentionMatrix additive = window_->heatmap()->matrix();
  QSignalSpy updated(window_.get(), &MainWindow::heatmapUpdated);
  window_->modelBox()->setCurrentText("location");
  QVERIFY(updated.wait(5000));
  // The location model's own translation, not the additive one's redrawn.
  QVERIFY(showsTranslationOf("a b c d e", "location"));
  const AttentionMatrix location = window_->heatmap()->matrix();
  QCOMPARE(location.sourceTokens, additive.sourceTokens);
  QVERIFY(location.weights != additive.weights);
  QCOMPARE(window_->controller()->snapshot()->modelKey, QString("location"));
}

void MainWindowTest::compareGridHoldsAPlotPerModelAndCommonTargetSharesAxes() {
  QVERIFY(typeAndTranslate("a b c"));
  QSignalSpy compared(window_.get(), &MainWindow::compareUpdated);
  window_->showCompare(true);
  QVERIFY(compared.wait(10000));
  CompareView* view = window_->compareView();
  const auto models = static_cast<int>(attnscope::score_function_names().size());
  QCOMPARE(view->plots().size(), models);
  view->setMode(CompareTarget::Kind::ModelOutput);
  QVERIFY(compared.wait(10000));
  const AttentionMatrix& first = view->plots().front()->matrix();
  // Every model forced onto the common model's greedy output (the first model's, by default): a
  // row per token of it as the first model reads it, with that model's attention.
  const QString common = view->target().modelKey;
  QCOMPARE(common, view->models().front());
  const std::string output = engineTranslation("a b c", common).text();
  const attnscope::Translation forced =
      attnscope::Translator(modelPath(view->models().front()).toStdString())
          .force_decode("a b c", output, attnscope::UnknownWords::kKeep);
  QCOMPARE(first.targetTokens, qStrings(forced.tokens));
  QVERIFY(sameWeights(first, forced.attention));
  QSet<QString> titles;
  for (HeatmapPlot* plot : view->plots()) {
    QCOMPARE(plot->matrix().sourceTokens, first.sourceTokens);
    QCOMPARE(plot->matrix().targetTokens, first.targetTokens);
    QCOMPARE(plot->dataRange(), view->plots().front()->dataRange());  // one shared scale
    titles.insert(plot->matrix().title);
  }
  QCOMPARE(titles.size(), models);
  // The baseline, listed last, has the common tokens and says it has no attention.
  const AttentionMatrix& baseline = view->plots().back()->matrix();
  QCOMPARE(baseline.title, QString(attnscope::kNoAttention));
  QVERIFY(baseline.noAttention);
  QCOMPARE(baseline.rows(), 0);
  QVERIFY2(!view->plots().back()->showsColorScale(), "a 0–1 scale for no weights");
  QVERIFY(view->plots().front()->showsColorScale());
  view->differenceBox()->setChecked(true);
  QVERIFY(view->differencePlot()->isVisible());
  QCOMPARE(view->differencePlot()->matrix().rows(), first.rows());
  // Hovering one plot outlines the same cell everywhere.
  Q_EMIT view->plots()[0]->cellHovered(0, 1);
  for (HeatmapPlot* plot : view->plots()) {
    if (plot->matrix().noAttention) continue;  // no cells to outline
    bool outlined = false;
    for (int i = 0; i < plot->itemCount(); ++i)
      if (auto* rect = qobject_cast<QCPItemRect*>(plot->item(i)))
        outlined |= rect->visible() && qFuzzyCompare(rect->topLeft->coords().x() + 1.0, 0.5 + 1.0);
    QVERIFY(outlined);
  }
  // Each model's own translation has no common axes: the box greys out unticked, and the
  // choice comes back with a common target.
  view->setMode(CompareTarget::Kind::OwnTranslations);
  QVERIFY(!view->differenceBox()->isEnabled());
  QVERIFY(!view->differenceBox()->isChecked());
  view->setMode(CompareTarget::Kind::ModelOutput);
  QVERIFY(view->differenceBox()->isEnabled());
  QVERIFY(view->differenceBox()->isChecked());
}

void MainWindowTest::exportWritesValidFilesOfTheRequestedSize() {
  QVERIFY(typeAndTranslate("a b c d"));
  const AttentionMatrix m = window_->heatmap()->matrix();
  QTemporaryDir out;
  ExportOptions options;
  options.size = QSize(640, 480);
  options.scale = 2.0;
  window_->exportTo(out.filePath("h.png"), options);
  const QImage png(out.filePath("h.png"));
  QCOMPARE(png.size(), QSize(1280, 960));
  options.scale = 1.0;
  window_->exportTo(out.filePath("h.pdf"), options);
  QFile pdf(out.filePath("h.pdf"));
  QVERIFY(pdf.open(QIODevice::ReadOnly));
  const QByteArray pdfBytes = pdf.readAll();
  QVERIFY(pdfBytes.startsWith("%PDF-"));
  QVERIFY(
      QRegularExpression(R"(/MediaBox \[0 0 640(\.0+)? 480(\.0+)?\])").match(pdfBytes).hasMatch());
  window_->exportTo(out.filePath("h.svg"), options);
  QFile svg(out.filePath("h.svg"));
  QVERIFY(svg.open(QIODevice::ReadOnly));
  const QByteArray svgBytes = svg.readAll();
  QVERIFY(svgBytes.contains("<svg"));
  QVERIFY(svgBytes.contains("viewBox=\"0 0 640 480\""));
  window_->exportTo(out.filePath("h.csv"), options);
  QFile csv(out.filePath("h.csv"));
  QVERIFY(csv.open(QIODevice::ReadOnly | QIODevice::Text));
  const QStringList lines = QString::fromUtf8(csv.readAll()).split('\n', Qt::SkipEmptyParts);
  QCOMPARE(lines.size(), m.rows() + 1);
  QCOMPARE(lines.front().split(',').size(), m.columns() + 1);
  window_->exportTo(out.filePath("h.json"), options);
  QFile json(out.filePath("h.json"));
  QVERIFY(json.open(QIODevice::ReadOnly));
  const QJsonObject root = QJsonDocument::fromJson(json.readAll()).object();
  QCOMPARE(root["attention"].toArray().size(), m.rows());
  QCOMPARE(root["attention"].toArray()[0].toArray().size(), m.columns());
  // An unknown extension is an error dialog, not a file.
  window_->exportTo(out.filePath("h.bmpx"), options);
  QVERIFY(!QFile::exists(out.filePath("h.bmpx")));
  QTRY_VERIFY(window_->findChild<QMessageBox*>() != nullptr);
}

void MainWindowTest::corruptModelShowsErrorAndWindowStaysUsable() {
  QTemporaryDir dir;
  QFile bad(dir.filePath("broken.attnmodel"));
  QVERIFY(bad.open(QIODevice::WriteOnly));
  bad.write("ATTNSCOPE-MODEL\n\x01\x00");
  bad.close();
  QSignalSpy opened(window_.get(), &MainWindow::modelOpened);
  window_->openModelFile(dir.filePath("broken.attnmodel"));
  QMessageBox* box = nullptr;
  QTRY_VERIFY((box = window_->findChild<QMessageBox*>()) != nullptr);
  QVERIFY(box->text().contains("truncated"));
  QVERIFY(box->text().contains("broken.attnmodel"));
  box->close();
  QVERIFY(opened.isEmpty());
  QCOMPARE(window_->modelBox()->findText("broken"), -1);
  QVERIFY(typeAndTranslate("a b"));  // still works
  QVERIFY(showsTranslationOf("a b", "additive"));
}

void MainWindowTest::historyWalksBackAndForth() {
  QVERIFY(typeAndTranslate("a"));
  QVERIFY(typeAndTranslate("b c"));
  HistoryLineEdit* edit = window_->sourceEdit();
  edit->clear();
  QTest::keyClick(edit, Qt::Key_Up);
  QCOMPARE(edit->text(), QString("b c"));
  QTest::keyClick(edit, Qt::Key_Up);
  QCOMPARE(edit->text(), QString("a"));
  QTest::keyClick(edit, Qt::Key_Down);
  QCOMPARE(edit->text(), QString("b c"));
}

void MainWindowTest::beamListsHypothesesAndShowsTheChosenOne() {
  QVERIFY(searchBox());
  searchBox()->setCurrentText("Beam");  // beam 5 by default
  // One tree search per Enter gives both the list and the tree (the list's own search is gone).
  QSignalSpy searches(window_->worker(), &EngineWorker::beamSearched);
  QVERIFY(typeAndTranslate("a b c"));
  QTRY_COMPARE_WITH_TIMEOUT(searches.count(), 1, 20000);
  attnscope::TranslationOptions beam5;
  beam5.beam_size = 5;
  const std::vector<attnscope::Translation> nbest =
      attnscope::Translator(modelPath("additive").toStdString()).translate_nbest("a b c", beam5);
  QCOMPARE(nbest.size(), size_t{5});
  QListWidget* beams = window_->beamList();
  QVERIFY(beams->isVisible());
  QCOMPARE(beams->count(), 5);
  QCOMPARE(beams->currentRow(), 0);
  const AttentionMatrix best = window_->heatmap()->matrix();
  QCOMPARE(best.targetTokens, qStrings(nbest[0].tokens));
  QSignalSpy updated(window_.get(), &MainWindow::heatmapUpdated);
  beams->setCurrentRow(1);
  QCOMPARE(updated.count(), 1);
  const AttentionMatrix second = window_->heatmap()->matrix();
  QVERIFY(second.targetTokens != best.targetTokens);
  QCOMPARE(second.targetTokens, qStrings(nbest[1].tokens));
  QVERIFY(sameWeights(second, nbest[1].attention));
  QCOMPARE(second.sourceTokens, best.sourceTokens);
  // A narrow list wraps its hypotheses instead of cutting them (their ends differ most).
  beams->setFixedWidth(90);
  QTRY_VERIFY(beams->viewport()->width() < 90);
  bool wrapped = false;
  for (int i = 0; i < beams->count(); ++i) {
    const QRect rect = beams->visualItemRect(beams->item(i));
    QVERIFY2(rect.width() <= beams->viewport()->width(), qPrintable(beams->item(i)->text()));
    wrapped = wrapped || rect.height() > 2 * beams->fontMetrics().height();
  }
  QVERIFY(wrapped);
}

void MainWindowTest::quickStepKeysAndPlayAllTakeEffect() {
  // 19 words: the test models read 20 tokens and stop after at most 2 × 20 + 10 steps.
  QVERIFY(typeAndTranslate("a b c d e f g h i j a b c d e f g h i"));
  QVERIFY(settled());
  const int full = window_->heatmap()->matrix().rows();
  QCOMPARE(full, static_cast<int>(expected("a b c d e f g h i j a b c d e f g h i").tokens.size()));
  QVERIFY2(full > 35, qPrintable(QString::number(full)));
  HeatmapPlot* heatmap = window_->heatmap();
  QCOMPARE(QApplication::focusWidget(), heatmap);
  QTest::keyClick(heatmap, Qt::Key_Home);
  QVERIFY(settled());
  QCOMPARE(heatmap->matrix().rows(), 0);
  // Holding → down: 30 presses, none waiting for the one before.
  for (int i = 0; i < 30; ++i) QTest::keyClick(heatmap, Qt::Key_Right);
  QVERIFY(settled());
  QCOMPARE(heatmap->matrix().rows(), 30);
  QCOMPARE(heatmap->currentRow(), 29);
  // Then ← and → mixed in one burst.
  for (int i = 0; i < 12; ++i) QTest::keyClick(heatmap, Qt::Key_Left);
  for (int i = 0; i < 3; ++i) QTest::keyClick(heatmap, Qt::Key_Right);
  QVERIFY(settled());
  QCOMPARE(heatmap->matrix().rows(), 21);
  QCOMPARE(heatmap->currentRow(), 20);
  // Play at its fastest runs to the last step and stops there.
  QSignalSpy playing(window_->controller(), &DecodingController::playingChanged);
  QTest::keyClick(heatmap, Qt::Key_Space);
  QVERIFY(window_->controller()->playing());
  QTRY_VERIFY_WITH_TIMEOUT(!window_->controller()->playing(), 30000);
  QVERIFY(settled());
  QCOMPARE(heatmap->matrix().rows(), full);
  QCOMPARE(playing.count(), 2);
  QVERIFY(window_->controller()->snapshot()->finished);
}

void MainWindowTest::typingOnTheHeatmapStartsTheNextSentence() {
  QVERIFY(typeAndTranslate("a b c"));
  const QString first = window_->outputLabel()->text();
  QCOMPARE(window_->focusWidget(), window_->heatmap());  // for the step keys
  QTest::keyClicks(window_->heatmap(), "d e f g");
  QCOMPARE(window_->sourceEdit()->text(), QString("d e f g"));  // the old sentence replaced
  QCOMPARE(window_->focusWidget(), window_->sourceEdit());
  QSignalSpy updated(window_.get(), &MainWindow::heatmapUpdated);
  QTest::keyClick(window_->focusWidget(), Qt::Key_Return);
  QVERIFY(updated.wait(10000));
  QCOMPARE(window_->heatmap()->matrix().sourceTokens, QStringList({"d", "e", "f", "g", "</s>"}));
  QVERIFY(settled());
  const attnscope::Translation e = expected("d e f g");
  QVERIFY(e.copied.empty());  // so the line is the plain words, without links
  QCOMPARE(window_->outputLabel()->text(), QString::fromStdString(e.text()));
  QVERIFY(window_->outputLabel()->text() != first);
  QCOMPARE(window_->focusWidget(), window_->heatmap());  // ready to step, or to type again
}

// Labels no larger than their cells on screen: a small plot of 30 tokens a side gets smaller
// labels that clear their neighbours (or the smallest size), a large one its full size again;
// and the step panel's bars over a long sentence.
void MainWindowTest::tickLabelsShrinkToTheirCellsAndGrowBack() {
  AttentionMatrix m;
  for (int i = 0; i < 30; ++i) {
    m.sourceTokens << QStringLiteral("source%1").arg(i);
    m.targetTokens << QStringLiteral("target%1").arg(i);
    m.weights << QVector<double>(30, 1.0 / 30);
  }
  HeatmapPlot plot;
  plot.setMatrix(m);
  const double full = plot.font().pointSizeF();
  QCOMPARE(plot.xAxis->tickLabelFont().pointSizeF(), full);  // not on screen: as set
  plot.resize(320, 260);
  plot.show();
  QVERIFY(QTest::qWaitForWindowExposed(&plot));
  const auto fits = [&] {
    const QFont font = plot.xAxis->tickLabelFont();
    const double columnGap = plot.axisRect()->rect().width() / 30.0;
    const double rowGap = plot.axisRect()->rect().height() / 30.0;
    const double height = QFontMetricsF(font).height();
    return font.pointSizeF() < full &&
           (font.pointSizeF() <= 6.5 || height <= std::min(columnGap * 0.866, rowGap) + 0.5);
  };
  QTRY_VERIFY(fits());
  QCOMPARE(plot.yAxis->tickLabelFont(), plot.xAxis->tickLabelFont());
  plot.resize(1600, 1200);
  QTRY_COMPARE(plot.xAxis->tickLabelFont().pointSizeF(), full);

  // The step panel's bars fit their labels the same way.
  QVERIFY(typeAndTranslate(m.sourceTokens.join(' ')));
  Q_EMIT window_->heatmap()->rowClicked(0);
  AttentionBars* bars = window_->stepPanel()->bars();
  QVERIFY(bars->isVisible());
  const double gap = bars->axisRect()->rect().width() / bars->xAxis->range().size();
  QTRY_VERIFY(bars->xAxis->tickLabelFont().pointSizeF() < full);
  QVERIFY(bars->xAxis->tickLabelFont().pointSizeF() <= 6.5 ||
          QFontMetricsF(bars->xAxis->tickLabelFont()).height() <= gap * 0.866 + 0.5);
}

// Labels that do not fit even at the smallest size: every n-th is shown (0, n, 2n, …), n the
// smallest that gives each shown label the room of n cells; the rest are named on hover.
void MainWindowTest::tooManyLabelsShowEveryNthAndHoverNamesTheRest() {
  const int n = 90;
  AttentionMatrix m;
  for (int i = 0; i < n; ++i) {
    m.sourceTokens << QStringLiteral("s%1").arg(i);
    m.targetTokens << QStringLiteral("t%1").arg(i);
    m.weights << QVector<double>(n, 1.0 / n);
  }
  HeatmapPlot plot;
  plot.setMatrix(m);
  QCOMPARE(plot.xAxis->tickVectorLabels().count(QString()), 0);  // off screen: every label
  plot.resize(500, 420);
  plot.show();
  QVERIFY(QTest::qWaitForWindowExposed(&plot));
  const auto thinned = [&](QCPAxis* axis, double sine) {
    const auto* ticker = dynamic_cast<SparseTickerText*>(axis->ticker().data());
    const QRect cells = plot.axisRect()->rect();
    const double gap = (axis == plot.xAxis ? cells.width() : cells.height()) / axis->range().size();
    const double height = QFontMetricsF(axis->tickLabelFont()).height();
    if (!ticker || ticker->stride() < 2 || axis->tickLabelFont().pointSizeF() > 6.5) return false;
    const int stride = ticker->stride();
    // The smallest stride that clears: one less would overlap.
    if (height > stride * gap * sine + 0.5 || height <= (stride - 1) * gap * sine) return false;
    const QVector<double> ticks = axis->tickVector();
    const QVector<QString> labels = axis->tickVectorLabels();
    for (int i = 0; i < ticks.size(); ++i) {
      const int index = qRound(ticks[i]);
      if (labels[i].isEmpty() != (index % stride != 0)) return false;
      if (!labels[i].isEmpty() &&
          labels[i] != (axis == plot.xAxis ? "s" : "t") + QString::number(index))
        return false;
    }
    return ticks.size() == n;
  };
  QTRY_VERIFY(thinned(plot.xAxis, 0.866) && thinned(plot.yAxis, 1.0));
  // Hidden labels are named on hover.
  const QPoint cell(qRound(plot.xAxis->coordToPixel(5)), qRound(plot.yAxis->coordToPixel(3)));
  QVERIFY2(plot.toolTipAt(cell).contains("source: s5\ntarget: t3"),
           qPrintable(plot.toolTipAt(cell)));

  // Zoomed in, the cells are large enough for every label again.
  plot.xAxis->setRange(-0.5, 9.5);
  plot.yAxis->setRange(-0.5, 9.5);
  plot.replot();
  QTRY_VERIFY(plot.xAxis->tickVectorLabels().size() == 10 &&
              !plot.xAxis->tickVectorLabels().contains(QString()) &&
              plot.yAxis->tickVectorLabels().size() == 10 &&
              !plot.yAxis->tickVectorLabels().contains(QString()));

  // The step panel's bars over a long sentence (the test model keeps its first 19 words): the
  // same, and the hover names a hidden one, in a window small enough that not all 20 fit.
  window_->resize(640, 480);
  QStringList words;
  for (int i = 0; i < 80; ++i) words << QStringLiteral("w%1").arg(i);
  QVERIFY(typeAndTranslate(words.join(' ')));
  Q_EMIT window_->heatmap()->rowClicked(0);
  AttentionBars* bars = window_->stepPanel()->bars();
  auto* barTicker = dynamic_cast<SparseTickerText*>(bars->xAxis->ticker().data());
  QVERIFY(barTicker);
  QTRY_VERIFY(barTicker->stride() > 1);
  QTRY_VERIFY(bars->xAxis->tickVectorLabels().count(QString()) > 0);
  const int hidden = 1;  // not a multiple of a stride above 1
  const QPoint bar(qRound(bars->xAxis->coordToPixel(double(hidden))),
                   bars->axisRect()->rect().center().y());
  const QString tip = bars->toolTipAt(bar);
  QCOMPARE(barTicker->ticks().value(hidden), QString("w1"));
  QVERIFY2(tip.startsWith("source: w1\nweight: "), qPrintable(tip));
  QVERIFY(bars->toolTipAt(QPoint(0, 0)).isEmpty());
}

QTEST_MAIN(MainWindowTest)
#include "main_window_test.moc"
