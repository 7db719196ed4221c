// QtTest (offscreen) of the beam tree widget alone (issue 31), on a tree built by hand and on the
// shipped additive model's search: a tidy layout (no boxes overlapping, steps left to right,
// parents centred over their children), pruned subtrees hidden and shown, clicks and the context
// menu, a continuation grafted under its node, steps hidden, and the four exports.
#include "plots/beam_tree_plot.h"

#include <attnscope/beam_tree_json.h>
#include <attnscope/translator.h>

#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QImageReader>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

#include "core/token_text.h"
#include "plots/colormaps.h"
#include "time_scale.h"

using namespace attnscope::ui;
using attnscope::BeamNode;
using attnscope::BeamTree;
using State = attnscope::BeamNode::State;

namespace {

const std::string kSentence = "A man rides a bike down the street.";

// A node whose score is its parent's plus its log-probability, as the engine records them.
void addNode(BeamTree& tree, int parent, const std::string& token, float logp, State state,
             float finalScore = 0.0f) {
  BeamNode n;
  n.id = static_cast<int>(tree.nodes.size());
  n.parent = parent;
  n.step = parent < 0 ? 0 : tree.nodes[static_cast<size_t>(parent)].step + 1;
  n.token = token;
  n.token_id = n.id + 4;
  n.logp = logp;
  n.score = parent < 0 ? 0.0f : tree.nodes[static_cast<size_t>(parent)].score + logp;
  n.state = state;
  n.final_score = finalScore;
  tree.nodes.push_back(n);
}

// Beam 2 over three steps: two finished hypotheses, pruned candidates at every step, a pruned
// SentencePiece token ("▁hat") and a pruned node at step 1 with no children.
BeamTree handTree() {
  BeamTree t;
  t.beam_size = 2;
  addNode(t, -1, "<s>", 0.0f, State::kRoot);                 // 0
  addNode(t, 0, "\u2581ein", -0.2f, State::kKept);           // 1
  addNode(t, 0, "\u2581der", -0.9f, State::kKept);           // 2
  addNode(t, 0, "\u2581die", -2.5f, State::kPruned);         // 3
  addNode(t, 1, "\u2581hund", -0.1f, State::kKept);          // 4
  addNode(t, 1, "</s>", -1.0f, State::kFinished, -0.6f);     // 5
  addNode(t, 1, "\u2581katze", -3.0f, State::kPruned);       // 6
  addNode(t, 2, "\u2581mann", -0.5f, State::kKept);          // 7
  addNode(t, 2, "\u2581frau", -1.2f, State::kPruned);        // 8
  addNode(t, 4, "</s>", -0.05f, State::kFinished, -0.2f);    // 9
  addNode(t, 4, "\u2581hat", -2.0f, State::kPruned);         // 10
  addNode(t, 7, "</s>", -0.3f, State::kFinished, -0.9f);     // 11
  addNode(t, 7, "\u2581l\u00e4uft", -2.2f, State::kPruned);  // 12
  t.best = {0, 1, 4, 9};
  return t;
}

BeamTree searchTree(const std::vector<int>& prefix = {}) {
  attnscope::TranslationOptions options;
  options.beam_size = 5;
  options.prefix = prefix;
  BeamTree tree;
  attnscope::Translator(ATTNSCOPE_SHIPPED_MODELS "/additive.attnmodel")
      .translate_with_tree(kSentence, options, tree);
  return tree;
}

std::vector<int> shownNodes(const BeamTreePlot& plot) {
  std::vector<int> shown;
  for (const BeamNode& n : plot.tree().nodes)
    if (!plot.nodeRect(n.id).isEmpty()) shown.push_back(n.id);
  return shown;
}

bool hasPrunedAncestorOrSelf(const BeamTree& tree, int node) {
  for (int n = node; n >= 0; n = tree.nodes[static_cast<size_t>(n)].parent)
    if (tree.nodes[static_cast<size_t>(n)].state == State::kPruned) return true;
  return false;
}

// The layout's promises, on every node shown: inside the widget, no two boxes intersecting,
// every step's boxes right of the step before's, each parent's centre midway between its
// outermost children's.
// Returns an empty string, or what is wrong.
QString layoutProblem(const BeamTreePlot& plot) {
  const BeamTree& tree = plot.tree();
  const std::vector<int> shown = shownNodes(plot);
  const QRectF widget(QPointF(0, 0), QSizeF(plot.sizeHint()));
  std::map<int, std::pair<double, double>> columns;  // step: leftmost left, rightmost right
  for (int id : shown) {
    const QRectF r = plot.nodeRect(id);
    if (!widget.contains(r)) return QStringLiteral("node %1 outside the size hint").arg(id);
    const int step = tree.nodes[static_cast<size_t>(id)].step;
    auto [it, added] = columns.emplace(step, std::make_pair(r.left(), r.right()));
    it->second = {std::min(it->second.first, r.left()), std::max(it->second.second, r.right())};
  }
  for (auto it = columns.begin(); std::next(it) != columns.end(); ++it)
    if (!(it->second.second < std::next(it)->second.first))
      return QStringLiteral("step %1 reaches into step %2").arg(it->first).arg(it->first + 1);
  // Sorted by top, a box can only meet those that start above its bottom.
  std::vector<int> byTop = shown;
  std::sort(byTop.begin(), byTop.end(),
            [&](int a, int b) { return plot.nodeRect(a).top() < plot.nodeRect(b).top(); });
  for (size_t i = 0; i < byTop.size(); ++i)
    for (size_t j = i + 1;
         j < byTop.size() && plot.nodeRect(byTop[j]).top() < plot.nodeRect(byTop[i]).bottom(); ++j)
      if (plot.nodeRect(byTop[i]).intersects(plot.nodeRect(byTop[j])))
        return QStringLiteral("nodes %1 and %2 overlap").arg(byTop[i]).arg(byTop[j]);
  std::map<int, std::pair<double, double>> childSpan;  // parent: lowest, highest child centre
  for (int id : shown) {
    const int parent = tree.nodes[static_cast<size_t>(id)].parent;
    if (parent < 0) continue;
    if (plot.nodeRect(parent).isEmpty())
      return QStringLiteral("node %1 shown, its parent not").arg(id);
    const double y = plot.nodeRect(id).center().y();
    auto [it, added] = childSpan.emplace(parent, std::make_pair(y, y));
    it->second = {std::min(it->second.first, y), std::max(it->second.second, y)};
  }
  for (const auto& [parent, span] : childSpan) {
    const double y = plot.nodeRect(parent).center().y();
    if (std::abs(y - (span.first + span.second) / 2) > 0.5)
      return QStringLiteral("node %1 at y %2 is not centred between its children (%3 to %4)")
          .arg(parent)
          .arg(y)
          .arg(span.first)
          .arg(span.second);
  }
  return {};
}

QByteArray readAll(const QString& path) {
  QFile file(path);
  return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// A node of `tree` at step 2 or deeper, pruned, not an end token: one to continue from.
int prunedNode(const BeamTree& tree) {
  for (const BeamNode& n : tree.nodes)
    if (n.step >= 2 && n.state == State::kPruned && n.token != "</s>") return n.id;
  return -1;
}

}  // namespace

class BeamTreePlotTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void aHandBuiltTreeIsLaidOutTidily();
  void aRealSearchIsLaidOutTidily();
  void hidingPrunedRemovesExactlyThePrunedSubtrees();
  void clickingANodeSelectsIt();
  void theContextMenuContinuesOnlyFromPrunedNodes();
  void aContinuationIsGraftedUnderItsNode();
  void visibleStepsHideDeeperNodes();
  void tooltipsWriteTokensAsTheScreenDoes();
  void exportsWriteTheWholeTree();
  void aTitleIsDrawnAboveTheTree();
  void badExportPathsThrowNamingThePath();
  void aLargeTreeIsLaidOutAndPaintedQuickly();
  void finishedScoresThatTieAtTwoDecimalsGetMore();
  void theLegendStaysInViewWhileTheTreeScrolls();

 private:
  BeamTree search_;  // the shipped additive model's beam 5 search of kSentence
};

void BeamTreePlotTest::initTestCase() {
  search_ = searchTree();
  QVERIFY(search_.nodes.size() > 50);
  QVERIFY(!search_.best.empty());
}

void BeamTreePlotTest::aHandBuiltTreeIsLaidOutTidily() {
  BeamTreePlot plot;
  QVERIFY(plot.isEmpty());
  plot.setTree(handTree());
  QVERIFY(!plot.isEmpty());
  QCOMPARE(plot.lastStep(), 3);
  QCOMPARE(plot.visibleSteps(), 3);
  QCOMPARE(shownNodes(plot).size(), handTree().nodes.size());
  QCOMPARE(layoutProblem(plot), QString());
  // Children best first, top to bottom: "ein" (−0.2) above "der" (−0.9) above "die" (−2.5).
  QVERIFY(plot.nodeRect(1).top() < plot.nodeRect(2).top());
  QVERIFY(plot.nodeRect(2).top() < plot.nodeRect(3).top());
  // The widget is its laid-out size, so the scroll area's scroll bars cover the whole tree.
  QCOMPARE(plot.size(), plot.sizeHint());
}

void BeamTreePlotTest::aRealSearchIsLaidOutTidily() {
  BeamTreePlot plot;
  plot.setTree(search_);
  QCOMPARE(plot.tree().nodes.size(), search_.nodes.size());
  QCOMPARE(shownNodes(plot).size(), search_.nodes.size());
  QCOMPARE(layoutProblem(plot), QString());
  for (int id : search_.best) QVERIFY(!plot.nodeRect(id).isEmpty());
  // Every node is found where it is drawn.
  for (const BeamNode& n : search_.nodes) QCOMPARE(plot.nodeAt(plot.nodeRect(n.id).center()), n.id);
}

void BeamTreePlotTest::hidingPrunedRemovesExactlyThePrunedSubtrees() {
  for (const BeamTree& tree : {handTree(), search_}) {
    BeamTreePlot plot;
    plot.setTree(tree);
    QVERIFY(plot.showPruned());
    const QSize all = plot.sizeHint();
    plot.setShowPruned(false);
    QVERIFY(!plot.showPruned());
    std::vector<int> expected;
    for (const BeamNode& n : tree.nodes)
      if (!hasPrunedAncestorOrSelf(tree, n.id)) expected.push_back(n.id);
    QVERIFY(expected.size() < tree.nodes.size());
    QCOMPARE(shownNodes(plot), expected);
    QCOMPARE(layoutProblem(plot), QString());
    // Laid out again, compactly: fewer rows.
    QVERIFY(plot.sizeHint().height() < all.height());
    plot.setShowPruned(true);
    QCOMPARE(shownNodes(plot).size(), tree.nodes.size());
    QCOMPARE(plot.sizeHint(), all);
  }
  // A grafted continuation hangs under a pruned node: hidden with it.
  BeamTreePlot plot;
  plot.setTree(search_);
  const int node = prunedNode(search_);
  QVERIFY(node > 0);
  QVERIFY(plot.addContinuation(node, searchTree(search_.path(node))) > 0);
  plot.setShowPruned(false);
  for (const BeamNode& n : plot.tree().nodes)
    QCOMPARE(plot.nodeRect(n.id).isEmpty(), hasPrunedAncestorOrSelf(plot.tree(), n.id));
}

void BeamTreePlotTest::clickingANodeSelectsIt() {
  BeamTreePlot plot;
  plot.setTree(handTree());
  plot.show();
  QVERIFY(QTest::qWaitForWindowExposed(&plot));
  QSignalSpy clicked(&plot, &BeamTreePlot::nodeClicked);
  for (int node : {0, 3, 10, 11}) {
    QTest::mouseClick(&plot, Qt::LeftButton, {}, plot.nodeRect(node).center().toPoint());
    QCOMPARE(clicked.size(), 1);
    QCOMPARE(clicked.takeFirst().at(0).toInt(), node);
    QCOMPARE(plot.selectedNode(), node);
  }
  // Between boxes: nothing clicked, the selection kept.
  const QRectF a = plot.nodeRect(1), b = plot.nodeRect(2);
  QTest::mouseClick(&plot, Qt::LeftButton, {},
                    QPointF(a.center().x(), (a.bottom() + b.top()) / 2).toPoint());
  QCOMPARE(clicked.size(), 0);
  QCOMPARE(plot.selectedNode(), 11);
  QCOMPARE(plot.nodeAt(QPointF(1, 1)), -1);
  plot.setTree(handTree());  // a new tree drops the selection
  QCOMPARE(plot.selectedNode(), -1);
}

void BeamTreePlotTest::theContextMenuContinuesOnlyFromPrunedNodes() {
  BeamTreePlot plot;
  plot.setTree(search_);
  const int pruned = prunedNode(search_);
  QVERIFY(pruned > 0);
  QSignalSpy requested(&plot, &BeamTreePlot::continueRequested);
  {
    const std::unique_ptr<QMenu> menu = plot.contextMenuFor(pruned);
    QCOMPARE(menu->actions().size(), 1);
    QAction* cont = menu->actions().front();
    QCOMPARE(cont->text(), QStringLiteral("Continue from here"));
    QVERIFY(cont->isEnabled());
    cont->trigger();
    QCOMPARE(requested.size(), 1);
    QCOMPARE(requested.takeFirst().at(0).toInt(), pruned);
  }
  // Kept, finished and the root: disabled, saying why.
  int kept = -1, finished = -1;
  for (const BeamNode& n : search_.nodes) {
    if (n.state == State::kKept && kept < 0) kept = n.id;
    if (n.state == State::kFinished && finished < 0) finished = n.id;
  }
  for (int node : {0, kept, finished}) {
    const std::unique_ptr<QMenu> menu = plot.contextMenuFor(node);
    QCOMPARE(menu->actions().size(), 1);
    QVERIFY(!menu->actions().front()->isEnabled());
    QVERIFY(menu->actions().front()->text().startsWith(QStringLiteral("Continue from here (")));
  }
  QVERIFY(plot.addContinuation(pruned, searchTree(search_.path(pruned))) > 0);
  const std::unique_ptr<QMenu> menu = plot.contextMenuFor(pruned);
  QVERIFY(!menu->actions().front()->isEnabled());
  QVERIFY(menu->actions().front()->text().contains(QStringLiteral("continued already")));
}

void BeamTreePlotTest::aContinuationIsGraftedUnderItsNode() {
  BeamTreePlot plot;
  plot.setTree(search_);
  const int node = prunedNode(search_);
  QVERIFY(node > 0);
  const std::vector<int> prefix = search_.path(node);
  const BeamTree continuation = searchTree(prefix);
  // The continuation starts with the prefix as a chain: those nodes are the tree's already.
  const size_t chain = prefix.size() + 1;
  QVERIFY(continuation.nodes.size() > chain);
  const size_t before = plot.tree().nodes.size();
  QVERIFY(!plot.isContinued(node));
  const int leaf = plot.addContinuation(node, continuation);
  const BeamTree& tree = plot.tree();
  QCOMPARE(tree.nodes.size(), before + continuation.nodes.size() - chain);
  QCOMPARE(leaf, plot.continuationPath(node).back());
  QVERIFY(leaf >= static_cast<int>(before));
  for (size_t i = 0; i < tree.nodes.size(); ++i) {
    const BeamNode& n = tree.nodes[i];
    QCOMPARE(n.id, static_cast<int>(i));
    QCOMPARE(plot.isContinued(n.id), i >= before);
    if (i < before) continue;
    // Below the node, parents before children, a step deeper than the parent.
    QVERIFY(n.parent >= 0 && n.parent < n.id);
    const BeamNode& parent = tree.nodes[static_cast<size_t>(n.parent)];
    QVERIFY(n.parent == node || n.parent >= static_cast<int>(before));
    QCOMPARE(n.step, parent.step + 1);
    QVERIFY(std::abs(n.score - (parent.score + n.logp)) < 1e-5);
  }
  // The grafted nodes are the continuation's below the prefix, in its order.
  for (size_t i = chain; i < continuation.nodes.size(); ++i) {
    const BeamNode& c = continuation.nodes[i];
    const BeamNode& g = tree.nodes[before + i - chain];
    QCOMPARE(g.token, c.token);
    QCOMPARE(g.logp, c.logp);
    QCOMPARE(g.state, c.state);
  }
  // The continuation's best path runs from the root through the node to the leaf, and its tokens
  // are the continuation's best hypothesis.
  const std::vector<int> path = plot.continuationPath(node);
  QCOMPARE(path.front(), 0);
  QVERIFY(std::find(path.begin(), path.end(), node) != path.end());
  for (size_t i = 1; i < path.size(); ++i)
    QCOMPARE(tree.nodes[static_cast<size_t>(path[i])].parent, path[i - 1]);
  QCOMPARE(path.size(), continuation.best.size());
  for (size_t i = 1; i < path.size(); ++i)
    QCOMPARE(tree.nodes[static_cast<size_t>(path[i])].token,
             continuation.nodes[static_cast<size_t>(continuation.best[i])].token);
  QCOMPARE(tree.path(leaf), continuation.path(continuation.best.back()));
  QCOMPARE(layoutProblem(plot), QString());
  for (const BeamNode& n : tree.nodes) QVERIFY(!plot.nodeRect(n.id).isEmpty());
  // Once only; and a continuation of another node does not fit this one.
  QCOMPARE(plot.addContinuation(node, continuation), -1);
  int other = -1;
  for (const BeamNode& n : search_.nodes)
    if (n.id != node && n.step == search_.nodes[static_cast<size_t>(node)].step &&
        n.state == State::kPruned && search_.path(n.id) != prefix)
      other = n.id;
  QVERIFY(other > 0);
  QCOMPARE(plot.addContinuation(other, continuation), -1);
  QCOMPARE(plot.tree().nodes.size(), before + continuation.nodes.size() - chain);
  // A new tree drops the continuations.
  plot.setTree(search_);
  QVERIFY(plot.continuationPath(node).empty());
  QVERIFY(!plot.isContinued(static_cast<int>(before)));
}

void BeamTreePlotTest::visibleStepsHideDeeperNodes() {
  BeamTreePlot plot;
  plot.setTree(search_);
  const int last = plot.lastStep();
  QVERIFY(last > 3);
  const QSize all = plot.sizeHint();
  for (int steps : {0, 2, last - 1}) {
    plot.setVisibleSteps(steps);
    QCOMPARE(plot.visibleSteps(), steps);
    QCOMPARE(plot.lastStep(), last);
    for (const BeamNode& n : search_.nodes) QCOMPARE(plot.nodeRect(n.id).isEmpty(), n.step > steps);
    QCOMPARE(layoutProblem(plot), QString());
    QVERIFY(plot.sizeHint().width() < all.width());
  }
  plot.setVisibleSteps(-1);
  QCOMPARE(plot.visibleSteps(), last);
  QCOMPARE(shownNodes(plot).size(), search_.nodes.size());
  QCOMPARE(plot.sizeHint(), all);
  // A new tree shows every step.
  plot.setVisibleSteps(1);
  plot.setTree(search_);
  QCOMPARE(plot.visibleSteps(), last);
}

void BeamTreePlotTest::tooltipsWriteTokensAsTheScreenDoes() {
  BeamTreePlot plot;
  plot.setTree(handTree());
  const QString hat = plot.toolTipFor(10);
  QVERIFY2(hat.startsWith(QStringLiteral("\u2423hat")), qPrintable(hat));  // ␣hat
  QVERIFY(!hat.contains(QStringLiteral("\u2581")));
  QVERIFY2(hat.contains(QStringLiteral("pruned")), qPrintable(hat));
  QVERIFY2(hat.contains(QString::number(std::exp(-2.0), 'f', 3)), qPrintable(hat));
  // The first step's piece starts the sentence: no space before it.
  QVERIFY(plot.toolTipFor(1).startsWith(QStringLiteral("ein\n")));
  const QString finished = plot.toolTipFor(9);
  QVERIFY2(finished.contains(QStringLiteral("final score -0.200")), qPrintable(finished));
  QVERIFY(finished.contains(QStringLiteral("on the best path")));
  QVERIFY(!plot.toolTipFor(10).contains(QStringLiteral("final score")));
  QCOMPARE(plot.toolTipFor(99), QString());
  // A "<unk>" whose translation copies a source word is labelled with that word, as the
  // translation writes it; the tooltip says what the model wrote.
  BeamTree copying = handTree();
  copying.nodes[7].token = "<unk>";
  copying.nodes[7].copied = "Grzegorz";
  plot.setTree(copying);
  const QString copied = plot.toolTipFor(7);
  QVERIFY2(copied.startsWith(QStringLiteral("Grzegorz\n")), qPrintable(copied));
  QVERIFY2(copied.contains(QStringLiteral("copied from the source where the model wrote <unk>")),
           qPrintable(copied));
  QVERIFY(!plot.toolTipFor(4).contains(QStringLiteral("copied")));
}

void BeamTreePlotTest::exportsWriteTheWholeTree() {
  BeamTreePlot plot;
  plot.setTree(search_);
  QTemporaryDir folder;
  const QSize size = plot.sizeHint();
  // PNG: the laid-out size (twice it at scale 2), each box filled with its probability's colour.
  const QString png = folder.filePath(QStringLiteral("tree.png"));
  plot.exportTo(png, {size, 1.0});
  // The default model's tree is large; Qt refuses to read images above 128 MB by default.
  QImageReader::setAllocationLimit(1024);
  QImage image(png);
  QCOMPARE(image.size(), size);
  QCPColorGradient gradient = colormap(QStringLiteral("viridis"));
  int checked = 0;
  for (int id : search_.best) {
    const BeamNode& n = search_.nodes[static_cast<size_t>(id)];
    if (id == 0) continue;
    const QRectF r = plot.nodeRect(id);
    const QColor expected = QColor::fromRgb(gradient.color(std::exp(n.logp), QCPRange(0, 1)));
    const QColor drawn =
        image.pixelColor(QPoint(static_cast<int>(r.left()) + 4, static_cast<int>(r.top()) + 4));
    QVERIFY2(
        std::abs(drawn.red() - expected.red()) + std::abs(drawn.green() - expected.green()) +
                std::abs(drawn.blue() - expected.blue()) <
            12,
        qPrintable(
            QStringLiteral("node %1: %2, expected %3").arg(id).arg(drawn.name(), expected.name())));
    ++checked;
  }
  QVERIFY(checked > 3);
  const QString png2 = folder.filePath(QStringLiteral("tree2.png"));
  plot.exportTo(png2, {size, 2.0});
  const QImage twice(png2);
  QCOMPARE(twice.size(), size * 2);
  // The same picture, each pixel doubled: the boxes twice as far from the corner.
  const QPoint box = plot.nodeRect(search_.best[2]).topLeft().toPoint() + QPoint(4, 4);
  QCOMPARE(twice.pixelColor(box * 2).name(), image.pixelColor(box).name());
  // SVG: parses, and holds the tokens as text.
  const QString svg = folder.filePath(QStringLiteral("tree.svg"));
  plot.exportTo(svg, {size, 1.0});
  const QByteArray svgBytes = readAll(svg);
  QXmlStreamReader xml(svgBytes);
  QStringList texts;
  while (!xml.atEnd())
    if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("text"))
      texts << xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed();
  QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
  // The token as the box shows it (a piece's marker drawn as a space sign, or not at step 1).
  const BeamNode& node = search_.nodes[static_cast<size_t>(search_.best[3])];
  const QString token = readableToken(
      QString::fromStdString(node.copied.empty() ? node.token : node.copied), node.step == 1);
  QVERIFY2(texts.contains(token), qPrintable(token + QStringLiteral(" not in the SVG")));
  // PDF.
  const QString pdf = folder.filePath(QStringLiteral("tree.pdf"));
  plot.exportTo(pdf, {size, 1.0});
  QVERIFY(readAll(pdf).startsWith("%PDF"));
  // JSON: the engine's own line, as translate --beam-tree writes it.
  const QString json = folder.filePath(QStringLiteral("tree.json"));
  plot.exportTo(json, {size, 1.0});
  const QByteArray jsonBytes = readAll(json);
  QCOMPARE(jsonBytes, QByteArray::fromStdString(attnscope::beam_tree_json(search_)));
  QJsonParseError error;
  const QJsonDocument document = QJsonDocument::fromJson(jsonBytes, &error);
  QCOMPARE(error.error, QJsonParseError::NoError);
  QCOMPARE(document.object().value(QStringLiteral("nodes")).toArray().size(),
           static_cast<qsizetype>(search_.nodes.size()));
  QCOMPARE(document.object().value(QStringLiteral("beam")).toInt(), 5);
}

// For a slide or a paper: the title in a band above the tree, which keeps its shape below it.
void BeamTreePlotTest::aTitleIsDrawnAboveTheTree() {
  BeamTreePlot plot;
  plot.setTree(search_);
  QTemporaryDir folder;
  const QString title = QStringLiteral("additive · beam 5 · “a man rides a bike”");
  const QSize tree = plot.sizeHint();
  const QString svg = folder.filePath(QStringLiteral("titled.svg"));
  ExportOptions titled{QSize(), 1.0};
  titled.title = title;
  plot.exportTo(svg, titled);
  QXmlStreamReader xml(readAll(svg));
  QStringList texts;
  while (!xml.atEnd())
    if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("text"))
      texts << xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed();
  QVERIFY2(texts.contains(title), qPrintable(texts.mid(0, 5).join(QStringLiteral(" | "))));
  // PNG of a given width: as tall as the tree at that width plus the title's band, the band
  // holding the title's ink and the tree's first column below it unchanged.
  const QString png = folder.filePath(QStringLiteral("titled.png"));
  titled.size = QSize(tree.width(), 0);
  plot.exportTo(png, titled);
  QImageReader::setAllocationLimit(1024);
  const QImage image(png);
  const int band = image.height() - tree.height();
  QVERIFY2(band > 10 && band < 80, qPrintable(QString::number(band)));
  QCOMPARE(image.width(), tree.width());
  const QColor paper = image.pixelColor(2, 2);
  int ink = 0;
  for (int y = 0; y < band; ++y)
    for (int x = 0; x < image.width(); ++x) ink += image.pixelColor(x, y) != paper ? 1 : 0;
  QVERIFY2(ink > 50, qPrintable(QString::number(ink)));
  const QString plain = folder.filePath(QStringLiteral("plain.png"));
  plot.exportTo(plain, {tree, 1.0});
  const QImage untitled(plain);
  const QPoint root = plot.nodeRect(0).center().toPoint();
  QCOMPARE(image.pixelColor(root + QPoint(0, band)).name(), untitled.pixelColor(root).name());
}

void BeamTreePlotTest::badExportPathsThrowNamingThePath() {
  BeamTreePlot plot;
  QTemporaryDir folder;
  const auto throwsNaming = [](const std::function<void()>& exportIt, const QString& path) {
    try {
      exportIt();
    } catch (const std::runtime_error& error) {
      const QString message = QString::fromUtf8(error.what());
      return message.contains(path) && !message.contains(QLatin1Char('\n'));
    }
    return false;
  };
  const QString empty = folder.filePath(QStringLiteral("empty.png"));
  QVERIFY(throwsNaming([&] { plot.exportTo(empty); }, empty));  // nothing to export
  plot.setTree(handTree());
  for (const QString& name :
       {QStringLiteral("tree.txt"), QStringLiteral("tree.csv"), QStringLiteral("tree")}) {
    const QString path = folder.filePath(name);
    QVERIFY2(throwsNaming([&] { plot.exportTo(path); }, path), qPrintable(path));
    QVERIFY(!QFile::exists(path));
  }
  const QString missing = folder.filePath(QStringLiteral("no/such/tree.png"));
  QVERIFY(throwsNaming([&] { plot.exportTo(missing, {plot.sizeHint(), 1.0}); }, missing));
}

// K = 100 trees reach the engine's cap of 200,000 nodes: laid out in linear time, painted only
// where the viewport shows.
void BeamTreePlotTest::aLargeTreeIsLaidOutAndPaintedQuickly() {
  BeamTree big;
  big.beam_size = 100;
  addNode(big, -1, "<s>", 0.0f, State::kRoot);
  std::vector<int> live = {0};
  while (big.nodes.size() < 200000) {
    std::vector<int> next;
    for (int parent : live)
      for (int k = 0; k < 20 && big.nodes.size() < 200000; ++k) {
        addNode(big, parent, "w" + std::to_string(k), -0.1f * (k + 1),
                k < 2 ? State::kKept : State::kPruned);
        if (k < 2 && next.size() < 100) next.push_back(static_cast<int>(big.nodes.size()) - 1);
      }
    live = next;
  }
  BeamTreePlot plot;
  QElapsedTimer timer;
  timer.start();
  plot.setTree(big);
  const double layout = timer.elapsed() / 1000.0;
  QVERIFY2(layout < 5.0 * attnscope::testing::time_scale(),
           qPrintable(QStringLiteral("laid out in %1 s").arg(layout)));
  // A viewport's worth around the best-scored corner, as a scroll area paints it.
  QImage viewport(800, 600, QImage::Format_ARGB32);
  const QRect area(plot.nodeRect(1).topLeft().toPoint() - QPoint(100, 100), viewport.size());
  timer.restart();
  for (int i = 0; i < 5; ++i) plot.render(&viewport, QPoint(), QRegion(area));
  const double paint = timer.elapsed() / 5000.0;
  QVERIFY2(paint < 0.2 * attnscope::testing::time_scale(),
           qPrintable(QStringLiteral("painted in %1 s").arg(paint)));
  QVERIFY(viewport.pixelColor(100 + 4, 100 + 4) != viewport.pixelColor(1, 1));
}

// Two finished hypotheses both read −0.28 beside their boxes while one of them was the
// translation: the tree writes as many decimals as tell them apart.
void BeamTreePlotTest::finishedScoresThatTieAtTwoDecimalsGetMore() {
  BeamTreePlot plot;
  plot.setTree(handTree());
  QCOMPARE(plot.finalScoreText(9), QStringLiteral("-0.20"));
  QCOMPARE(plot.finalScoreText(11), QStringLiteral("-0.90"));
  QVERIFY(plot.finalScoreText(4).isEmpty());  // kept, not finished
  BeamTree tied = handTree();
  tied.nodes[9].final_score = -0.2786f;
  tied.nodes[11].final_score = -0.2792f;
  plot.setTree(tied);
  QCOMPARE(plot.finalScoreText(9), QStringLiteral("-0.2786"));  // -0.279 at three: still a tie
  QCOMPARE(plot.finalScoreText(11), QStringLiteral("-0.2792"));
  QCOMPARE(plot.finalScoreText(5), QStringLiteral("-0.6000"));
}

// Scrolled to a deep branch, the tree's legend had scrolled away with the root: it stays at the
// view's top, drawn there, and a click on it selects no node hidden under it.
void BeamTreePlotTest::theLegendStaysInViewWhileTheTreeScrolls() {
  QScrollArea scroll;
  auto* plot = new BeamTreePlot;
  scroll.setWidget(plot);
  scroll.setWidgetResizable(true);
  QObject::connect(scroll.verticalScrollBar(), &QScrollBar::valueChanged, plot,
                   qOverload<>(&QWidget::update));
  plot->setTree(searchTree());
  scroll.resize(500, 180);
  scroll.show();
  QVERIFY(QTest::qWaitForWindowExposed(&scroll));
  QVERIFY(plot->pinnedLegendBand().isEmpty());  // at the top, the legend is in its place
  const QImage top = scroll.viewport()->grab().toImage();
  QVERIFY2(plot->height() > scroll.viewport()->height() + 100,
           qPrintable(QString::number(plot->height())));
  scroll.verticalScrollBar()->setValue(100);
  QTest::qWait(20);
  const QRect band = plot->pinnedLegendBand();
  QCOMPARE(band.top(), 100);
  QVERIFY(band.height() > 10);
  // The view's top rows look as they did at the top: the legend, not the tree under it.
  const QImage scrolled = scroll.viewport()->grab().toImage();
  int same = 0, compared = 0;
  for (int y = 2; y < band.height() - 4; y += 3)
    for (int x = 2; x < std::min(top.width(), 300); x += 3, ++compared)
      same += top.pixel(x, y) == scrolled.pixel(x, y);
  QVERIFY2(same > compared * 9 / 10, qPrintable(QString("%1 of %2").arg(same).arg(compared)));
  for (int x = band.left(); x < band.right(); x += 4)
    QCOMPARE(plot->nodeAt(QPointF(x, band.center().y())), -1);
}

QTEST_MAIN(BeamTreePlotTest)
#include "beam_tree_plot_test.moc"
