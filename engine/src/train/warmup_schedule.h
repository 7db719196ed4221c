#pragma once
#include <cstdint>

namespace attnscope {

/// The learning rate of batch `batch` (counted from 1) under the schedule Transformers train
/// with (Vaswani et al. 2017, as in fairseq's inverse_sqrt): rising linearly to `peak` over the
/// first `warmup` batches, then peak · √(warmup / batch). Adam's first steps, taken with
/// estimates of the gradients' scale from a few batches only, would otherwise push the
/// attention's softmaxes into saturation; the decay then plays the part the plateau schedule's
/// halving plays for the RNNs.
double warmup_learning_rate(double peak, int warmup, int64_t batch);

}  // namespace attnscope
