// QtTest (offscreen) of issue 30 in the window: the Translation tab's Show selector (attention or
// an attribution, alone or side by side), the step panel's two bars, attention edited by
// dragging a bar or from its context menu with the what-if line, Reset edits, the `none` model,
// a model that cannot give gradients, the same edit across every model in Compare all, and
// exports that say what they show.
#include <attnscope/explanation.h>
#include <attnscope/translator.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QRegularExpression>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/app_settings.h"
#include "core/attribution_matrix.h"
#include "core/what_if_text.h"
#include "engine/scripted_modules.h"
#include "engine/test_models.h"
#include "plots/attention_bars.h"
#include "plots/heatmap_plot.h"
#include "tabs/compare_view.h"
#include "tabs/translation_view.h"
#include "ui/fixture.h"
#include "widgets/shown_values_box.h"
#include "widgets/step_panel.h"
#include "widgets/weights_dialog.h"
#include "workers/decoding_controller.h"
#include "workers/engine_worker.h"
#include "workers/explanation_controller.h"

using namespace attnscope::ui;
using attnscope::AttentionEdit;
using attnscope::AttributionMethod;
using attnscope::ui::test::sameWeights;

namespace {
// Long enough that the untrained test models decode several steps.
const QString kSentence = QStringLiteral("a b c d e");
constexpr int kEditedStep = 1;  // the second step

// `m` holds `expected`'s values (NaN where it has none), to float precision: the window's
// engine thread may sum in another order than this one.
bool closeValues(const AttentionMatrix& m, const std::vector<std::vector<float>>& expected) {
  UI_COMPARE(m.rows(), static_cast<int>(expected.size()));
  for (int r = 0; r < m.rows(); ++r)
    for (int c = 0; c < m.columns(); ++c) {
      const double want = expected[r][c], got = m.weights[r][c];
      UI_VERIFY2(
          std::isnan(want) ? std::isnan(got) : std::abs(got - want) <= 1e-4 * (1 + std::abs(want)),
          qPrintable(QStringLiteral("row %1, column %2: %3, expected %4")
                         .arg(r)
                         .arg(c)
                         .arg(got)
                         .arg(want)));
    }
  return true;
}
}  // namespace

class ExplanationViewTest : public test::WindowTest {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void init();
  void cleanup();
  void showSwitchesTheHeatmapToTheMethodAndSaysSo();
  void sideBySideShowsAttentionAndTheMethodEachOnItsScale();
  void leaveOneOutMarksTheEndTokenAsNoValue();
  void theStepPanelShowsBothBars();
  void theChoiceIsRemembered();
  void aModelWithoutGradientsOffersThemDisabledWithTheReason();
  void draggingABarShowsTheWhatIfLine();
  void theContextMenuEditsTheStep();
  void resetEditsReturnsToTheModelsOwn();
  void theNoneModelHasAttributionsButNoBarsToEdit();
  void compareTriesTheEditOnEveryModel();
  void aSideBySideExportHasBothAndNamesTheMethod();
  void typedWeightsAreCheckedBeforeTheDialogCloses();
  void aRefusedEditChangesNothing();
  void clearingTheSentenceShowsTheEmptyStateNotComputing();
  void resetEditsClearsCompareAllsEditsToo();
  void attributionBarsFitTheirValuesAndSayWhatTheyAre();
  void zeroingWordsCombinesAndAStepCanBeRestored();
  void exportNamesSayWhatIsShown();
  void theStepPanelDoesNotOverlapItselfAt900x600();
  void arrowingThroughShowAsksOnlyWhereItStops();

 private:
  TranslationView* view() const { return window_->translationView(); }
  ExplanationController* explanation() const { return view()->explanation(); }
  AttentionBars* bars() const { return window_->stepPanel()->bars(); }
  // Chooses `method` in Show (nothing: attention) and waits for its answer.
  bool show(std::optional<AttributionMethod> method, bool beside = false);
  // Selects step `step` as a click on its heatmap row does.
  bool selectStep(int step);
  // Zeroes a word at kEditedStep and tries the edit on every model (Compare all shows it).
  bool editAndTryInCompare();
  // Waits until the what-if line shows a decoded answer; returns its text.
  QString decodedWhatIf();
  // The engine's own what-if of `sentence` with `edits` on the listed model `model`.
  attnscope::Translation engineWhatIf(const QString& model,
                                      const std::vector<AttentionEdit>& edits);

  QTemporaryDir files_;
};

void ExplanationViewTest::initTestCase() { QVERIFY(setUpModels({"additive", "general", "none"})); }

void ExplanationViewTest::init() {
  AppSettings settings;
  settings.setShownValues("attention");
  settings.setSideBySide(false);
  QVERIFY(showWindow("additive"));
}

void ExplanationViewTest::cleanup() { closeWindow(); }

bool ExplanationViewTest::show(std::optional<AttributionMethod> method, bool beside) {
  view()->shownValues()->setSideBySide(beside);
  view()->shownValues()->setMethod(method);
  if (!method) return true;
  // The attribution asked for once the choice settled, not the one shown before.
  UI_VERIFY(QTest::qWaitFor(
      [&] {
        return !explanation()->attributionBusy() && explanation()->attribution() &&
               explanation()->attribution()->request.method == *method;
      },
      20000));
  return true;
}

bool ExplanationViewTest::selectStep(int step) {
  Q_EMIT window_->heatmap()->rowClicked(window_->heatmap()->matrix().rowOf(step));
  UI_COMPARE(window_->controller()->shownRow(), step);
  return true;
}

QString ExplanationViewTest::decodedWhatIf() {
  static_cast<void>(QTest::qWaitFor(
      [&] { return !explanation()->editBusy() && explanation()->whatIf().has_value(); }, 10000));
  return view()->whatIfLabel()->text();
}

attnscope::Translation ExplanationViewTest::engineWhatIf(const QString& model,
                                                         const std::vector<AttentionEdit>& edits) {
  const attnscope::Translator translator(modelPath(model).toStdString());
  return attnscope::translate_with_edits(translator, kSentence.toStdString(),
                                         attnscope::WhatIf{edits, {}})
      .translation;
}

bool ExplanationViewTest::editAndTryInCompare() {
  UI_VERIFY(translate(kSentence));
  UI_VERIFY(selectStep(kEditedStep));
  Q_EMIT bars()->editChosen(AttentionBars::Edit::Zero, 1);
  UI_VERIFY(!decodedWhatIf().isEmpty());
  QSignalSpy shown(window_.get(), &MainWindow::compareUpdated);
  QTest::mouseClick(view()->compareEditsButton(), Qt::LeftButton);
  UI_VERIFY(QTest::qWaitFor(
      [&] {
        return !shown.isEmpty() &&
               window_->compareView()->statusText().contains("edited attention");
      },
      20000));
  return true;
}

void ExplanationViewTest::showSwitchesTheHeatmapToTheMethodAndSaysSo() {
  QVERIFY(translate(kSentence));
  const AttentionMatrix attention = window_->heatmap()->matrix();
  QVERIFY(showsTranslationOf(kSentence, "additive"));
  QVERIFY(show(AttributionMethod::kIntegratedGradients));
  const AttentionMatrix& shown = window_->heatmap()->matrix();
  QVERIFY2(shown.title.contains(
               // A second line when refining stopped short of 1% (a busy machine's time limit)
               QRegularExpression("^integrated gradients \\(\\d+ steps, gap \\d+\\.\\d%\\)"
                                  "(\\ngap above 1%: refining stopped [^\\n]*)?$")),
           qPrintable(shown.title));
  QCOMPARE(shown.targetTokens, attention.targetTokens);
  QCOMPARE(shown.sourceTokens, attention.sourceTokens);
  // The engine's own values, not the attention's.
  attnscope::AttributionOptions options;
  const attnscope::Attribution expected = attnscope::attribute(
      attnscope::Translator(modelPath("additive").toStdString()), kSentence.toStdString(), options);
  QVERIFY(closeValues(shown, expected.values));
  bool differs = false;
  for (int r = 0; r < shown.rows(); ++r)
    for (int c = 0; c < shown.columns(); ++c)
      differs = differs || std::abs(shown.weights[r][c] - attention.weights[r][c]) > 1e-4;
  QVERIFY(differs);
  // Signed values: a scale centred on 0.
  QVERIFY(window_->heatmap()->isSigned());
  QCOMPARE(window_->heatmap()->dataRange().lower, -window_->heatmap()->dataRange().upper);
  QVERIFY(window_->heatmap()
              ->toolTipAt(window_->heatmap()->rect().center())
              .contains("contribution to log p: "));

  QVERIFY(show(AttributionMethod::kGradient));
  QCOMPARE(window_->heatmap()->matrix().title, QString("gradient"));
  QVERIFY(!window_->heatmap()->isSigned());  // a norm: from 0, on the user's colormap
  QVERIFY(show(std::nullopt));
  QVERIFY(sameWeights(window_->heatmap()->matrix(),
                      engineTranslation(kSentence, "additive").attention));
}

void ExplanationViewTest::sideBySideShowsAttentionAndTheMethodEachOnItsScale() {
  QVERIFY(translate(kSentence));
  QVERIFY(show(AttributionMethod::kGradientTimesInput, true));
  QVERIFY(view()->attributionPlot()->isVisible());
  QCOMPARE(window_->heatmap()->matrix().title, QString("attention"));
  QVERIFY(sameWeights(window_->heatmap()->matrix(),
                      engineTranslation(kSentence, "additive").attention));
  QCOMPARE(view()->attributionPlot()->matrix().title, QString("gradient × input"));
  QCOMPARE(view()->attributionPlot()->matrix().rows(), window_->heatmap()->matrix().rows());
  QVERIFY(!window_->heatmap()->isSigned());
  QVERIFY(view()->attributionPlot()->isSigned());
  QVERIFY(window_->heatmap()->dataRange().lower == 0.0);
  // Unticked, the heatmap shows the method alone.
  view()->shownValues()->setSideBySide(false);
  QVERIFY(!view()->attributionPlot()->isVisible());
  QCOMPARE(window_->heatmap()->matrix().title, QString("gradient × input"));
}

void ExplanationViewTest::leaveOneOutMarksTheEndTokenAsNoValue() {
  QVERIFY(translate(kSentence));
  QVERIFY(show(AttributionMethod::kLeaveOneOut));
  HeatmapPlot* plot = window_->heatmap();
  const AttentionMatrix& m = plot->matrix();
  QCOMPARE(m.title, QString("leave one out"));
  QCOMPARE(m.sourceTokens.last(), QString("</s>"));
  for (int r = 0; r < m.rows(); ++r) {
    QVERIFY(std::isnan(m.weights[r].last()));
    QVERIFY(!std::isnan(m.weights[r].first()));
  }
  QCOMPARE(plot->noValueCells(), m.rows());
  plot->replot();
  const QPoint endCell(static_cast<int>(plot->xAxis->coordToPixel(m.columns() - 1)),
                       static_cast<int>(plot->yAxis->coordToPixel(0)));
  const QString tip = plot->toolTipAt(endCell);
  QVERIFY2(tip.contains("no value: leave one out") && tip.contains("end token"), qPrintable(tip));
}

void ExplanationViewTest::theStepPanelShowsBothBars() {
  QVERIFY(translate(kSentence));
  QVERIFY(show(AttributionMethod::kIntegratedGradients));
  QVERIFY(selectStep(kEditedStep));
  StepPanel* panel = window_->stepPanel();
  QVERIFY(panel->attributionBars()->isVisible());
  QVERIFY(panel->attributionLabel()->text().startsWith("integrated gradients at this step"));
  const std::vector<float>& row = panel->attributionBars()->row();
  const AttentionMatrix& shown = window_->heatmap()->matrix();
  QCOMPARE(static_cast<int>(row.size()), shown.columns());
  for (int c = 0; c < shown.columns(); ++c)
    QVERIFY(std::abs(row[c] - shown.weights[kEditedStep][c]) < 1e-6);
  QCOMPARE(bars()->row().size(), row.size());  // the attention's, over the same tokens
  QVERIFY(show(std::nullopt));
  QVERIFY(!panel->attributionBars()->isVisible());
}

void ExplanationViewTest::theChoiceIsRemembered() {
  view()->shownValues()->setSideBySide(true);
  view()->shownValues()->setMethod(AttributionMethod::kLeaveOneOut);
  QCOMPARE(AppSettings().shownValues(), QString("loo"));
  QVERIFY(AppSettings().sideBySide());
  ShownValuesBox again;
  QCOMPARE(again.method(), std::optional<AttributionMethod>(AttributionMethod::kLeaveOneOut));
  QVERIFY(again.sideBySide());
}

void ExplanationViewTest::aModelWithoutGradientsOffersThemDisabledWithTheReason() {
  const std::string path = attnscope::testing::write_scripted_module({}, "plain");
  QVERIFY(openModel(QString::fromStdString(path)));
  QVERIFY(translate("a b c"));
  QComboBox* box = view()->shownValues()->showBox();
  auto* items = qobject_cast<QStandardItemModel*>(box->model());
  QVERIFY(items != nullptr);
  for (AttributionMethod method : attnscope::attribution_methods()) {
    const int i = box->findData(static_cast<int>(method));
    const bool gradient = method != AttributionMethod::kLeaveOneOut;
    QCOMPARE(items->item(i)->isEnabled(), !gradient);
    const QString tip = box->itemData(i, Qt::ToolTipRole).toString();
    if (gradient)
      QVERIFY2(tip.startsWith("Not for this model: ") && tip.contains("embed"), qPrintable(tip));
  }
  // Leave one out needs no gradient: it works for the module.
  QVERIFY(show(AttributionMethod::kLeaveOneOut));
  QCOMPARE(window_->heatmap()->matrix().title, QString("leave one out"));
  QVERIFY(window_->heatmap()->matrix().rows() > 0);
}

void ExplanationViewTest::draggingABarShowsTheWhatIfLine() {
  QVERIFY(translate(kSentence));
  QVERIFY(selectStep(kEditedStep));
  QVERIFY(!view()->whatIfLabel()->isVisible());
  QVERIFY(bars()->isEditable());
  bars()->replot();
  const std::vector<float> own = bars()->row();
  const int bar = 2;
  QTest::mousePress(bars(), Qt::LeftButton, {}, bars()->positionOf(bar, own[bar] / 2));
  QTest::mouseMove(bars(), bars()->positionOf(bar, 0.5));
  QTest::mouseMove(bars(), bars()->positionOf(bar, 0.9));
  QTest::mouseRelease(bars(), Qt::LeftButton, {}, bars()->positionOf(bar, 0.9));
  const QString line = decodedWhatIf();
  QVERIFY(view()->whatIfLabel()->isVisible());
  QVERIFY2(line.contains("What if") && line.contains("step 2: weights set"), qPrintable(line));
  // The edit: the dragged word at about 0.9, the rest scaled to fill 0.1.
  QCOMPARE(explanation()->edits().size(), size_t{1});
  const AttentionEdit& edit = explanation()->edits().at(kEditedStep);
  QCOMPARE(edit.kind, AttentionEdit::Kind::kWeights);
  QVERIFY(std::abs(edit.weights[bar] - 0.9) < 0.05);
  double rest = 0, ownRest = 0;
  for (int i = 0; i < static_cast<int>(own.size()); ++i)
    if (i != bar) {
      rest += edit.weights[i];
      ownRest += own[i];
    }
  QVERIFY(std::abs(rest + edit.weights[bar] - 1.0) < 1e-5);
  QVERIFY(std::abs(edit.weights[0] / rest - own[0] / ownRest) < 1e-4);
  // The line holds the engine's what-if; the bars keep the edited row, the own one outlined.
  const QString words =
      QString::fromStdString(engineWhatIf("additive", explanation()->editList()).text());
  QVERIFY2(QTextDocumentFragment::fromHtml(line).toPlainText().contains(words),
           qPrintable(line + " / " + words));
  QVERIFY(std::abs(bars()->row()[bar] - edit.weights[bar]) < 1e-5);
  QVERIFY(window_->heatmap()->isEdited(window_->heatmap()->matrix().rowOf(kEditedStep)));
  // Dragging again changes the line.
  QTest::mousePress(bars(), Qt::LeftButton, {}, bars()->positionOf(0, 0.2));
  QTest::mouseMove(bars(), bars()->positionOf(0, 0.6));
  QTest::mouseRelease(bars(), Qt::LeftButton, {}, bars()->positionOf(0, 1.0));
  QTRY_VERIFY(std::abs(explanation()->edits().at(kEditedStep).weights[0] - 1.0) < 0.02);
  const QString after = decodedWhatIf();
  QVERIFY(!after.isEmpty());
  const QString onlyFirst =
      QString::fromStdString(engineWhatIf("additive", explanation()->editList()).text());
  QVERIFY2(QTextDocumentFragment::fromHtml(after).toPlainText().contains(onlyFirst),
           qPrintable(after));
}

void ExplanationViewTest::theContextMenuEditsTheStep() {
  QVERIFY(translate(kSentence));
  QVERIFY(selectStep(kEditedStep));
  const auto trigger = [&](const QString& start) {
    bars()->replot();  // laid out as shown: the label above may have wrapped
    std::unique_ptr<QMenu> menu(bars()->contextMenuAt(bars()->positionOf(1, 0.05)));
    for (QAction* action : menu->actions())
      if (action->text().startsWith(start)) {
        UI_VERIFY(action->isEnabled());
        action->trigger();
        return true;
      }
    UI_VERIFY2(false, qPrintable(start));
    return false;
  };
  const QString token = window_->heatmap()->matrix().sourceTokens[1];
  QVERIFY(trigger("Zero '" + token + "'"));
  QCOMPARE(explanation()->edits().at(kEditedStep).kind, AttentionEdit::Kind::kZero);
  QCOMPARE(explanation()->edits().at(kEditedStep).positions, std::vector<int>{1});
  QVERIFY(decodedWhatIf().contains("step 2: zero '" + token + "'"));
  QVERIFY(std::abs(bars()->row()[1]) < 1e-6);  // the bars show the edited row
  QVERIFY(trigger("Only '" + token + "'"));
  QCOMPARE(explanation()->edits().at(kEditedStep).kind, AttentionEdit::Kind::kOneHot);
  QVERIFY(decodedWhatIf().contains("step 2: all on '" + token + "'"));
  QVERIFY(std::abs(bars()->row()[1] - 1.0) < 1e-6);
  QVERIFY(trigger("Uniform"));
  QCOMPARE(explanation()->edits().at(kEditedStep).kind, AttentionEdit::Kind::kUniform);
  QVERIFY(decodedWhatIf().contains("step 2: uniform"));
  QVERIFY(trigger("Shuffle"));
  QCOMPARE(explanation()->edits().at(kEditedStep).kind, AttentionEdit::Kind::kShuffle);
  QVERIFY(decodedWhatIf().contains("step 2: shuffled"));
  QCOMPARE(explanation()->edits().size(), size_t{1});  // one edit per step, the last one
  // The engine's what-if of the same edit, in the line.
  const QString words =
      QString::fromStdString(engineWhatIf("additive", explanation()->editList()).text());
  QVERIFY(
      QTextDocumentFragment::fromHtml(view()->whatIfLabel()->text()).toPlainText().contains(words));
  // The heatmap's row label says the step was edited, and so does its hover.
  const auto ticker = qSharedPointerCast<QCPAxisTickerText>(window_->heatmap()->yAxis->ticker());
  const int row = window_->heatmap()->matrix().rowOf(kEditedStep);
  QVERIFY(ticker->ticks().value(row).endsWith("(edited)"));
}

void ExplanationViewTest::resetEditsReturnsToTheModelsOwn() {
  QVERIFY(translate(kSentence));
  QVERIFY(selectStep(kEditedStep));
  Q_EMIT bars()->editChosen(AttentionBars::Edit::Uniform, 0);
  QVERIFY(!decodedWhatIf().isEmpty());
  QVERIFY(view()->whatIfLabel()->isVisible());
  // The shortcut, from the input line (no text box uses it).
  window_->activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(window_.get()));
  window_->sourceEdit()->setFocus();
  QTest::keyClick(window_->sourceEdit(), Qt::Key_R, Qt::ControlModifier | Qt::ShiftModifier);
  QVERIFY(!explanation()->hasEdits());
  QVERIFY(!view()->whatIfLabel()->isVisible());
  QVERIFY(!window_->heatmap()->isEdited(window_->heatmap()->matrix().rowOf(kEditedStep)));
  QVERIFY(sameWeights(window_->heatmap()->matrix(),
                      engineTranslation(kSentence, "additive").attention));
  QCOMPARE(bars()->row(), window_->controller()->snapshot()->steps[kEditedStep].attention);
  // And the button.
  Q_EMIT bars()->editChosen(AttentionBars::Edit::Zero, 0);
  QVERIFY(!decodedWhatIf().isEmpty());
  QTest::mouseClick(view()->resetEditsButton(), Qt::LeftButton);
  QVERIFY(!explanation()->hasEdits());
  QVERIFY(!view()->whatIfLabel()->isVisible());
  // A new sentence starts without edits.
  Q_EMIT bars()->editChosen(AttentionBars::Edit::Uniform, 0);
  QVERIFY(explanation()->hasEdits());
  QVERIFY(translate("a b c"));
  QVERIFY(!explanation()->hasEdits());
}

void ExplanationViewTest::theNoneModelHasAttributionsButNoBarsToEdit() {
  window_->selectModel("none");
  QTRY_COMPARE(window_->modelBox()->currentText(), QString("none"));
  QVERIFY(translate(kSentence));
  QVERIFY(window_->heatmap()->matrix().noAttention);
  QVERIFY(selectStep(kEditedStep));
  QVERIFY(!bars()->isEditable());
  std::unique_ptr<QMenu> menu(bars()->contextMenuAt(bars()->rect().center()));
  QCOMPARE(menu->actions().size(), 1);
  QVERIFY(!menu->actions()[0]->isEnabled());
  QVERIFY2(menu->actions()[0]->text().startsWith("No attention to edit"),
           qPrintable(menu->actions()[0]->text()));
  // Its attributions show, and say that the model has no attention.
  QVERIFY(show(AttributionMethod::kIntegratedGradients, true));
  QVERIFY(window_->heatmap()->matrix().noAttention);
  const AttentionMatrix& attributed = view()->attributionPlot()->matrix();
  QVERIFY(!attributed.noAttention);
  QVERIFY(attributed.rows() > 0);
  QVERIFY(attributed.title.startsWith("integrated gradients"));
  QVERIFY(window_->stepPanel()->attributionBars()->isVisible());
  QLabel* note = nullptr;
  for (QLabel* label : view()->findChildren<QLabel*>())
    if (label->isVisible() && label->text().contains("no attention")) note = label;
  QVERIFY(note != nullptr);
}

void ExplanationViewTest::compareTriesTheEditOnEveryModel() {
  QVERIFY(editAndTryInCompare());
  QCOMPARE(window_->tabs()->currentWidget(), window_->compareView());
  CompareView* compare = window_->compareView();
  const QString status = compare->statusText();
  int fitted = 0;
  for (int i = 0; i < compare->models().size(); ++i) {
    const QString key = compare->models()[i];
    const QString title = compare->plots()[i]->matrix().title;
    QVERIFY2(title.startsWith(key), qPrintable(title));
    if (key == "none" || key == "dot") {
      // none cannot be edited; the shipped dot reads the sentence in pieces, not these words.
      QVERIFY2(title.endsWith("\nedit does not fit"), qPrintable(title));
      QVERIFY2(status.contains("<b>" + key + "</b>: <i>"), qPrintable(status));
    } else if (key == "additive" || key == "general") {
      ++fitted;
      QVERIFY2(title.contains("\nwhat if: "), qPrintable(title));
      const QString words =
          QString::fromStdString(engineWhatIf(key, explanation()->editList()).text());
      QVERIFY2(QTextDocumentFragment::fromHtml(status).toPlainText().contains(key + ": " + words),
               qPrintable(status));
    }
  }
  QCOMPARE(fitted, 2);
  QVERIFY2(status.contains("<b>none</b>: <i>"), qPrintable(status));
  // Cleared: every model's own decoding again.
  QSignalSpy again(window_.get(), &MainWindow::compareUpdated);
  QTest::mouseClick(compare->clearEditsButton(), Qt::LeftButton);
  QVERIFY(again.wait(20000));
  QVERIFY(!compare->plots()[0]->matrix().title.contains("what if"));
}

void ExplanationViewTest::aSideBySideExportHasBothAndNamesTheMethod() {
  QVERIFY(translate(kSentence));
  QVERIFY(show(AttributionMethod::kIntegratedGradients, true));
  const QString json = files_.filePath("both.json");
  window_->exportTo(json, ExportOptions{});
  QFile file(json);
  QVERIFY(file.open(QIODevice::ReadOnly));
  const QJsonArray heatmaps =
      QJsonDocument::fromJson(file.readAll()).object()["heatmaps"].toArray();
  QCOMPARE(heatmaps.size(), 2);
  QCOMPARE(heatmaps[0].toObject()["model"].toString(), QString("attention"));
  QVERIFY(heatmaps[1].toObject()["model"].toString().contains(
      QRegularExpression("^integrated gradients \\(\\d+ steps")));
  const QString png = files_.filePath("both.png");
  window_->exportTo(png, ExportOptions{QSize(1200, 500)});
  QImage image(png);
  QCOMPARE(image.size(), QSize(1200, 500));
  // Alone, the method's one heatmap.
  view()->shownValues()->setSideBySide(false);
  window_->exportTo(json, ExportOptions{});
  file.close();  // the export replaced the file
  QVERIFY(file.open(QIODevice::ReadOnly));
  const QJsonObject one = QJsonDocument::fromJson(file.readAll()).object();
  QVERIFY(one["model"].toString().startsWith("integrated gradients"));
}

void ExplanationViewTest::typedWeightsAreCheckedBeforeTheDialogCloses() {
  QVERIFY(translate(kSentence));
  QVERIFY(selectStep(kEditedStep));
  const int count = static_cast<int>(bars()->row().size());
  QVERIFY(count > 2);
  QStringList valid(count, QStringLiteral("1"));
  valid[0] = QStringLiteral("3");
  QStringList negative(count, QStringLiteral("1")), letters(count, QStringLiteral("1"));
  negative[1] = QStringLiteral("-1");
  letters[1] = QStringLiteral("x");
  const QList<QPair<QString, QString>> refused = {
      {negative.join(' '), "negative"},
      {letters.join(' '), "'x' is not a decimal number"},
      {QStringList(count, QStringLiteral("0")).join(' '), "sum to 0"},
      {QStringList(count, QStringLiteral("nan")).join(' '), "not a decimal number"},
      {QStringList(count - 1, QStringLiteral("1")).join(' '), "weights for a source of"},
  };
  QStringList seen;
  bool prefilledFinite = false;
  QTimer::singleShot(0, this, [&] {
    auto* dialog = view()->findChild<WeightsDialog*>();
    if (dialog == nullptr) return;
    const QString first = dialog->field()->text();
    prefilledFinite = !first.contains("nan") && !first.contains("inf") &&
                      first.split(' ', Qt::SkipEmptyParts).size() == count;
    for (const auto& [text, why] : refused) {
      dialog->field()->setText(text);
      dialog->accept();  // OK: refused, the dialog stays with one line saying why
      if (dialog->isVisible() && dialog->errorLabel()->toolTip().contains(why) &&
          !dialog->errorLabel()->text().contains('\n'))
        seen << why;
    }
    dialog->field()->setText(valid.join(", "));
    dialog->accept();
  });
  Q_EMIT bars()->editChosen(AttentionBars::Edit::TypeWeights, 0);
  QVERIFY(prefilledFinite);
  QCOMPARE(seen.size(), refused.size());
  QCOMPARE(explanation()->edits().size(), size_t{1});
  const AttentionEdit& edit = explanation()->edits().at(kEditedStep);
  QCOMPARE(edit.kind, AttentionEdit::Kind::kWeights);
  QCOMPARE(edit.weights[0], 3.0f);
  QVERIFY(!decodedWhatIf().contains("&lt;pad&gt;"));
  QVERIFY(!view()->editErrorLabel()->isVisible());
  // Never offered inf or nan: a row holding them is offered uniform.
  const QString shown =
      typedWeightsText({std::numeric_limits<float>::infinity(), std::nanf(""), 1.0f});
  QVERIFY2(!shown.contains("inf") && !shown.contains("nan"), qPrintable(shown));
}

void ExplanationViewTest::aRefusedEditChangesNothing() {
  QVERIFY(translate(kSentence));
  QVERIFY(selectStep(kEditedStep));
  Q_EMIT bars()->editChosen(AttentionBars::Edit::Uniform, 0);
  const QString before = decodedWhatIf();
  QVERIFY(before.contains("step 2: uniform"));
  const int row = window_->heatmap()->matrix().rowOf(kEditedStep);
  const auto rowLabel = [&] {
    return qSharedPointerCast<QCPAxisTickerText>(window_->heatmap()->yAxis->ticker())
        ->ticks()
        .value(row);
  };
  const QString label = rowLabel();
  QVERIFY(label.endsWith("(edited)"));
  // Refused in the tab (weights of the wrong count, negative): nothing sent, nothing changed.
  Q_EMIT bars()->rowDragged(0, {0.5f, -0.5f});
  QCOMPARE(explanation()->edits().at(kEditedStep).kind, AttentionEdit::Kind::kUniform);
  QCOMPARE(view()->whatIfLabel()->text(), before);
  QVERIFY(view()->whatIfLabel()->isVisible());
  QVERIFY(view()->editErrorLabel()->isVisible());
  QVERIFY2(view()->editErrorLabel()->text().contains("weights for a source of"),
           qPrintable(view()->editErrorLabel()->text()));
  QVERIFY(!view()->editErrorLabel()->text().contains('\n'));
  QCOMPARE(rowLabel(), label);
  // Refused by the engine (a step the decoding never reaches): back to the edits before it.
  AttentionEdit far;
  far.step = 500;
  explanation()->setEdit(far);
  QTRY_VERIFY_WITH_TIMEOUT(!explanation()->editBusy(), 10000);
  QCOMPARE(explanation()->edits().size(), size_t{1});
  QVERIFY(explanation()->edits().count(kEditedStep) == 1);
  QVERIFY(!explanation()->refusal().isEmpty());
  QCOMPARE(view()->whatIfLabel()->text(), before);
  QVERIFY(view()->editErrorLabel()->isVisible());
  QCOMPARE(rowLabel(), label);
  // A valid edit clears the line.
  Q_EMIT bars()->editChosen(AttentionBars::Edit::Shuffle, 0);
  QVERIFY(decodedWhatIf().contains("shuffled"));
  QVERIFY(!view()->editErrorLabel()->isVisible());
}

void ExplanationViewTest::clearingTheSentenceShowsTheEmptyStateNotComputing() {
  QVERIFY(translate(kSentence));
  QVERIFY(show(AttributionMethod::kIntegratedGradients, true));
  QVERIFY(!view()->attributionPlot()->matrix().isEmpty());
  window_->sourceEdit()->clear();
  QTest::keyClick(window_->sourceEdit(), Qt::Key_Return);
  QVERIFY(test::workerDrained(window_->controller()->worker()));  // any late answer has come
  for (HeatmapPlot* plot : {window_->heatmap(), view()->attributionPlot()}) {
    QVERIFY(plot->matrix().isEmpty());
    QCOMPARE(plot->emptyText(), window_->sourceEdit()->placeholderText());  // what to type
  }
  // Alone too: the heatmap is the method's.
  QVERIFY(translate(kSentence));
  QVERIFY(show(AttributionMethod::kGradient, false));
  window_->sourceEdit()->clear();
  QTest::keyClick(window_->sourceEdit(), Qt::Key_Return);
  QVERIFY(test::workerDrained(window_->controller()->worker()));
  QCOMPARE(window_->heatmap()->emptyText(), window_->sourceEdit()->placeholderText());
}

void ExplanationViewTest::resetEditsClearsCompareAllsEditsToo() {
  QVERIFY(editAndTryInCompare());
  window_->tabs()->setCurrentWidget(view());
  QTest::mouseClick(view()->resetEditsButton(), Qt::LeftButton);
  QVERIFY(window_->compareView()->edits().edits.empty());
  QSignalSpy again(window_.get(), &MainWindow::compareUpdated);
  window_->tabs()->setCurrentWidget(window_->compareView());
  QVERIFY(again.wait(20000));
  for (HeatmapPlot* plot : window_->compareView()->plots())
    QVERIFY2(!plot->matrix().title.contains("what if"), qPrintable(plot->matrix().title));
  QVERIFY(!window_->compareView()->statusText().contains("edited attention"));
}

void ExplanationViewTest::attributionBarsFitTheirValuesAndSayWhatTheyAre() {
  QVERIFY(translate(kSentence));
  QVERIFY(show(AttributionMethod::kGradient));
  QVERIFY(selectStep(kEditedStep));
  AttentionBars* attribution = window_->stepPanel()->attributionBars();
  attribution->replot();
  double largest = 0;
  for (float v : attribution->row()) largest = std::max(largest, static_cast<double>(v));
  QVERIFY(largest > 0);
  // The axis is the row's, not attention's 0–1: the largest bar reaches near the top.
  const QCPRange range = attribution->yAxis->range();
  QVERIFY2(range.upper >= largest && range.upper <= largest * 1.1,
           qPrintable(QString("%1 for %2").arg(range.upper).arg(largest)));
  QVERIFY(attribution->yAxis->tickVector().size() <= 5);
  QCOMPARE(attribution->valueName(), QString("gradient norm"));
  // The attention's axis stays 0–1.
  QCOMPARE(bars()->yAxis->range().upper, 1.0);
  // Integrated gradients are a contribution to log p, with both numbers of completeness.
  QVERIFY(show(AttributionMethod::kIntegratedGradients));
  QVERIFY(selectStep(kEditedStep));
  QCOMPARE(attribution->valueName(), QString("contribution to log p"));
  QLabel* label = window_->stepPanel()->attributionLabel();
  QVERIFY2(label->text().contains("row sum") && label->text().contains("log p − baseline log p") &&
               label->wordWrap(),
           qPrintable(label->text()));
  QVERIFY(label->toolTip().contains("row sum"));
  QVERIFY(attribution->toolTipAt(attribution->positionOf(0, 0)).contains("row sum"));
  QCOMPARE(attributionValueName(AttributionMethod::kGradientTimesInput),
           QString("contribution to log p"));
  QCOMPARE(attributionValueName(AttributionMethod::kLeaveOneOut), QString("drop of log p"));
}

void ExplanationViewTest::zeroingWordsCombinesAndAStepCanBeRestored() {
  QVERIFY(translate(kSentence));
  QVERIFY(selectStep(0));
  Q_EMIT bars()->editChosen(AttentionBars::Edit::Uniform, 0);  // another step's edit stays
  QVERIFY(selectStep(kEditedStep));
  Q_EMIT bars()->editChosen(AttentionBars::Edit::Zero, 3);
  Q_EMIT bars()->editChosen(AttentionBars::Edit::Zero, 1);
  Q_EMIT bars()->editChosen(AttentionBars::Edit::Zero, 3);  // already zero: once
  QCOMPARE(explanation()->edits().at(kEditedStep).positions, (std::vector<int>{1, 3}));
  QVERIFY(decodedWhatIf().contains("step 2: zero"));
  QVERIFY(std::abs(bars()->row()[1]) < 1e-6 && std::abs(bars()->row()[3]) < 1e-6);
  // Restore this step: from the menu of an edited step only.
  bars()->replot();
  const auto restore = [&]() -> QAction* {
    std::unique_ptr<QMenu> menu(bars()->contextMenuAt(bars()->positionOf(0, 0.05)));
    for (QAction* action : menu->actions())
      if (action->text() == "Restore this step") {
        action->setParent(this);  // outlives the menu
        return action;
      }
    return nullptr;
  };
  QAction* action = restore();
  QVERIFY(action != nullptr);
  QVERIFY(action->isEnabled());
  action->trigger();
  QCOMPARE(explanation()->edits().count(kEditedStep), size_t{0});
  QCOMPARE(explanation()->edits().size(), size_t{1});  // step 1's stays
  QVERIFY(!decodedWhatIf().contains("step 2"));
  QCOMPARE(bars()->row(), window_->controller()->snapshot()->steps[kEditedStep].attention);
  action = restore();
  QVERIFY(action != nullptr && !action->isEnabled());
}

void ExplanationViewTest::exportNamesSayWhatIsShown() {
  QVERIFY(translate(kSentence));
  QCOMPARE(view()->exportName(), QString("attention"));
  QVERIFY(show(AttributionMethod::kIntegratedGradients, true));
  QCOMPARE(view()->exportName(), QString("attention-ig"));
  QVERIFY(show(AttributionMethod::kGradient, false));
  QCOMPARE(view()->exportName(), QString("grad"));
  QVERIFY(show(std::nullopt));
  QVERIFY(editAndTryInCompare());
  QCOMPARE(view()->exportName(), QString("attention-edited"));
  QCOMPARE(window_->compareView()->exportName(), QString("compare-what-if"));
  QMetaObject::invokeMethod(window_->compareView()->clearEditsButton(), "click");
  QCOMPARE(window_->compareView()->exportName(), QString("compare"));
}

void ExplanationViewTest::theStepPanelDoesNotOverlapItselfAt900x600() {
  closeWindow();
  QVERIFY(showWindow("additive", QSize(900, 600)));
  QVERIFY(translate(kSentence));
  QVERIFY(show(AttributionMethod::kIntegratedGradients, true));
  QVERIFY(selectStep(kEditedStep));
  QTest::qWait(50);  // laid out
  StepPanel* panel = window_->stepPanel();
  // Its visible parts, top to bottom, each at least its minimum height and none over another.
  QList<QWidget*> parts;
  for (QWidget* child : panel->findChildren<QWidget*>(Qt::FindDirectChildrenOnly))
    if (child->isVisible()) parts << child;
  std::sort(parts.begin(), parts.end(), [](QWidget* a, QWidget* b) { return a->y() < b->y(); });
  QVERIFY(parts.size() >= 6);
  // The window keeps the size asked for (the panel scrolls instead of making it taller).
  QCOMPARE(window_->size(), QSize(900, 600));
  QVERIFY(panel->height() >= panel->minimumSizeHint().height());
  for (int i = 0; i < parts.size(); ++i) {
    QWidget* part = parts[i];
    const int least = std::max(part->minimumHeight(), part->minimumSizeHint().height());
    QVERIFY2(part->height() >= least, qPrintable(QString("%1: %2 < %3")
                                                     .arg(part->metaObject()->className())
                                                     .arg(part->height())
                                                     .arg(least)));
    QVERIFY2(part->geometry().bottom() < panel->height(),
             qPrintable(QString("%1 cut off").arg(part->metaObject()->className())));
    if (i > 0)
      QVERIFY2(parts[i - 1]->geometry().bottom() < part->y(),
               qPrintable(QString("%1 over %2")
                              .arg(parts[i - 1]->metaObject()->className(),
                                   part->metaObject()->className())));
  }
}

// Arrowing through Show draws each choice but starts no computation until the choice settles
// (each method's computation took seconds, one after another).
void ExplanationViewTest::arrowingThroughShowAsksOnlyWhereItStops() {
  QVERIFY(translate(kSentence));
  QVERIFY(show(std::nullopt));
  QComboBox* box = view()->shownValues()->showBox();
  box->setFocus();
  for (int i = 0; i < 3; ++i) {
    QTest::keyClick(box, Qt::Key_Down);
    QVERIFY2(!explanation()->attributionBusy(), "asked before the choice settled");
  }
  const auto chosen = view()->shownValues()->method();
  QVERIFY(chosen.has_value());
  QVERIFY(QTest::qWaitFor(
      [&] {
        return !explanation()->attributionBusy() && explanation()->attribution() &&
               explanation()->attribution()->request.method == *chosen;
      },
      20000));
}

QTEST_MAIN(ExplanationViewTest)
#include "explanation_view_test.moc"
