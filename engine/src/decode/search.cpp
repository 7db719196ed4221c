#include "decode/search.h"

#include <algorithm>
#include <cmath>

#include "attnscope/vocabulary.h"

namespace attnscope {

std::vector<float> tensor_row(const torch::Tensor& matrix, int64_t row, int64_t length) {
  const torch::Tensor values = matrix[row].narrow(0, 0, length).contiguous();
  const float* data = values.data_ptr<float>();
  return std::vector<float>(data, data + length);
}

EncodedBatch encode_sources(Seq2Seq& model, const std::vector<std::vector<int64_t>>& sources) {
  const auto batch = static_cast<int64_t>(sources.size());
  int64_t longest = 0;
  for (const auto& s : sources)
    longest = std::max<int64_t>(longest, static_cast<int64_t>(s.size()));
  torch::Tensor ids = torch::full({batch, longest}, Vocabulary::kPad, torch::kLong);
  torch::Tensor lengths = torch::empty({batch}, torch::kLong);
  auto id_access = ids.accessor<int64_t, 2>();
  for (int64_t b = 0; b < batch; ++b) {
    const auto& s = sources[static_cast<size_t>(b)];
    for (size_t i = 0; i < s.size(); ++i) id_access[b][static_cast<int64_t>(i)] = s[i];
    lengths[b] = static_cast<int64_t>(s.size());
  }
  return model->encode(ids, lengths);
}

std::vector<Hypothesis> greedy_search(Seq2Seq& model,
                                      const std::vector<std::vector<int64_t>>& sources,
                                      const std::vector<int>& max_lengths) {
  const auto batch = static_cast<int64_t>(sources.size());
  std::vector<Hypothesis> results(sources.size());
  if (batch == 0) return results;
  EncodedBatch encoded = encode_sources(model, sources);
  torch::Tensor state = encoded.initial_state;
  torch::Tensor previous = torch::full({batch}, Vocabulary::kBos, torch::kLong);
  std::vector<bool> done(sources.size(), false);
  int64_t remaining = batch;
  const int longest = *std::max_element(max_lengths.begin(), max_lengths.end());
  for (int t = 0; t < longest && remaining > 0; ++t) {
    DecoderStep step = model->step(encoded.context, state, previous);
    auto [best_log_prob, best] = torch::log_softmax(step.logits, 1).max(1);
    const auto* tokens = best.data_ptr<int64_t>();
    const auto* log_probs = best_log_prob.data_ptr<float>();
    for (int64_t b = 0; b < batch; ++b) {
      if (done[b]) continue;
      Hypothesis& h = results[b];
      h.tokens.push_back(tokens[b]);
      h.probabilities.push_back(std::exp(log_probs[b]));
      h.log_probability += log_probs[b];
      h.attention.push_back(tensor_row(step.attention, b, static_cast<int64_t>(sources[b].size())));
      if (tokens[b] == Vocabulary::kEos || static_cast<int>(h.tokens.size()) >= max_lengths[b]) {
        done[b] = true;
        --remaining;
      }
    }
    state = step.state;
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

std::vector<Hypothesis> beam_search(Seq2Seq& model, const std::vector<int64_t>& source,
                                    int beam_size, float length_penalty, int max_length) {
  const int64_t k = std::max(1, beam_size);
  EncodedBatch encoded = encode_sources(model, {source});
  // Every row decodes the same source, so a prefix of the repeated context fits any beam size.
  const DecoderContext repeated = encoded.context.repeat(k);
  const auto source_length = static_cast<int64_t>(source.size());

  std::vector<BeamEntry> alive(1);
  std::vector<Hypothesis> finished;
  torch::Tensor states = encoded.initial_state;
  torch::Tensor previous = torch::full({1}, Vocabulary::kBos, torch::kLong);
  for (int t = 0; t < max_length && !alive.empty(); ++t) {
    const auto n = static_cast<int64_t>(alive.size());
    DecoderContext context{repeated.states.narrow(0, 0, n), repeated.keys.narrow(0, 0, n),
                           repeated.mask.narrow(0, 0, n), repeated.context_gates.narrow(0, 0, n),
                           torch::Tensor()};
    DecoderStep step = model->step(context, states, previous);
    const torch::Tensor log_probs = torch::log_softmax(step.logits, 1);
    std::vector<float> alive_scores;
    for (const auto& entry : alive) alive_scores.push_back(entry.hypothesis.log_probability);
    const torch::Tensor totals = log_probs + torch::tensor(alive_scores).unsqueeze(1);
    const int64_t vocab = totals.size(1);
    auto [top_totals, top_index] = totals.view(-1).topk(std::min(2 * k, n * vocab));
    const auto* indices = top_index.data_ptr<int64_t>();
    const auto* lp = log_probs.contiguous().data_ptr<float>();

    std::vector<BeamEntry> next;
    std::vector<int64_t> rows, tokens;
    for (int64_t c = 0; c < top_index.size(0) && static_cast<int64_t>(next.size()) < k; ++c) {
      const int64_t row = indices[c] / vocab, token = indices[c] % vocab;
      Hypothesis h = alive[row].hypothesis;
      const float token_log_prob = lp[row * vocab + token];
      h.tokens.push_back(token);
      h.probabilities.push_back(std::exp(token_log_prob));
      h.log_probability += token_log_prob;
      h.attention.push_back(tensor_row(step.attention, row, source_length));
      if (token == Vocabulary::kEos || static_cast<int>(h.tokens.size()) >= max_length) {
        h.score = normalized(h.log_probability, h.tokens.size(), length_penalty);
        finished.push_back(std::move(h));
        if (static_cast<int64_t>(finished.size()) >= k) break;
      } else {
        next.push_back({std::move(h), row});
        rows.push_back(row);
        tokens.push_back(token);
      }
    }
    if (static_cast<int64_t>(finished.size()) >= k) break;
    alive = std::move(next);
    if (alive.empty()) break;
    states = step.state.index_select(0, torch::tensor(rows, torch::kLong));
    previous = torch::tensor(tokens, torch::kLong);
  }
  std::stable_sort(finished.begin(), finished.end(),
                   [](const Hypothesis& a, const Hypothesis& b) { return a.score > b.score; });
  if (static_cast<int64_t>(finished.size()) > k) finished.resize(static_cast<size_t>(k));
  return finished;
}

Hypothesis forced_decode(Seq2Seq& model, const std::vector<int64_t>& source,
                         const std::vector<int64_t>& target) {
  EncodedBatch encoded = encode_sources(model, {source});
  torch::Tensor state = encoded.initial_state;
  int64_t previous = Vocabulary::kBos;
  Hypothesis h;
  for (int64_t token : target) {
    DecoderStep step =
        model->step(encoded.context, state, torch::full({1}, previous, torch::kLong));
    const float log_prob = torch::log_softmax(step.logits, 1)[0][token].item<float>();
    h.tokens.push_back(token);
    h.probabilities.push_back(std::exp(log_prob));
    h.log_probability += log_prob;
    h.attention.push_back(tensor_row(step.attention, 0, static_cast<int64_t>(source.size())));
    state = step.state;
    previous = token;
  }
  h.score = h.log_probability;
  return h;
}

}  // namespace attnscope
