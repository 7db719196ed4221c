#pragma once
// A node of the beam tree as the Translation tab shows it (issue 31): its hypothesis cut to the
// steps the tree shows, its last step for the step panel (its siblings are the candidates the
// search scored there), and the lines that say what the tree and the node are.
#include <attnscope/translation.h>

#include <QString>

namespace attnscope::ui {

/// The first `steps` output steps of `t`: its tokens, probabilities, attention rows, heads and
/// copied words (all of them when `steps` is negative or longer).
Translation firstSteps(const Translation& t, int steps);

/// The step panel's view of `node`, whose hypothesis `t` is (one row per step from the root):
/// its token as `t` writes it, its probability, its attention row, and as candidates every child
/// of its parent in `tree`, most probable first. Throws std::out_of_range for a node not in
/// `tree`, or the root.
Step beamNodeStep(const BeamTree& tree, int node, const Translation& t);

/// Whether `node` is on the path the search chose (BeamTree::best).
bool isOnBestPath(const BeamTree& tree, int node);

/// Where → goes from `node`: its child on the best path when there is one, else its child the
/// search kept or finished with the highest score; −1 when the search did not go on from it (a
/// pruned or finished node, or the last step).
int bestContinuation(const BeamTree& tree, int node);

/// The search's final score of its best hypothesis (0 for a tree without one).
float bestFinalScore(const BeamTree& tree);

/// The Beam view's title line: the beam size, the nodes (and how many pruned ones were not
/// stored), the best final score.
QString beamTreeSummary(const BeamTree& tree);

/// What the translation line adds after a node's hypothesis: "beam node: step 3 of 5, pruned,
/// log P −2.31" (final score for a finished node).
QString beamNodeCaption(const BeamTree& tree, int node);

/// Where a search resumed from node `from` led: its best translation and final score against
/// the original search's best final score, in one line.
QString continuationSummary(const BeamNode& from, const Translation& best, float finalScore,
                            float searchBest);

}  // namespace attnscope::ui
