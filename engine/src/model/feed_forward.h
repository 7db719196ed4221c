#pragma once
#include <torch/torch.h>

namespace attnscope {

/// A Transformer layer's position-wise feed-forward block: W₂ · dropout(ReLU(W₁x + b₁)) + b₂.
class FeedForwardImpl : public torch::nn::Module {
 public:
  FeedForwardImpl(int64_t model_size, int64_t inner_size, double dropout);
  /// x [..., D] -> [..., D]
  torch::Tensor forward(const torch::Tensor& x);

 private:
  double dropout_;
  torch::nn::Linear inner_{nullptr}, outer_{nullptr};
};
TORCH_MODULE(FeedForward);

}  // namespace attnscope
