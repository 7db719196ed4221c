#include "model/multi_head_attention.h"

#include <cmath>
#include <limits>

#include "ops/dropout.h"
#include "ops/mixed_precision.h"

namespace attnscope {
namespace {

// A linear layer's product in the thread's precision (bfloat16 in mixed-precision training).
torch::Tensor project(const torch::nn::Linear& layer, const torch::Tensor& x) {
  return mixed_linear(x, layer->weight, layer->bias);
}

}  // namespace

KeysValues KeysValues::append(const KeysValues& more) const {
  if (!keys.defined()) return more;
  return {torch::cat({keys, more.keys}, 2), torch::cat({values, more.values}, 2)};
}

KeysValues KeysValues::select(const torch::Tensor& index) const {
  if (!keys.defined()) return *this;
  return {keys.index_select(0, index), values.index_select(0, index)};
}

MultiHeadAttentionImpl::MultiHeadAttentionImpl(int64_t model_size, int64_t heads, double dropout)
    : heads_(heads), dropout_(dropout) {
  TORCH_CHECK(heads > 0 && model_size % heads == 0, heads, " heads do not divide the model size ",
              model_size);
  query_ = register_module("query", torch::nn::Linear(model_size, model_size));
  // No key bias: it adds q·b to every score of a query alike, which the softmax takes away, so
  // its gradient is zero but for rounding, which Adam would blow up into steps of full size.
  key_ = register_module(
      "key", torch::nn::Linear(torch::nn::LinearOptions(model_size, model_size).bias(false)));
  value_ = register_module("value", torch::nn::Linear(model_size, model_size));
  output_ = register_module("output", torch::nn::Linear(model_size, model_size));
}

torch::Tensor MultiHeadAttentionImpl::split_heads(const torch::Tensor& x) const {
  return x.view({x.size(0), x.size(1), heads_, -1}).transpose(1, 2);
}

KeysValues MultiHeadAttentionImpl::keys_values(const torch::Tensor& memory) {
  TORCH_CHECK(memory.dim() == 3, "attention memory must be [B,S,D], not ", memory.sizes());
  return {split_heads(project(key_, memory)), split_heads(project(value_, memory))};
}

AttentionOutput MultiHeadAttentionImpl::forward(const torch::Tensor& input,
                                                const KeysValues& memory,
                                                const torch::Tensor& mask) {
  TORCH_CHECK(input.dim() == 3, "attention input must be [B,T,D], not ", input.sizes());
  const int64_t batch = input.size(0), steps = input.size(1);
  const torch::Tensor queries = split_heads(project(query_, input));  // [B,H,T,d]
  const double scale = 1.0 / std::sqrt(static_cast<double>(queries.size(-1)));
  torch::Tensor scores = torch::matmul(queries, memory.keys.transpose(2, 3)).mul_(scale);
  if (mask.defined())
    scores = scores.masked_fill(mask.logical_not(), -std::numeric_limits<float>::infinity());
  // Masked positions get exp(−∞) = 0 exactly: padding and the future have no weight at all.
  const torch::Tensor weights = torch::softmax(scores, -1);
  const torch::Tensor context =
      torch::matmul(apply_dropout(weights, dropout_, is_training()), memory.values);  // [B,H,T,d]
  const torch::Tensor joined = context.transpose(1, 2).reshape({batch, steps, -1});
  return {project(output_, joined), weights};
}

}  // namespace attnscope
