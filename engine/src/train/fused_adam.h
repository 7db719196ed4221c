#pragma once
// torch's Adam, updating each parameter in one pass over its arrays, with gradient clipping
// folded into that pass.
//
// Why: torch's Adam::step walks every parameter's arrays about ten times and allocates two
// parameter-sized temporaries per step (for the 8M-weight output layer, 32 MB each, fresh pages
// every step); clip_grad_norm_ adds a scaling pass. Together that was ~9% of a training batch.
// The state (step, exp_avg, exp_avg_sq) is torch's own AdamParamState, so optimizer.save/load
// and the trainer's checkpoints are unchanged and interchangeable with torch::optim::Adam.
#include <torch/torch.h>

namespace attnscope {

class FusedAdam : public torch::optim::Adam {
 public:
  using torch::optim::Adam::Adam;

  /// The same update as torch::optim::Adam::step (amsgrad is not supported).
  torch::Tensor step(LossClosure closure = nullptr) override;

  /// clip_grad_norm_(parameters, max_norm) followed by step(), with the clipping applied
  /// inside the update: the gradients themselves are left unscaled. Returns the gradients'
  /// total norm before clipping, as clip_grad_norm_ does.
  double clip_and_step(double max_norm);

 private:
  void update(double gradient_scale);
};

}  // namespace attnscope
