#include "explain/gradient_model.h"

#include <algorithm>
#include <numeric>

#include "attnscope/vocabulary.h"
#include "decode/native_step_model.h"
#include "decode/scripted_step_model.h"
#include "explain/scripted_gradient_model.h"

namespace attnscope {
namespace {

// attnscope's own Seq2Seq. Reverse mode gives one gradient per backward pass, and every target
// token needs its own, so each (point, target token) pair is a row of one batch: row (k, t)
// runs the decoder up to step t and contributes log p(target[t]) of point k. One backward over
// the batch then gives every pair's gradient at once, in large matrix products instead of
// K·T small passes. Rows are ordered by their step, latest first, so the rows still running at
// a step are always the batch's first ones and the batch narrows as steps end; and only the
// rows that end at a step pay for the output layer, the largest product of a step.
//
// Integrated gradients (path_gradients) needs only each gradient's product with the direction at
// each source position, and the encoder is where the rows cost most: each would run it again,
// forward and backward, for its own gradient. So there the encoder runs once per point, pushing
// one tangent per source position forward (ops/gru_tangent.h), and the rows start at the
// decoder, from copies of their point's decoder context; the gradients at those copies, dotted
// with the context's tangents, give the attribution (bench --explain, 20 words, 2 threads: 1.5 s
// before, 0.7 s so).
class NativeGradientModel : public GradientModel {
 public:
  explicit NativeGradientModel(Seq2Seq model) : model_(std::move(model)) {}

  torch::Tensor embed(const std::vector<int64_t>& source) override {
    torch::NoGradGuard no_grad;
    return model_->embed_source(torch::tensor(source, torch::kLong).unsqueeze(0))[0].clone();
  }

  TargetGradients gradients(const torch::Tensor& points, const torch::Tensor& weights,
                            const std::vector<int64_t>& target) override {
    const int64_t K = points.size(0), S = points.size(1), E = points.size(2);
    const auto T = static_cast<int64_t>(target.size());
    TargetGradients out{torch::zeros({K, T}), torch::zeros({T, S, E})};
    const std::vector<Pair> pairs = pairs_of(0, K, T);
    const int64_t per_chunk = rows_per_chunk(S, T);
    for (size_t begin = 0; begin < pairs.size(); begin += static_cast<size_t>(per_chunk)) {
      const size_t end = std::min(pairs.size(), begin + static_cast<size_t>(per_chunk));
      run_chunk({pairs.begin() + static_cast<std::ptrdiff_t>(begin),
                 pairs.begin() + static_cast<std::ptrdiff_t>(end)},
                points, weights, target, out);
    }
    return out;
  }

  PathGradients path_gradients(const torch::Tensor& points, const torch::Tensor& weights,
                               const std::vector<int64_t>& target,
                               const torch::Tensor& direction) override {
    const int64_t K = points.size(0), S = points.size(1);
    const auto T = static_cast<int64_t>(target.size());
    PathGradients out{torch::zeros({K, T}), torch::zeros({T, S})};
    const int64_t group = points_per_group(S, T);
    for (int64_t first = 0; first < K; first += group)
      run_points(first, std::min(group, K - first), points, weights, target, direction, out);
    return out;
  }

 private:
  using Pair = std::pair<int64_t, int64_t>;  // (step, point)

  // Points [first, first + count) with every step, ordered by step, latest first, then point.
  static std::vector<Pair> pairs_of(int64_t first, int64_t count, int64_t T) {
    std::vector<Pair> pairs;
    for (int64_t t = T - 1; t >= 0; --t)
      for (int64_t k = first; k < first + count; ++k) pairs.emplace_back(t, k);
    return pairs;
  }

  // Bounds the memory autograd keeps for one batch: each row keeps its encoder's steps and, per
  // decoder step, tensors over the source (the score function's inner products among them).
  static int64_t rows_per_chunk(int64_t S, int64_t T) {
    const int64_t floats_per_row = S * 4096 + T * (S * 300 + 4096);
    const int64_t budget = 96 * 1024 * 1024;  // floats: ~400 MB
    return std::clamp<int64_t>(budget / std::max<int64_t>(1, floats_per_row), 1, 2048);
  }

  // Points whose rows and tangents fit one batch: the rows as above, and per point S tangents
  // of its encoder states and keys, [S,S,2H + K] (keys at most 2H wide).
  int64_t points_per_group(int64_t S, int64_t T) const {
    const int64_t by_rows = rows_per_chunk(S, T) / std::max<int64_t>(1, T);
    const int64_t floats_per_point = S * S * 4 * model_->config().hidden;
    const int64_t by_tangents = 64 * 1024 * 1024 / std::max<int64_t>(1, floats_per_point);
    return std::max<int64_t>(1, std::min(by_rows, by_tangents));
  }

  struct RowValues {
    torch::Tensor values;         // log p(target[t]) of the rows that ran, in the graph
    std::vector<int64_t> row_of;  // which row each value is
  };

  // Teacher-forced decoding of rows `pairs` from their contexts and start states; row r runs to
  // its step pairs[r].first and gives log p(target[step]).
  RowValues run_rows(DecoderContext context, torch::Tensor state, const std::vector<Pair>& pairs,
                     const std::vector<int64_t>& target) {
    Decoder& decoder = model_->decoder();
    std::vector<torch::Tensor> log_probs;  // per step, of the rows ending there
    RowValues out;
    const int64_t last_step = pairs.front().first;
    auto running = static_cast<int64_t>(pairs.size());
    auto narrow = [](const torch::Tensor& t, int64_t n) {
      return t.defined() ? t.narrow(0, 0, n) : t;
    };
    for (int64_t t = 0; t <= last_step; ++t) {
      // Rows whose step is before t are done: they are the batch's last ones.
      int64_t still = running;
      while (still > 0 && pairs[static_cast<size_t>(still - 1)].first < t) --still;
      if (still < running) {
        running = still;
        context = {narrow(context.states, running), narrow(context.keys, running),
                   narrow(context.mask, running), narrow(context.context_gates, running),
                   torch::Tensor()};
        state = state.narrow(0, 0, running);
      }
      // Every row reads the same previous token: one embedding, broadcast over the rows.
      const int64_t previous = t == 0 ? model_bos_ : target[static_cast<size_t>(t - 1)];
      DecoderUpdate update =
          decoder->update(context, state, torch::full({1}, previous, torch::kLong));
      // The rows ending at step t: the running rows from the first whose step is t.
      int64_t first = running;
      while (first > 0 && pairs[static_cast<size_t>(first - 1)].first == t) --first;
      if (first < running) {
        const int64_t n = running - first;
        DecoderUpdate ending{update.state.narrow(0, first, n),
                             update.context_vector.narrow(0, first, n),
                             update.embedded.expand({n, -1}), torch::Tensor()};
        log_probs.push_back(torch::log_softmax(decoder->logits(ending), 1)
                                .select(1, target[static_cast<size_t>(t)]));
        for (int64_t r = first; r < running; ++r) out.row_of.push_back(r);
      }
      state = update.state;
    }
    out.values = torch::cat(log_probs);
    return out;
  }

  void run_chunk(const std::vector<Pair>& pairs, const torch::Tensor& points,
                 const torch::Tensor& weights, const std::vector<int64_t>& target,
                 TargetGradients& out) {
    const auto rows = static_cast<int64_t>(pairs.size());
    std::vector<int64_t> point_of(pairs.size());
    for (size_t r = 0; r < pairs.size(); ++r) point_of[r] = pairs[r].second;
    const torch::Tensor point_index = torch::tensor(point_of, torch::kLong);
    const torch::Tensor input = points.index_select(0, point_index).detach().requires_grad_(true);
    const torch::Tensor lengths = torch::full({rows}, input.size(1), torch::kLong);
    EncodedBatch encoded = model_->encode_embedded(input, lengths);
    const RowValues rv = run_rows(encoded.context, encoded.initial_state, pairs, target);
    const torch::Tensor gradient = torch::autograd::grad({rv.values.sum()}, {input})[0];
    store_log_probs(rv, pairs, out.log_probs);
    // weighted_sum[t] += Σ over the rows of step t: weight · gradient.
    const torch::Tensor weighted = gradient * weights.index_select(0, point_index).view({-1, 1, 1});
    std::vector<int64_t> step_of(pairs.size());
    for (size_t r = 0; r < pairs.size(); ++r) step_of[r] = pairs[r].first;
    out.weighted_sum.index_add_(0, torch::tensor(step_of, torch::kLong), weighted);
  }

  // Points [first, first + count) of path_gradients(), all their rows in one batch.
  void run_points(int64_t first, int64_t count, const torch::Tensor& points,
                  const torch::Tensor& weights, const std::vector<int64_t>& target,
                  const torch::Tensor& direction, PathGradients& out) {
    const int64_t P = count, S = points.size(1);
    const auto T = static_cast<int64_t>(target.size());
    Decoder& decoder = model_->decoder();
    EncoderTangents encoded;
    DecoderContext context, tangent;
    {
      torch::NoGradGuard no_grad;
      encoded = model_->encoder()->forward_tangents(points.narrow(0, first, P).detach(),
                                                    direction.detach());
      const torch::Tensor mask = torch::ones({P, S}, torch::kBool);
      context = decoder->prepare(encoded.states, mask);
      tangent = decoder->prepare_tangent(encoded.states, mask, encoded.d_states);
    }
    // Row (t, p) decodes from its own copy of point p's context: the gradient at the copy is
    // that row's alone.
    const std::vector<Pair> pairs = pairs_of(0, P, T);
    std::vector<int64_t> point_of;
    for (const Pair& pair : pairs) point_of.push_back(pair.second);
    const torch::Tensor index = torch::tensor(point_of, torch::kLong);
    auto leaf = [&](const torch::Tensor& t) {
      return t.index_select(0, index).requires_grad_(true);
    };
    const torch::Tensor states = leaf(context.states), keys = leaf(context.keys);
    const torch::Tensor initial = leaf(encoded.initial_state);
    const DecoderContext rows{states, keys, context.mask.index_select(0, index), torch::Tensor(),
                              torch::Tensor()};
    const RowValues rv = run_rows(rows, initial, pairs, target);
    const std::vector<torch::Tensor> g =
        torch::autograd::grad({rv.values.sum()}, {states, keys, initial}, {},
                              /*retain_graph=*/false, /*create_graph=*/false,
                              /*allow_unused=*/true);  // location's scores never read the keys
    // Row (t, p) is row (T − 1 − t)·P + p; tangent (i, p) is row i·P + p.
    auto contract = [&](const torch::Tensor& gradient, const torch::Tensor& d) {
      const torch::Tensor G = gradient.reshape({T, P, -1}).transpose(0, 1);  // [P,T,F]
      const torch::Tensor D = d.reshape({S, P, -1}).permute({1, 2, 0});      // [P,F,S]
      return torch::bmm(G, D);                                               // [P,T,S]
    };
    torch::Tensor sum = contract(g[0], tangent.states) + contract(g[2], encoded.d_initial_state);
    if (g[1].defined()) sum += contract(g[1], tangent.keys);
    const torch::Tensor w = weights.narrow(0, first, P).view({P, 1, 1});
    out.attribution += (sum.detach() * w).sum(0).flip(0);  // rows latest step first
    std::vector<Pair> global = pairs;
    for (Pair& pair : global) pair.second += first;
    store_log_probs(rv, global, out.log_probs);
  }

  static void store_log_probs(const RowValues& rv, const std::vector<Pair>& pairs,
                              torch::Tensor& log_probs) {
    const torch::Tensor v = rv.values.detach().contiguous();
    const auto* value = v.data_ptr<float>();
    auto access = log_probs.accessor<float, 2>();
    for (size_t i = 0; i < rv.row_of.size(); ++i) {
      const auto& [t, k] = pairs[static_cast<size_t>(rv.row_of[i])];
      access[k][t] = value[i];
    }
  }

  Seq2Seq model_;
  int64_t model_bos_ = Vocabulary::kBos;
};

}  // namespace

std::unique_ptr<GradientModel> gradient_model_of(StepModel& model, std::string* why_not) {
  if (auto* native = dynamic_cast<NativeStepModel*>(&model))
    return std::make_unique<NativeGradientModel>(native->seq2seq());
  if (auto* scripted = dynamic_cast<ScriptedStepModel*>(&model))
    return scripted_gradient_model(scripted->scripted(), why_not);
  *why_not = "this kind of model gives no gradients";
  return nullptr;
}

}  // namespace attnscope
