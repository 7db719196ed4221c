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
    // Pairs ordered by step, latest first, then by point.
    std::vector<std::pair<int64_t, int64_t>> pairs;  // (step, point)
    for (int64_t t = T - 1; t >= 0; --t)
      for (int64_t k = 0; k < K; ++k) pairs.emplace_back(t, k);
    const int64_t per_chunk = rows_per_chunk(S, T);
    for (size_t begin = 0; begin < pairs.size(); begin += static_cast<size_t>(per_chunk)) {
      const size_t end = std::min(pairs.size(), begin + static_cast<size_t>(per_chunk));
      run_chunk({pairs.begin() + static_cast<std::ptrdiff_t>(begin),
                 pairs.begin() + static_cast<std::ptrdiff_t>(end)},
                points, weights, target, out);
    }
    return out;
  }

 private:
  // Bounds the memory autograd keeps for one batch: each row keeps its encoder's steps and, per
  // decoder step, tensors over the source (the score function's inner products among them).
  static int64_t rows_per_chunk(int64_t S, int64_t T) {
    const int64_t floats_per_row = S * 4096 + T * (S * 300 + 4096);
    const int64_t budget = 96 * 1024 * 1024;  // floats: ~400 MB
    return std::clamp<int64_t>(budget / std::max<int64_t>(1, floats_per_row), 1, 2048);
  }

  void run_chunk(const std::vector<std::pair<int64_t, int64_t>>& pairs, const torch::Tensor& points,
                 const torch::Tensor& weights, const std::vector<int64_t>& target,
                 TargetGradients& out) {
    const auto rows = static_cast<int64_t>(pairs.size());
    std::vector<int64_t> point_of(pairs.size());
    for (size_t r = 0; r < pairs.size(); ++r) point_of[r] = pairs[r].second;
    const torch::Tensor point_index = torch::tensor(point_of, torch::kLong);
    const torch::Tensor input = points.index_select(0, point_index).detach().requires_grad_(true);
    const torch::Tensor lengths = torch::full({rows}, input.size(1), torch::kLong);

    EncodedBatch encoded = model_->encode_embedded(input, lengths);
    DecoderContext context = encoded.context;
    torch::Tensor state = encoded.initial_state;
    Decoder& decoder = model_->decoder();
    std::vector<torch::Tensor> log_probs;  // per step, of the rows ending there
    std::vector<int64_t> row_of;           // which row each value is
    const int64_t last_step = pairs.front().first;
    int64_t running = rows;
    for (int64_t t = 0; t <= last_step; ++t) {
      // Rows whose step is before t are done: they are the batch's last ones.
      int64_t still = running;
      while (still > 0 && pairs[static_cast<size_t>(still - 1)].first < t) --still;
      if (still < running) {
        running = still;
        context = {context.states.narrow(0, 0, running), context.keys.narrow(0, 0, running),
                   context.mask.narrow(0, 0, running), context.context_gates.narrow(0, 0, running),
                   torch::Tensor()};
        state = state.narrow(0, 0, running);
      }
      const int64_t previous = t == 0 ? model_bos_ : target[static_cast<size_t>(t - 1)];
      DecoderUpdate update =
          decoder->update(context, state, torch::full({running}, previous, torch::kLong));
      // The rows ending at step t: the running rows from the first whose step is t.
      int64_t first = running;
      while (first > 0 && pairs[static_cast<size_t>(first - 1)].first == t) --first;
      if (first < running) {
        const int64_t n = running - first;
        DecoderUpdate ending{update.state.narrow(0, first, n),
                             update.context_vector.narrow(0, first, n),
                             update.embedded.narrow(0, first, n), torch::Tensor()};
        const torch::Tensor lp = torch::log_softmax(decoder->logits(ending), 1)
                                     .select(1, target[static_cast<size_t>(t)]);
        log_probs.push_back(lp);
        for (int64_t r = first; r < running; ++r) row_of.push_back(r);
      }
      state = update.state;
    }
    const torch::Tensor values = torch::cat(log_probs);
    const torch::Tensor gradient = torch::autograd::grad({values.sum()}, {input})[0];
    const auto* v = values.detach().contiguous().data_ptr<float>();
    auto lp_access = out.log_probs.accessor<float, 2>();
    const torch::Tensor row_weight = weights.index_select(0, point_index);
    for (size_t i = 0; i < row_of.size(); ++i) {
      const auto& [t, k] = pairs[static_cast<size_t>(row_of[i])];
      lp_access[k][t] = v[i];
    }
    // weighted_sum[t] += Σ over the rows of step t: weight · gradient.
    const torch::Tensor weighted = gradient * row_weight.view({-1, 1, 1});
    std::vector<int64_t> step_of(pairs.size());
    for (size_t r = 0; r < pairs.size(); ++r) step_of[r] = pairs[r].first;
    out.weighted_sum.index_add_(0, torch::tensor(step_of, torch::kLong), weighted);
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
