#include "core/beam_node_view.h"

#include <QCoreApplication>
#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace attnscope::ui {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("BeamNodeView", text); }

QString score(float value) { return QString::number(value, 'f', 3); }

const BeamNode& nodeOf(const BeamTree& tree, int node) {
  if (node < 0 || node >= static_cast<int>(tree.nodes.size()))
    throw std::out_of_range("beam node " + std::to_string(node) + " is not in the tree (" +
                            std::to_string(tree.nodes.size()) + " nodes)");
  return tree.nodes[static_cast<size_t>(node)];
}

int deepestStep(const BeamTree& tree) {
  int deepest = 0;
  for (const BeamNode& n : tree.nodes) deepest = std::max(deepest, n.step);
  return deepest;
}

}  // namespace

Translation firstSteps(const Translation& t, int steps) {
  if (steps < 0 || steps >= static_cast<int>(t.tokens.size())) return t;
  Translation cut = t;
  const auto keep = [steps](auto& rows) {
    if (rows.size() > static_cast<size_t>(steps)) rows.resize(static_cast<size_t>(steps));
  };
  keep(cut.tokens);
  keep(cut.probabilities);
  keep(cut.attention);
  keep(cut.head_attention);
  cut.copied.erase(std::remove_if(cut.copied.begin(), cut.copied.end(),
                                  [steps](const CopiedWord& c) { return c.target >= steps; }),
                   cut.copied.end());
  cut.kept_unknown.erase(
      std::remove_if(cut.kept_unknown.begin(), cut.kept_unknown.end(),
                     [steps](const KeptUnknown& k) { return k.target >= steps; }),
      cut.kept_unknown.end());
  return cut;
}

Step beamNodeStep(const BeamTree& tree, int node, const Translation& t) {
  const BeamNode& n = nodeOf(tree, node);
  if (n.parent < 0) throw std::out_of_range("the root of a beam tree is no step");
  const auto row = static_cast<size_t>(n.step - 1);
  Step step;
  step.token = row < t.tokens.size() ? t.tokens[row] : n.token;
  step.id = n.token_id;
  step.probability = std::exp(n.logp);
  if (row < t.attention.size()) step.attention = t.attention[row];
  if (row < t.head_attention.size()) step.heads = t.head_attention[row];
  step.entropy = attention_entropy(step.attention);
  for (const BeamNode& sibling : tree.nodes)
    if (sibling.parent == n.parent)
      step.candidates.push_back({sibling.token, sibling.token_id, std::exp(sibling.logp)});
  std::stable_sort(
      step.candidates.begin(), step.candidates.end(),
      [](const Candidate& a, const Candidate& b) { return a.probability > b.probability; });
  return step;
}

int bestContinuation(const BeamTree& tree, int node) {
  int best = -1;
  for (const BeamNode& child : tree.nodes) {
    if (child.parent != node || child.state == BeamNode::State::kPruned) continue;
    if (isOnBestPath(tree, child.id)) return child.id;
    if (best < 0 || child.score > tree.nodes[static_cast<size_t>(best)].score) best = child.id;
  }
  return best;
}

bool isOnBestPath(const BeamTree& tree, int node) {
  return std::find(tree.best.begin(), tree.best.end(), node) != tree.best.end();
}

float bestFinalScore(const BeamTree& tree) {
  if (tree.best.empty()) return 0.0f;
  const int leaf = tree.best.back();
  return leaf >= 0 && leaf < static_cast<int>(tree.nodes.size())
             ? tree.nodes[static_cast<size_t>(leaf)].final_score
             : 0.0f;
}

QString beamTreeSummary(const BeamTree& tree) {
  QString text = tr("Beam %1: %2 nodes over %3 steps")
                     .arg(tree.beam_size)
                     .arg(tree.nodes.size())
                     .arg(deepestStep(tree));
  if (tree.dropped > 0)
    text += tr(" (%1 pruned candidates not stored)").arg(QString::number(tree.dropped));
  if (!tree.best.empty()) text += tr(", best final score %1").arg(score(bestFinalScore(tree)));
  return text;
}

QString beamNodeCaption(const BeamTree& tree, int node) {
  const BeamNode& n = nodeOf(tree, node);
  QString text = tr("beam node: step %1 of %2, %3")
                     .arg(n.step)
                     .arg(deepestStep(tree))
                     .arg(QString::fromLatin1(BeamTree::state_name(n.state)));
  if (isOnBestPath(tree, node)) text += tr(", on the best path");
  text += tr(", log P %1").arg(score(n.score));
  if (n.state == BeamNode::State::kFinished)
    text += tr(", final score %1").arg(score(n.final_score));
  return text;
}

QString continuationSummary(const BeamNode& from, const Translation& best, float finalScore,
                            float searchBest) {
  const QString verdict = finalScore > searchBest    ? tr("better than the search's best, %1")
                          : finalScore == searchBest ? tr("as good as the search's best, %1")
                                                     : tr("below the search's best, %1");
  return tr("Continued from step %1 \u201c%2\u201d: \u201c%3\u201d, final score %4 (%5)")
      .arg(from.step)
      .arg(QString::fromStdString(from.token), QString::fromStdString(best.text()),
           score(finalScore), verdict.arg(score(searchBest)));
}

}  // namespace attnscope::ui
