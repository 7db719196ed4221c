#include "model/feed_forward.h"

#include "ops/dropout.h"
#include "ops/mixed_precision.h"

namespace attnscope {

FeedForwardImpl::FeedForwardImpl(int64_t model_size, int64_t inner_size, double dropout)
    : dropout_(dropout) {
  inner_ = register_module("inner", torch::nn::Linear(model_size, inner_size));
  outer_ = register_module("outer", torch::nn::Linear(inner_size, model_size));
}

torch::Tensor FeedForwardImpl::forward(const torch::Tensor& x) {
  // Both products in the thread's precision: they are half a layer's arithmetic.
  const torch::Tensor inner = torch::relu(mixed_linear(x, inner_->weight, inner_->bias));
  return mixed_linear(apply_dropout(inner, dropout_, is_training()), outer_->weight, outer_->bias);
}

}  // namespace attnscope
