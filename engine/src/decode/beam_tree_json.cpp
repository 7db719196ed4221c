#include <attnscope/beam_tree_json.h>

#include <nlohmann/json.hpp>
#include <sstream>

namespace attnscope {

void write_beam_tree_json(std::ostream& out, const BeamTree& tree) {
  // A whole JSON document of 200,000 nodes would take ~200 MB in memory, the line ~25 MB.
  out << "{\"beam\":" << tree.beam_size << ",\"best\":" << nlohmann::json(tree.best).dump()
      << ",\"dropped\":" << tree.dropped << ",\"nodes\":[";
  bool first = true;
  for (const BeamNode& n : tree.nodes) {
    nlohmann::json node = {{"id", n.id},
                           {"parent", n.parent < 0 ? nlohmann::json() : nlohmann::json(n.parent)},
                           {"step", n.step},
                           {"token", n.token},
                           {"logp", n.logp},
                           {"score", n.score},
                           {"state", BeamTree::state_name(n.state)}};
    if (n.state == BeamNode::State::kFinished) node["final_score"] = n.final_score;
    if (!n.copied.empty()) node["copied"] = n.copied;
    // A model's token may hold bytes that are not UTF-8 (a byte-level piece): replaced, not
    // thrown, so one odd token does not lose the tree.
    out << (first ? "" : ",")
        << node.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    first = false;
  }
  out << "]}\n";
}

std::string beam_tree_json(const BeamTree& tree) {
  std::ostringstream out;
  write_beam_tree_json(out, tree);
  return out.str();
}

}  // namespace attnscope
