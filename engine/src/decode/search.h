#pragma once
// Decoding algorithms over token ids, for any StepModel: batched greedy search, beam search,
// forced decoding.
#include <torch/torch.h>

#include <vector>

#include "decode/step_model.h"
#include "model/seq2seq.h"

namespace attnscope {

struct Hypothesis {
  std::vector<int64_t> tokens;  // ends with the model's eos when decoding finished
  std::vector<float> probabilities;
  std::vector<std::vector<float>> attention;  // one row per token, source length each
  // Models with several heads: per token, [layer·head][source] flattened; empty otherwise.
  std::vector<std::vector<float>> heads;
  float log_probability = 0.0f;
  float score = 0.0f;  // what the search ranked by
  int node = -1;       // its last node in a recorded SearchTree (-1: none)
};

// One candidate a recorded beam search scored. State: what became of it.
enum class NodeState { kRoot, kKept, kPruned, kFinished };
struct SearchNode {
  int parent = -1;
  int step = 0;  // 0 for the root, then the output position from 1
  int64_t token = 0;
  float log_prob = 0.0f;  // of the token
  float score = 0.0f;     // cumulative log-probability: the parent's plus log_prob
  NodeState state = NodeState::kRoot;
  float final_score = 0.0f;  // kFinished only: the score after penalties the search ranked by
  // A node of the unknown token (BeamSettings::unknown_token): its index in
  // SearchTree::unknown_rows, the attention row that chooses the word it copies; -1 otherwise.
  int unknown_row = -1;
};
struct SearchTree {
  std::vector<SearchNode> nodes;  // nodes[0] is the root
  std::vector<int> best;          // the best hypothesis's nodes, root first
  int64_t dropped = 0;            // pruned candidates not stored (kMaxSearchNodes reached)
  // The attention rows of unknown-token nodes (SearchNode::unknown_row).
  std::vector<std::vector<float>> unknown_rows;
};
// Kept and finished nodes are always stored (at most 2K per step, so paths stay whole); pruned
// ones only while the tree holds fewer nodes than this. K = 100 on a 100-word sentence scores
// ~2 million candidates over its 212 steps (~100 MB stored); the cap bounds a tree to ~10 MB.
constexpr size_t kMaxSearchNodes = 200000;

struct BeamSettings {
  int beam_size = 1;
  float length_penalty = 1.0f;    // gnmt_alpha < 0: final score log P / length^length_penalty
  float gnmt_alpha = -1.0f;       // >= 0: log P / ((5 + length) / 6)^alpha instead
  float coverage_penalty = 0.0f;  // beta: + beta * sum_i log min(1, sum_t a_ti)
  bool any_ending = false;        // TranslationOptions::any_ending: 0.9.0's rule, to compare
  int max_length = 1;
  std::vector<int64_t> prefix;  // target tokens decoding resumes from (forced first)
  SearchTree* tree = nullptr;   // records the search when set; nothing is recorded otherwise
  // The target's unknown token: its nodes in the tree keep their attention row (the copy rule
  // needs it to show the word the translation writes there); -1: none kept.
  int64_t unknown_token = -1;
};

/// Greedy search of every source; max_lengths[i] bounds output i.
std::vector<Hypothesis> greedy_search(StepModel& model,
                                      const std::vector<std::vector<int64_t>>& sources,
                                      const std::vector<int>& max_lengths);

/// Beam search of one source; the final beam ranked by log P / length^length_penalty.
std::vector<Hypothesis> beam_search(StepModel& model, const std::vector<int64_t>& source,
                                    int beam_size, float length_penalty, int max_length);
/// The same with penalties, a prefix to resume from and a recorded tree (BeamSettings).
std::vector<Hypothesis> beam_search(StepModel& model, const std::vector<int64_t>& source,
                                    const BeamSettings& settings);
/// Greedy search of one source resuming from `prefix` (its tokens forced first).
Hypothesis greedy_search_from(StepModel& model, const std::vector<int64_t>& source,
                              const std::vector<int64_t>& prefix, int max_length);
/// The score a beam search ranks a finished hypothesis by, penalties applied.
float final_score(const Hypothesis& h, const BeamSettings& settings);

/// The probabilities and attention of producing `target` (which should end with eos).
Hypothesis forced_decode(StepModel& model, const std::vector<int64_t>& source,
                         const std::vector<int64_t>& target);

/// The same for attnscope's own models (training's validation, the tests).
std::vector<Hypothesis> greedy_search(Seq2Seq& model,
                                      const std::vector<std::vector<int64_t>>& sources,
                                      const std::vector<int>& max_lengths);
std::vector<Hypothesis> beam_search(Seq2Seq& model, const std::vector<int64_t>& source,
                                    int beam_size, float length_penalty, int max_length);

/// Row `row` of a [B,S] tensor, first `length` values.
std::vector<float> tensor_row(const torch::Tensor& matrix, int64_t row, int64_t length);
/// Row `row` of a [B,A,S] tensor, the first `length` values of each of its A rows, flattened.
std::vector<float> head_rows(const torch::Tensor& heads, int64_t row, int64_t length);

}  // namespace attnscope
