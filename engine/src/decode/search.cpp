#include "decode/search.h"

#include <algorithm>
#include <cmath>

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

float normalized(float log_probability, size_t length, float penalty) {
  return log_probability / std::pow(static_cast<float>(std::max<size_t>(1, length)), penalty);
}

}  // namespace

std::vector<Hypothesis> beam_search(StepModel& model, const std::vector<int64_t>& source,
                                    int beam_size, float length_penalty, int max_length) {
  const int64_t k = std::max(1, beam_size);
  std::shared_ptr<const DecoderRows> rows = model.encode({source});
  const auto source_length = static_cast<int64_t>(source.size());

  std::vector<BeamEntry> alive(1);
  std::vector<Hypothesis> finished;
  torch::Tensor previous = torch::full({1}, model.bos(), torch::kLong);
  for (int t = 0; t < max_length && !alive.empty(); ++t) {
    const auto n = static_cast<int64_t>(alive.size());
    StepOutput step = model.step(*rows, previous);
    const torch::Tensor& log_probs = step.log_probs;
    std::vector<float> alive_scores;
    for (const auto& entry : alive) alive_scores.push_back(entry.hypothesis.log_probability);
    const torch::Tensor totals = log_probs + torch::tensor(alive_scores).unsqueeze(1);
    const int64_t vocab = totals.size(1);
    auto [top_totals, top_index] = totals.view(-1).topk(std::min(2 * k, n * vocab));
    const auto* indices = top_index.data_ptr<int64_t>();
    const auto* lp = log_probs.contiguous().data_ptr<float>();

    std::vector<BeamEntry> next;
    std::vector<int64_t> continued, tokens;  // the rows the next beam continues, and its tokens
    for (int64_t c = 0; c < top_index.size(0) && static_cast<int64_t>(next.size()) < k; ++c) {
      const int64_t row = indices[c] / vocab, token = indices[c] % vocab;
      Hypothesis h = alive[row].hypothesis;
      const float token_log_prob = lp[row * vocab + token];
      append_step(h, step, row, token, token_log_prob, source_length);
      if (token == model.eos() || static_cast<int>(h.tokens.size()) >= max_length) {
        h.score = normalized(h.log_probability, h.tokens.size(), length_penalty);
        finished.push_back(std::move(h));
        if (static_cast<int64_t>(finished.size()) >= k) break;
      } else {
        next.push_back({std::move(h), row});
        continued.push_back(row);
        tokens.push_back(token);
      }
    }
    if (static_cast<int64_t>(finished.size()) >= k) break;
    alive = std::move(next);
    if (alive.empty()) break;
    rows = model.select(*step.next, continued);
    previous = torch::tensor(tokens, torch::kLong);
  }
  std::stable_sort(finished.begin(), finished.end(),
                   [](const Hypothesis& a, const Hypothesis& b) { return a.score > b.score; });
  if (static_cast<int64_t>(finished.size()) > k) finished.resize(static_cast<size_t>(k));
  return finished;
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
