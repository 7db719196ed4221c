#include "decode/search.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "decode/native_step_model.h"

namespace attnscope {

std::vector<float> tensor_row(const torch::Tensor& matrix, int64_t row, int64_t length) {
  const torch::Tensor values = matrix[row].narrow(0, 0, length).contiguous();
  const float* data = values.data_ptr<float>();
  return std::vector<float>(data, data + length);
}

std::vector<float> head_rows(const torch::Tensor& heads, int64_t row, int64_t length) {
  const torch::Tensor values = heads[row].narrow(1, 0, length).contiguous();
  const float* data = values.data_ptr<float>();
  return std::vector<float>(data, data + values.numel());
}

namespace {

// Appends one step of `out`'s row `row` to h.
void append_step(Hypothesis& h, const StepOutput& out, int64_t row, int64_t token, float log_prob,
                 int64_t source_length) {
  h.tokens.push_back(token);
  h.probabilities.push_back(std::exp(log_prob));
  h.log_probability += log_prob;
  if (out.attention.defined()) h.attention.push_back(tensor_row(out.attention, row, source_length));
  if (out.heads.defined()) h.heads.push_back(head_rows(out.heads, row, source_length));
}

}  // namespace

std::vector<Hypothesis> greedy_search(StepModel& model,
                                      const std::vector<std::vector<int64_t>>& sources,
                                      const std::vector<int>& max_lengths) {
  const auto batch = static_cast<int64_t>(sources.size());
  std::vector<Hypothesis> results(sources.size());
  if (batch == 0) return results;
  std::shared_ptr<const DecoderRows> rows = model.encode(sources);
  torch::Tensor previous = torch::full({batch}, model.bos(), torch::kLong);
  std::vector<bool> done(sources.size(), false);
  int64_t remaining = batch;
  const int longest = *std::max_element(max_lengths.begin(), max_lengths.end());
  for (int t = 0; t < longest && remaining > 0; ++t) {
    StepOutput step = model.step(*rows, previous);
    auto [best_log_prob, best] = step.log_probs.max(1);
    const auto* tokens = best.data_ptr<int64_t>();
    const auto* log_probs = best_log_prob.data_ptr<float>();
    for (int64_t b = 0; b < batch; ++b) {
      if (done[b]) continue;
      Hypothesis& h = results[b];
      append_step(h, step, b, tokens[b], log_probs[b], static_cast<int64_t>(sources[b].size()));
      if (tokens[b] == model.eos() || static_cast<int>(h.tokens.size()) >= max_lengths[b]) {
        done[b] = true;
        --remaining;
      }
    }
    rows = std::move(step.next);
    previous = best;
  }
  for (auto& h : results) h.score = h.log_probability;
  return results;
}

namespace {

struct BeamEntry {
  Hypothesis hypothesis;
  int64_t row = 0;  // the row of the state it continues
};

// Appends a node to a recorded tree; its score is its parent's plus log_prob, exactly.
int add_node(SearchTree& tree, int parent, int step, int64_t token, float log_prob,
             NodeState state) {
  SearchNode node;
  node.parent = parent;
  node.step = step;
  node.token = token;
  node.log_prob = log_prob;
  node.score = tree.nodes[static_cast<size_t>(parent)].score + log_prob;
  node.state = state;
  tree.nodes.push_back(node);
  return static_cast<int>(tree.nodes.size()) - 1;
}

// An unknown-token node keeps the attention row of the step that scored it (row `row`).
void keep_unknown_row(SearchTree& tree, int node, const BeamSettings& s, const StepOutput& out,
                      int64_t row, int64_t source_length) {
  SearchNode& n = tree.nodes[static_cast<size_t>(node)];
  if (n.token != s.unknown_token || n.unknown_row >= 0 || !out.attention.defined()) return;
  n.unknown_row = static_cast<int>(tree.unknown_rows.size());
  tree.unknown_rows.push_back(tensor_row(out.attention, row, source_length));
}

void finish(Hypothesis& h, const BeamSettings& s) {
  h.score = final_score(h, s);
  if (s.tree && h.node >= 0) {
    SearchNode& node = s.tree->nodes[static_cast<size_t>(h.node)];
    node.state = NodeState::kFinished;
    node.final_score = h.score;
  }
}

}  // namespace

float final_score(const Hypothesis& h, const BeamSettings& s) {
  const size_t length = std::max<size_t>(1, h.tokens.size());
  // The default (no GNMT alpha) is the same expression as before penalties existed, so its
  // scores stay bit for bit.
  float score =
      s.gnmt_alpha >= 0.0f
          ? h.log_probability / std::pow((5.0f + static_cast<float>(length)) / 6.0f, s.gnmt_alpha)
          : h.log_probability / std::pow(static_cast<float>(length), s.length_penalty);
  if (s.coverage_penalty != 0.0f && !h.attention.empty()) {
    std::vector<float> coverage(h.attention.front().size(), 0.0f);
    for (const auto& row : h.attention)
      for (size_t i = 0; i < row.size() && i < coverage.size(); ++i) coverage[i] += row[i];
    // A source word never attended to would give log 0 = -inf; 1e-6 keeps the score finite
    // and still ranks such a hypothesis far below the others.
    float penalty = 0.0f;
    for (float c : coverage) penalty += std::log(std::max(1e-6f, std::min(1.0f, c)));
    score += s.coverage_penalty * penalty;
  }
  return score;
}

std::vector<Hypothesis> beam_search(StepModel& model, const std::vector<int64_t>& source,
                                    int beam_size, float length_penalty, int max_length) {
  BeamSettings settings;
  settings.beam_size = beam_size;
  settings.length_penalty = length_penalty;
  settings.max_length = max_length;
  return beam_search(model, source, settings);
}

std::vector<Hypothesis> beam_search(StepModel& model, const std::vector<int64_t>& source,
                                    const BeamSettings& s) {
  const int64_t k = std::max(1, s.beam_size);
  const int max_length = s.max_length;
  SearchTree* tree = s.tree;
  std::shared_ptr<const DecoderRows> rows = model.encode({source});
  const auto source_length = static_cast<int64_t>(source.size());
  if (tree) {
    *tree = SearchTree{};
    SearchNode root;
    root.token = model.bos();
    tree->nodes.push_back(root);
  }

  std::vector<BeamEntry> alive(1);
  if (tree) alive[0].hypothesis.node = 0;
  std::vector<Hypothesis> finished;
  torch::Tensor previous = torch::full({1}, model.bos(), torch::kLong);
  int t = 0;
  // The prefix, forced one token at a time on the single row.
  for (; t < static_cast<int>(s.prefix.size()) && t < max_length; ++t) {
    const int64_t token = s.prefix[static_cast<size_t>(t)];
    StepOutput step = model.step(*rows, previous);
    TORCH_CHECK(token >= 0 && token < step.log_probs.size(1), "prefix token ", token,
                " is outside the target vocabulary");
    const float log_prob = step.log_probs[0][token].item<float>();
    Hypothesis& h = alive[0].hypothesis;
    append_step(h, step, 0, token, log_prob, source_length);
    if (tree) {
      h.node = add_node(*tree, h.node, t + 1, token, log_prob, NodeState::kKept);
      keep_unknown_row(*tree, h.node, s, step, 0, source_length);
    }
    rows = std::move(step.next);
    previous = torch::full({1}, token, torch::kLong);
    if (token == model.eos() || static_cast<int>(h.tokens.size()) >= max_length) {
      finish(h, s);
      finished.push_back(std::move(h));
      alive.clear();
      break;
    }
  }
  for (; t < max_length && !alive.empty(); ++t) {
    const auto n = static_cast<int64_t>(alive.size());
    StepOutput step = model.step(*rows, previous);
    const torch::Tensor& log_probs = step.log_probs;
    std::vector<float> alive_scores;
    for (const auto& entry : alive) alive_scores.push_back(entry.hypothesis.log_probability);
    const torch::Tensor totals = log_probs + torch::tensor(alive_scores).unsqueeze(1);
    const int64_t vocab = totals.size(1);
    auto [top_totals, top_index] = totals.view(-1).topk(std::min(2 * k, n * vocab));
    const auto* indices = top_index.data_ptr<int64_t>();
    const torch::Tensor log_probs_c = log_probs.contiguous();
    const auto* lp = log_probs_c.data_ptr<float>();

    // Recording: each live row's top-K tokens, pruned until chosen below; -1: not stored (cap).
    std::unordered_map<int64_t, int> recorded;
    int64_t not_stored = 0;
    if (tree) {
      auto [row_top, row_index] = log_probs_c.topk(std::min(k, vocab), 1);
      const torch::Tensor row_index_c = row_index.contiguous();
      const auto* ids = row_index_c.data_ptr<int64_t>();
      for (int64_t r = 0; r < n; ++r)
        for (int64_t j = 0; j < row_index_c.size(1); ++j) {
          const int64_t token = ids[r * row_index_c.size(1) + j];
          if (tree->nodes.size() >= kMaxSearchNodes) {
            recorded[r * vocab + token] = -1;
            ++not_stored;
            continue;
          }
          const int node = add_node(*tree, alive[r].hypothesis.node, t + 1, token,
                                    lp[r * vocab + token], NodeState::kPruned);
          keep_unknown_row(*tree, node, s, step, r, source_length);
          recorded[r * vocab + token] = node;
        }
    }

    std::vector<BeamEntry> next;
    std::vector<int64_t> continued, tokens;  // the rows the next beam continues, and its tokens
    for (int64_t c = 0; c < top_index.size(0) && static_cast<int64_t>(next.size()) < k; ++c) {
      const int64_t row = indices[c] / vocab, token = indices[c] % vocab;
      // An ending is accepted only among the step's K best candidates (as fairseq does): one
      // ranked lower would still count towards the K finished that stop the search, ending it
      // before the better hypotheses still alive could finish.
      if (token == model.eos() && c >= k && !s.any_ending) continue;
      Hypothesis h = alive[row].hypothesis;
      const float token_log_prob = lp[row * vocab + token];
      append_step(h, step, row, token, token_log_prob, source_length);
      if (tree) {
        auto found = recorded.find(indices[c]);
        if (found != recorded.end() && found->second >= 0) {
          h.node = found->second;
        } else {  // beyond the row's top K, or not stored: chosen nodes are always kept
          if (found != recorded.end()) --not_stored;
          h.node = add_node(*tree, alive[row].hypothesis.node, t + 1, token, token_log_prob,
                            NodeState::kPruned);
          keep_unknown_row(*tree, h.node, s, step, row, source_length);
        }
        tree->nodes[static_cast<size_t>(h.node)].state = NodeState::kKept;
      }
      if (token == model.eos() || static_cast<int>(h.tokens.size()) >= max_length) {
        finish(h, s);
        finished.push_back(std::move(h));
        if (static_cast<int64_t>(finished.size()) >= k) break;
      } else {
        next.push_back({std::move(h), row});
        continued.push_back(row);
        tokens.push_back(token);
      }
    }
    if (tree) tree->dropped += not_stored;
    if (static_cast<int64_t>(finished.size()) >= k) break;
    alive = std::move(next);
    if (alive.empty()) break;
    rows = model.select(*step.next, continued);
    previous = torch::tensor(tokens, torch::kLong);
  }
  std::stable_sort(finished.begin(), finished.end(),
                   [](const Hypothesis& a, const Hypothesis& b) { return a.score > b.score; });
  if (static_cast<int64_t>(finished.size()) > k) finished.resize(static_cast<size_t>(k));
  if (tree && !finished.empty()) {
    for (int node = finished.front().node; node >= 0;
         node = tree->nodes[static_cast<size_t>(node)].parent)
      tree->best.push_back(node);
    std::reverse(tree->best.begin(), tree->best.end());
  }
  return finished;
}

Hypothesis greedy_search_from(StepModel& model, const std::vector<int64_t>& source,
                              const std::vector<int64_t>& prefix, int max_length) {
  std::shared_ptr<const DecoderRows> rows = model.encode({source});
  int64_t previous = model.bos();
  Hypothesis h;
  for (int t = 0; t < max_length; ++t) {
    StepOutput step = model.step(*rows, torch::full({1}, previous, torch::kLong));
    int64_t token = 0;
    if (t < static_cast<int>(prefix.size())) {
      token = prefix[static_cast<size_t>(t)];
      TORCH_CHECK(token >= 0 && token < step.log_probs.size(1), "prefix token ", token,
                  " is outside the target vocabulary");
    } else {
      token = std::get<1>(step.log_probs.max(1)).item<int64_t>();  // as greedy_search
    }
    append_step(h, step, 0, token, step.log_probs[0][token].item<float>(),
                static_cast<int64_t>(source.size()));
    if (token == model.eos()) break;
    rows = std::move(step.next);
    previous = token;
  }
  h.score = h.log_probability;
  return h;
}

Hypothesis forced_decode(StepModel& model, const std::vector<int64_t>& source,
                         const std::vector<int64_t>& target) {
  std::shared_ptr<const DecoderRows> rows = model.encode({source});
  int64_t previous = model.bos();
  Hypothesis h;
  for (int64_t token : target) {
    StepOutput step = model.step(*rows, torch::full({1}, previous, torch::kLong));
    const float log_prob = step.log_probs[0][token].item<float>();
    append_step(h, step, 0, token, log_prob, static_cast<int64_t>(source.size()));
    rows = std::move(step.next);
    previous = token;
  }
  h.score = h.log_probability;
  return h;
}

std::vector<Hypothesis> greedy_search(Seq2Seq& model,
                                      const std::vector<std::vector<int64_t>>& sources,
                                      const std::vector<int>& max_lengths) {
  NativeStepModel native(model);
  return greedy_search(native, sources, max_lengths);
}

std::vector<Hypothesis> beam_search(Seq2Seq& model, const std::vector<int64_t>& source,
                                    int beam_size, float length_penalty, int max_length) {
  NativeStepModel native(model);
  return beam_search(native, source, beam_size, length_penalty, max_length);
}

}  // namespace attnscope
