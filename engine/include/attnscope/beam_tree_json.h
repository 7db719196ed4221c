#pragma once
// A recorded beam search (BeamTree) as one line of JSON: the format `attnscope-cli translate
// --beam-tree` writes, one line per sentence, and the app's and `export --beam-tree`'s JSON.
#include <attnscope/translation.h>

#include <ostream>
#include <string>

namespace attnscope {

/// Writes `tree` as one JSON object and a newline: {"beam", "best" (node ids, root first),
/// "dropped", "nodes": [{"id", "parent" (null for the root), "step", "token", "logp", "score",
/// "state" (BeamTree::state_name), "final_score" (finished nodes only)}, ...]}. Tokens that are
/// not valid UTF-8 are written with U+FFFD in place of the bad bytes. Written node by node, so a
/// tree of 200,000 nodes never becomes one JSON document in memory.
void write_beam_tree_json(std::ostream& out, const BeamTree& tree);

/// The same line (with its newline) as a string.
std::string beam_tree_json(const BeamTree& tree);

}  // namespace attnscope
