// QtTest (offscreen) of issue 31 in the Translation tab: the Beam view of a beam search on the
// shipped additive model, a node's hypothesis in the heatmap and the step panel, a search
// continued from a pruned node, the step keys on the tree, the view hidden for greedy search, a
// new sentence or new penalties searching afresh, and the tree's export.
#include "widgets/beam_view.h"

#include <attnscope/translator.h>

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QImage>
#include <QJsonDocument>
#include <QLabel>
#include <QListWidget>
#include <QScrollArea>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>

#include "core/app_settings.h"
#include "core/beam_node_view.h"
#include "plots/attention_bars.h"
#include "plots/beam_tree_plot.h"
#include "plots/heatmap_plot.h"
#include "tabs/translation_view.h"
#include "ui/fixture.h"
#include "widgets/attention_view_controls.h"
#include "widgets/candidates_view.h"
#include "widgets/shown_values_box.h"
#include "widgets/step_panel.h"
#include "workers/beam_controller.h"

using namespace attnscope::ui;
using attnscope::BeamNode;
using attnscope::BeamTree;
using attnscope::ui::test::qStrings;
using attnscope::ui::test::sameWeights;

namespace {
const QString kSentence = QStringLiteral("A man in an orange hat starring at something.");
// Longer: the old tree's node ids are in its tree too, so a stale answer would fit.
const QString kOtherSentence =
    QStringLiteral("A group of young people are standing in front of a large old building.");
constexpr int kBeam = 5;
constexpr int kPlaySpeed = 4;  // steps a second

// The tokens of the nodes from the root (excluded) to `node`.
QStringList pathTokens(const BeamTree& tree, int node) {
  QStringList tokens;
  for (int n = node; n > 0; n = tree.nodes[static_cast<size_t>(n)].parent)
    tokens.prepend(QString::fromStdString(tree.nodes[static_cast<size_t>(n)].token));
  return tokens;
}
}  // namespace

class BeamViewTest : public test::WindowTest {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void init();
  void cleanup();
  void aBeamShowsTheTreeWhoseBestPathIsTheTranslation();
  void clickingANodeShowsItsHypothesis();
  void continuingFromAPrunedNodeGraftsWhereItLeads();
  void theStepKeysRevealTheSearchOneStepAtATime();
  void theStepKeysFollowAClickedNodesPath();
  void playRevealsTheSearchToItsEnd();
  void greedySearchHidesTheBeamView();
  void anAttributionChosenKeepsTheBeamsAttentionInView();
  void aNewSentenceDropsTheOldTree();
  void newPenaltiesSearchAgainAndAreRemembered();
  void exportWritesTheTreeWhileItHasTheFocus();
  void theTreeLeavesTheHeatmapHalfTheRoomInASmallWindow();
  void aCutSentenceIsSaidInBeamModeAsInGreedy();

 private:
  BeamView* beam() const { return window_->translationView()->beamView(); }
  BeamTreePlot* plot() const { return beam()->plot(); }
  // Translates `sentence` with the window's beam and waits until its tree is drawn.
  bool search(const QString& sentence);
  // Waits until the Beam view has every answer it asked for.
  bool beamSettled() const;
  // Whether `node`'s box is within the scroll area's view of the tree.
  bool nodeInView(const QScrollArea* scroll, int node) const;
  // The engine's own recorded search of `sentence` with `options` (beam kBeam unless set).
  attnscope::Translation engineSearch(const QString& sentence, BeamTree& tree,
                                      attnscope::TranslationOptions options = {}) const;
  // A node of the shown tree at step `step` or deeper, not on the best path, in `state`,
  // drawn; −1 when there is none.
  int offBestNode(BeamNode::State state, int step = 2) const;
};

void BeamViewTest::initTestCase() {
  QVERIFY(test::isolateSettings());
  QVERIFY(models_.isValid());
  // The shipped model, trained: its search has real competitors to prune.
  QVERIFY(listModel(QStringLiteral(ATTNSCOPE_SHIPPED_MODELS "/additive.attnmodel"),
                    QStringLiteral("additive")));
  qputenv("ATTNSCOPE_MODEL_DIR", models_.path().toUtf8());
}

void BeamViewTest::init() {
  AppSettings settings;
  settings.setBeamSize(kBeam);
  settings.setLengthPenalty(-1.0);
  settings.setCoveragePenalty(0.0);
  settings.setShowPruned(true);
  settings.setPlaySpeed(kPlaySpeed);
  QVERIFY(showWindow("additive", QSize(1200, 900)));
  // The heatmap in pieces, as the tree is: a subword model's word view merges a word's rows.
  window_->viewControls()->wordsBox()->setChecked(false);
}

void BeamViewTest::cleanup() { closeWindow(); }

bool BeamViewTest::beamSettled() const {
  return QTest::qWaitFor(
      [&] { return !beam()->controller()->busy() && !window_->controller()->busy(); }, 30000);
}

bool BeamViewTest::search(const QString& sentence) {
  UI_VERIFY(translate(sentence, Entry::Set, Settle::Yes, 30000));
  UI_VERIFY(beamSettled());
  UI_VERIFY(beam()->controller()->result().has_value());
  UI_VERIFY(!plot()->isEmpty());
  return true;
}

bool BeamViewTest::nodeInView(const QScrollArea* scroll, int node) const {
  const QRectF box = plot()->nodeRect(node);
  const QPoint centre = plot()->mapTo(scroll->viewport(), box.center().toPoint());
  return !box.isEmpty() && scroll->viewport()->rect().contains(centre);
}

attnscope::Translation BeamViewTest::engineSearch(const QString& sentence, BeamTree& tree,
                                                  attnscope::TranslationOptions options) const {
  if (options.beam_size == 1) options.beam_size = kBeam;
  return attnscope::Translator(modelPath("additive").toStdString())
      .translate_with_tree(sentence.toStdString(), options, tree);
}

int BeamViewTest::offBestNode(BeamNode::State state, int step) const {
  const BeamTree& tree = plot()->tree();
  for (const BeamNode& n : tree.nodes)
    if (n.step >= step && n.state == state && n.token != "</s>" &&
        std::find(tree.best.begin(), tree.best.end(), n.id) == tree.best.end() &&
        !plot()->nodeRect(n.id).isEmpty())
      return n.id;
  return -1;
}

void BeamViewTest::aBeamShowsTheTreeWhoseBestPathIsTheTranslation() {
  QVERIFY(search(kSentence));
  QVERIFY(beam()->isVisible());
  BeamTree expected;
  const attnscope::Translation best = engineSearch(kSentence, expected);
  const BeamTree& shown = plot()->tree();
  QCOMPARE(shown.nodes.size(), expected.nodes.size());
  QCOMPARE(shown.best, expected.best);
  // The best path spells the translation the heatmap and the translation line show.
  const QStringList bestPath = pathTokens(shown, shown.best.back());
  QVERIFY(best.copied.empty());  // so the model's tokens are the translation's
  QCOMPARE(bestPath, qStrings(best.tokens));
  QCOMPARE(window_->heatmap()->matrix().targetTokens, bestPath);
  QVERIFY(sameWeights(window_->heatmap()->matrix(), best.attention));
  QVERIFY(window_->outputLabel()->text().contains(QString::fromStdString(best.text())));
  QVERIFY(beam()->summaryLabel()->text().contains(QStringLiteral("Beam %1").arg(kBeam)));
  QVERIFY(beam()->summaryLabel()->text().contains(
      QString::number(expected.nodes[expected.best.back()].final_score, 'f', 3)));
  // The final beam is listed beside the heatmap as before; choosing one of its hypotheses
  // selects its finished node in the tree, whose step the step panel shows.
  QCOMPARE(window_->beamList()->count(), kBeam);
  // Each hypothesis's score comes first, where a narrow list cannot hide it.
  QVERIFY2(window_->beamList()->item(0)->text().startsWith(QString::number(best.score, 'f', 3)),
           qPrintable(window_->beamList()->item(0)->text()));
  window_->beamList()->setCurrentRow(1);
  const int chosen = plot()->selectedNode();
  QVERIFY(chosen > 0);
  QCOMPARE(shown.nodes[static_cast<size_t>(chosen)].state, BeamNode::State::kFinished);
  QVERIFY(chosen != shown.best.back());
  QCOMPARE(window_->heatmap()->matrix().targetTokens, pathTokens(shown, chosen));
  QCOMPARE(window_->stepPanel()->candidates()->count() > 0, true);
  window_->beamList()->setCurrentRow(0);
  QCOMPARE(plot()->selectedNode(), shown.best.back());
  // The tree is taller than its view, scrolled so the best leaf shows, and follows ← to its
  // parent.
  const QScrollArea* scroll = beam()->findChild<QScrollArea*>(QStringLiteral("beamTreeScroll"));
  QVERIFY(scroll != nullptr);
  QVERIFY(plot()->height() > scroll->viewport()->height());
  QTRY_VERIFY(nodeInView(scroll, shown.best.back()));
  QTest::keyClick(window_->heatmap(), Qt::Key_Home);
  QTRY_VERIFY(nodeInView(scroll, 0));
  QTest::keyClick(window_->heatmap(), Qt::Key_End);
  QTRY_VERIFY(nodeInView(scroll, shown.best.back()));
}

void BeamViewTest::clickingANodeShowsItsHypothesis() {
  QVERIFY(search(kSentence));
  const int node = offBestNode(BeamNode::State::kPruned);
  QVERIFY2(node > 0, "no pruned node off the best path is drawn");
  const BeamTree tree = plot()->tree();
  const BeamNode& n = tree.nodes[static_cast<size_t>(node)];
  QTest::mouseClick(plot(), Qt::LeftButton, {}, plot()->nodeRect(node).center().toPoint());
  QVERIFY(QTest::qWaitFor([&] { return window_->heatmap()->matrix().rows() == n.step; }, 20000));
  QCOMPARE(plot()->selectedNode(), node);
  // The node's hypothesis as the engine decodes its path, forced, as many steps as it is deep.
  attnscope::TranslationOptions forced;
  forced.prefix = tree.path(node);
  forced.max_length_ratio = 0.0f;
  forced.max_length_extra = n.step;
  const attnscope::Translation expected = attnscope::Translator(modelPath("additive").toStdString())
                                              .translate(kSentence.toStdString(), forced);
  QCOMPARE(window_->heatmap()->matrix().targetTokens, pathTokens(tree, node));
  QVERIFY(sameWeights(window_->heatmap()->matrix(), expected.attention));
  QVERIFY(
      window_->outputLabel()->text().contains(QStringLiteral("beam node: step %1").arg(n.step)));
  // The step panel: the node's attention row, and the candidates its parent scored.
  const std::vector<float>& bars = window_->stepPanel()->bars()->row();
  QCOMPARE(bars.size(), expected.attention.back().size());
  for (size_t i = 0; i < bars.size(); ++i)
    QVERIFY(qAbs(bars[i] - expected.attention.back()[i]) < 1e-6);
  QStringList siblings, candidates;
  for (const BeamNode& sibling : tree.nodes)
    if (sibling.parent == n.parent) siblings << QString::fromStdString(sibling.token);
  const CandidatesView* list = window_->stepPanel()->candidates();
  for (int i = 0; i < list->count(); ++i)
    candidates << list->item(i)->data(Qt::UserRole).toString();
  QCOMPARE(candidates.size(), siblings.size());
  for (const QString& token : siblings) QVERIFY2(candidates.contains(token), qPrintable(token));
  // A row clicked in the heatmap: that step of the node's path in the step panel (its
  // candidates the root's children for the first), the heatmap kept whole.
  Q_EMIT window_->heatmap()->rowClicked(0);
  QCOMPARE(window_->heatmap()->currentRow(), 0);
  QCOMPARE(window_->heatmap()->matrix().rows(), n.step);
  QStringList firstSiblings, firstCandidates;
  for (const BeamNode& other : tree.nodes)
    if (other.parent == 0) firstSiblings << QString::fromStdString(other.token);
  for (int i = 0; i < list->count(); ++i)
    firstCandidates << list->item(i)->data(Qt::UserRole).toString();
  firstSiblings.sort();
  firstCandidates.sort();
  QCOMPARE(firstCandidates, firstSiblings);
  for (size_t i = 0; i < bars.size(); ++i)  // the bars are step 1's attention now
    QVERIFY(qAbs(window_->stepPanel()->bars()->row()[i] - expected.attention.front()[i]) < 1e-6);
  // Back to the node's own step, then a candidate clicked goes to its node: the sibling with
  // that token.
  Q_EMIT window_->heatmap()->rowClicked(n.step - 1);
  QCOMPARE(window_->heatmap()->currentRow(), n.step - 1);
  QVERIFY(list->toolTip().contains("beam tree"));
  int sibling = -1;
  for (const BeamNode& other : tree.nodes)
    if (other.parent == n.parent && other.id != node) sibling = other.id;
  QVERIFY(sibling > 0);
  const QString token = QString::fromStdString(tree.nodes[static_cast<size_t>(sibling)].token);
  const int row = static_cast<int>(candidates.indexOf(token));
  QTest::mouseClick(list->viewport(), Qt::LeftButton, {},
                    list->visualItemRect(list->item(row)).center());
  QCOMPARE(plot()->selectedNode(), sibling);
  QVERIFY(QTest::qWaitFor(
      [&] { return window_->heatmap()->matrix().targetTokens == pathTokens(tree, sibling); },
      20000));
}

void BeamViewTest::continuingFromAPrunedNodeGraftsWhereItLeads() {
  QVERIFY(search(kSentence));
  const int node = offBestNode(BeamNode::State::kPruned, 1);
  QVERIFY2(node > 0, "no pruned node off the best path is drawn");
  const size_t before = plot()->tree().nodes.size();
  const QStringList prefix = pathTokens(plot()->tree(), node);
  attnscope::TranslationOptions resumed;
  resumed.beam_size = kBeam;
  resumed.prefix = plot()->tree().path(node);
  BeamTree continuation;
  const attnscope::Translation led = engineSearch(kSentence, continuation, resumed);
  Q_EMIT plot()->continueRequested(node);  // the node's context menu: Continue from here
  QVERIFY(beamSettled());
  QVERIFY(plot()->tree().nodes.size() > before);
  const std::vector<int> grafted = plot()->continuationPath(node);
  QVERIFY(!grafted.empty());
  QVERIFY(plot()->isContinued(grafted.back()));
  // The heatmap shows where it led: the node's path first, then the resumed search's best.
  const AttentionMatrix& shown = window_->heatmap()->matrix();
  QCOMPARE(shown.targetTokens, qStrings(led.tokens));
  QCOMPARE(shown.targetTokens.mid(0, prefix.size()), prefix);
  QVERIFY(sameWeights(shown, led.attention));
  QCOMPARE(plot()->selectedNode(), grafted.back());
  QVERIFY(beam()->noteLabel()->text().contains(QStringLiteral("Continued from step")));
  QVERIFY(beam()->noteLabel()->text().contains(QString::fromStdString(led.text())));
  // The title line counts the grafted nodes apart from the search's.
  QVERIFY2(beam()->summaryLabel()->text().contains(QStringLiteral("%1 more from continued searches")
                                                       .arg(plot()->tree().nodes.size() - before)),
           qPrintable(beam()->summaryLabel()->text()));
}

void BeamViewTest::theStepKeysRevealTheSearchOneStepAtATime() {
  QVERIFY(search(kSentence));
  const int last = plot()->lastStep();
  QVERIFY(last >= 3);
  QCOMPARE(plot()->visibleSteps(), last);
  QWidget* focus = window_->heatmap();
  QTest::keyClick(focus, Qt::Key_Left);
  QCOMPARE(plot()->visibleSteps(), last - 1);
  QCOMPARE(window_->heatmap()->matrix().rows(), last - 1);  // the best hypothesis so far
  QTest::keyClick(focus, Qt::Key_Right);
  QCOMPARE(plot()->visibleSteps(), last);
  QTest::keyClick(focus, Qt::Key_Home);
  QCOMPARE(plot()->visibleSteps(), 0);
  QTest::keyClick(focus, Qt::Key_Right);
  QTest::keyClick(focus, Qt::Key_Right);
  QCOMPARE(plot()->visibleSteps(), 2);
  const BeamTree& tree = plot()->tree();
  QCOMPARE(window_->heatmap()->matrix().targetTokens, pathTokens(tree, tree.best[2]));
  QTest::keyClick(focus, Qt::Key_End);
  QCOMPARE(plot()->visibleSteps(), last);
  QCOMPARE(window_->heatmap()->matrix().targetTokens, pathTokens(tree, tree.best.back()));
  // The greedy session was never started: the keys stepped the tree only.
  QVERIFY(!window_->controller()->snapshot().has_value());
}

// After a click the keys step along the clicked node's path and on from it (they only revealed
// more of the tree, the heatmap stuck on the node); Home returns to the best path.
void BeamViewTest::theStepKeysFollowAClickedNodesPath() {
  QVERIFY(search(kSentence));
  const BeamTree tree = plot()->tree();
  int node = -1;  // kept, off the best path, and the search went on from it
  for (const BeamNode& n : tree.nodes)
    if (n.step >= 2 && n.state == BeamNode::State::kKept && !isOnBestPath(tree, n.id) &&
        bestContinuation(tree, n.id) > 0) {
      node = n.id;
      break;
    }
  QVERIFY2(node > 0, "no kept node off the best path with a continuation");
  const auto shows = [&](int shown) {
    return QTest::qWaitFor(
        [&] { return window_->heatmap()->matrix().targetTokens == pathTokens(tree, shown); },
        20000);
  };
  QTest::mouseClick(plot(), Qt::LeftButton, {}, plot()->nodeRect(node).center().toPoint());
  QVERIFY(shows(node));
  QWidget* focus = plot();  // the click gave the tree the focus: the keys step there too
  const int next = bestContinuation(tree, node);
  QTest::keyClick(focus, Qt::Key_Right);
  QCOMPARE(plot()->selectedNode(), next);
  QVERIFY2(shows(next), qPrintable(window_->heatmap()->matrix().targetTokens.join(' ')));
  QTest::keyClick(focus, Qt::Key_Left);
  QTest::keyClick(focus, Qt::Key_Left);
  const int parent = tree.nodes[static_cast<size_t>(node)].parent;
  QVERIFY2(shows(parent), qPrintable(window_->heatmap()->matrix().targetTokens.join(' ')));
  QCOMPARE(plot()->visibleSteps(), tree.nodes[static_cast<size_t>(parent)].step);
  QTest::keyClick(focus, Qt::Key_Home);
  QCOMPARE(plot()->selectedNode(), -1);
  QTest::keyClick(focus, Qt::Key_Right);
  QVERIFY(shows(tree.best[1]));
}

void BeamViewTest::playRevealsTheSearchToItsEnd() {
  QVERIFY(search(kSentence));
  const int last = plot()->lastStep();
  QWidget* focus = window_->heatmap();
  QSignalSpy playing(beam(), &BeamView::playingChanged);
  // Shown to its end already: Space plays it again from the root, one step at a time.
  QTest::keyClick(focus, Qt::Key_Space);
  QVERIFY(beam()->playing());
  QCOMPARE(plot()->visibleSteps(), 0);
  QTRY_VERIFY(plot()->visibleSteps() > 0);
  QVERIFY(plot()->visibleSteps() < last);
  // A step back by hand pauses it.
  QTest::keyClick(focus, Qt::Key_Left);
  QVERIFY(!beam()->playing());
  const int paused = plot()->visibleSteps();
  // Play is its timer (playing() is whether it runs): stopped, and an event already queued
  // changes nothing once delivered.
  QCoreApplication::processEvents();
  QVERIFY(!beam()->playing());
  QCOMPARE(plot()->visibleSteps(), paused);
  // Space again plays on from there and stops at the last step.
  QTest::keyClick(focus, Qt::Key_Space);
  QTRY_VERIFY_WITH_TIMEOUT(!beam()->playing(), 30000);
  QCOMPARE(plot()->visibleSteps(), last);
  const BeamTree& tree = plot()->tree();
  QCOMPARE(window_->heatmap()->matrix().targetTokens, pathTokens(tree, tree.best.back()));
  QCOMPARE(playing.count(), 4);                             // on, off, on, off
  QVERIFY(!window_->controller()->snapshot().has_value());  // no greedy session started
}

// Attributions explain greedy decoding. With Show on a method, a beam's hypothesis keeps its
// attention in the heatmap (not an empty plot), the note line and the step panel say why, and an
// export is named by what it draws; with Beside attention ticked too (no empty plot beside it).
void BeamViewTest::anAttributionChosenKeepsTheBeamsAttentionInView() {
  QVERIFY(search(kSentence));
  const AttentionMatrix attention = window_->heatmap()->matrix();
  QVERIFY(!attention.isEmpty());
  const int framed = window_->heatmap()->currentRow();  // the best node's last step
  QVERIFY(framed >= 0);
  TranslationView* view = window_->translationView();
  view->shownValues()->setSideBySide(false);
  view->shownValues()->setMethod(attnscope::AttributionMethod::kIntegratedGradients);
  QTRY_VERIFY(view->noteLabel()->isVisible());
  QVERIFY2(view->noteLabel()->text().contains(QStringLiteral("choose Greedy")),
           qPrintable(view->noteLabel()->text()));
  QCOMPARE(window_->heatmap()->matrix().targetTokens, attention.targetTokens);
  QCOMPARE(window_->heatmap()->matrix().weights, attention.weights);
  QCOMPARE(window_->heatmap()->currentRow(), framed);  // the step in view keeps its frame
  QCOMPARE(view->exportName(), QStringLiteral("attention"));
  view->shownValues()->setSideBySide(true);
  QTRY_VERIFY(view->noteLabel()->isVisible());
  QVERIFY(!view->attributionPlot()->isVisible());
  QCOMPARE(window_->heatmap()->matrix().weights, attention.weights);
  QCOMPARE(view->exportName(), QStringLiteral("attention"));
  view->shownValues()->setSideBySide(false);
  // Back to attention: the note goes.
  view->shownValues()->setMethod(std::nullopt);
  QTRY_VERIFY(!view->noteLabel()->isVisible());
}

void BeamViewTest::greedySearchHidesTheBeamView() {
  QVERIFY(search(kSentence));
  QVERIFY(beam()->isVisible());
  searchBox()->setCurrentText("Greedy");  // translates again, greedily
  QVERIFY(settled());
  QVERIFY(QTest::qWaitFor([&] { return window_->controller()->snapshot().has_value(); }, 20000));
  QVERIFY(!beam()->isVisible());
  QVERIFY(!beam()->isActive());
  QVERIFY(plot()->isEmpty());
}

void BeamViewTest::aNewSentenceDropsTheOldTree() {
  QVERIFY(search(kSentence));
  // A continuation and a node asked for on the old tree, then a new sentence at once: their
  // answers, and the old search's, must not reach the new tree.
  const int pruned = offBestNode(BeamNode::State::kPruned, 1);
  QVERIFY(pruned > 0);
  // Counted once everything is answered, not waited for.
  QSignalSpy continued(beam()->controller(), &BeamController::continued);
  QSignalSpy decoded(beam()->controller(), &BeamController::nodeDecoded);
  Q_EMIT plot()->continueRequested(pruned);
  Q_EMIT plot()->nodeClicked(offBestNode(BeamNode::State::kPruned, 2));
  window_->sourceEdit()->setText(kOtherSentence);
  QTest::keyClick(window_->sourceEdit(), Qt::Key_Return);
  QVERIFY(beamSettled());
  QVERIFY(!plot()->isEmpty());
  QCOMPARE(continued.count(), 0);
  QCOMPARE(decoded.count(), 0);
  BeamTree expected;
  const attnscope::Translation best = engineSearch(kOtherSentence, expected);
  QCOMPARE(plot()->tree().nodes.size(), expected.nodes.size());
  QCOMPARE(plot()->continuationPath(pruned), std::vector<int>{});
  QCOMPARE(beam()->controller()->result()->request.sentence, kOtherSentence);
  QCOMPARE(window_->heatmap()->matrix().targetTokens, qStrings(best.tokens));
}

void BeamViewTest::newPenaltiesSearchAgainAndAreRemembered() {
  QVERIFY(search(kSentence));
  auto* alpha = window_->findChild<QDoubleSpinBox*>("lengthPenaltyBox");
  auto* beta = window_->findChild<QDoubleSpinBox*>("coveragePenaltyBox");
  QVERIFY(alpha != nullptr && beta != nullptr);
  QVERIFY(alpha->isEnabled() && beta->isEnabled());
  alpha->setValue(1.0);
  beta->setValue(0.4);
  QVERIFY(beamSettled());
  const BeamRequest& request = beam()->controller()->result()->request;
  QCOMPARE(request.lengthPenalty, 1.0f);
  QVERIFY(qAbs(request.coveragePenalty - 0.4f) < 1e-6);
  attnscope::TranslationOptions penalised;
  penalised.gnmt_alpha = 1.0f;
  penalised.coverage_penalty = 0.4f;
  BeamTree expected;
  engineSearch(kSentence, expected, penalised);
  const BeamTree& shown = plot()->tree();
  QCOMPARE(shown.nodes.size(), expected.nodes.size());
  QCOMPARE(shown.nodes[shown.best.back()].final_score,
           expected.nodes[expected.best.back()].final_score);
  window_->close();  // saves the choices
  const AppSettings settings;
  QCOMPARE(settings.lengthPenalty(), 1.0);
  QVERIFY(qAbs(settings.coveragePenalty() - 0.4) < 1e-6);
}

void BeamViewTest::exportWritesTheTreeWhileItHasTheFocus() {
  QVERIFY(search(kSentence));
  TranslationView* view = window_->translationView();
  QCOMPARE(view->exportName(), QStringLiteral("attention"));  // the heatmap has the focus
  plot()->setFocus();
  QVERIFY(QTest::qWaitFor([&] { return plot()->hasFocus(); }, 2000));
  QCOMPARE(view->exportName(), QStringLiteral("beam-tree"));
  // The title an export suggests names the model, the beam and the sentence (Export tree… and
  // the window's Export alike).
  const QString title = view->exportTitle();
  QVERIFY2(title.startsWith(QStringLiteral("additive · beam %1 · ").arg(kBeam)) &&
               title.contains(kSentence),
           qPrintable(title));
  QCOMPARE(beam()->exportTitle(), title);
  QTemporaryDir folder;
  const QString json = folder.filePath("beam-tree.json");
  window_->exportTo(json, {view->exportSize(), 1.0});
  QFile file(json);
  QVERIFY(file.open(QIODevice::ReadOnly));
  QJsonParseError error;
  QJsonDocument::fromJson(file.readAll(), &error);
  QCOMPARE(error.error, QJsonParseError::NoError);
  const QString png = folder.filePath("beam-tree.png");
  window_->exportTo(png, {view->exportSize(), 1.0});
  QImage image(png);
  QVERIFY(!image.isNull());
  QCOMPARE(image.size(), plot()->sizeHint());
  // The Show pruned box is the plot's switch, and remembered.
  beam()->showPrunedBox()->setChecked(false);
  QVERIFY(!plot()->showPruned());
  QVERIFY(!AppSettings().showPruned());
}

// At 1200×800 the tree took most of the height and left the heatmap a strip.
void BeamViewTest::theTreeLeavesTheHeatmapHalfTheRoomInASmallWindow() {
  window_->resize(1200, 800);
  QVERIFY(search(kSentence));
  QVERIFY(beam()->isVisible());
  QTest::qWait(50);  // the splitter lays out once it is shown
  const int heatmap = window_->heatmap()->height();
  QVERIFY2(heatmap >= beam()->height() * 0.9,
           qPrintable(QString("heatmap %1 px, tree %2 px").arg(heatmap).arg(beam()->height())));
  QVERIFY2(beam()->height() >= 150, qPrintable(QString::number(beam()->height())));
}

// The note greedy decoding shows under a sentence longer than the model reads: the beam's
// hypothesis says it too, and so does a node of the tree.
void BeamViewTest::aCutSentenceIsSaidInBeamModeAsInGreedy() {
  QStringList words;
  for (int i = 0; i < 120; ++i) words << QStringLiteral("dog");
  QVERIFY(search(words.join(' ')));
  const QString note = QStringLiteral("The sentence has 120 words; the model reads the first");
  QVERIFY2(window_->outputLabel()->text().contains(note),
           qPrintable(window_->outputLabel()->text()));
  const int node = offBestNode(BeamNode::State::kPruned, 1);
  QVERIFY2(node > 0, "no pruned node off the best path is drawn");
  QTest::mouseClick(plot(), Qt::LeftButton, {}, plot()->nodeRect(node).center().toPoint());
  QVERIFY(QTest::qWaitFor([&] { return plot()->selectedNode() == node; }, 20000));
  QVERIFY(QTest::qWaitFor(
      [&] {
        const QString text = window_->outputLabel()->text();
        return text.contains(QStringLiteral("beam node")) && text.contains(note);
      },
      20000));
}

QTEST_MAIN(BeamViewTest)
#include "beam_view_test.moc"
