#pragma once
// Dropout that can draw from a generator of the calling thread's own. Data-parallel training
// runs workers at once; drawing from torch's global generator would make each run's masks
// depend on which thread got there first.
#include <torch/torch.h>

namespace attnscope {

/// torch::dropout's arithmetic (x · Bernoulli(1 − p) / (1 − p)), drawing from the generator
/// set for this thread by ThreadGenerator, else from torch's global generator, as torch does.
torch::Tensor apply_dropout(const torch::Tensor& x, double p, bool training);

/// While alive, apply_dropout() on this thread draws from its own generator, seeded with `seed`.
class ThreadGenerator {
 public:
  explicit ThreadGenerator(uint64_t seed);
  ~ThreadGenerator();
  ThreadGenerator(const ThreadGenerator&) = delete;
  ThreadGenerator& operator=(const ThreadGenerator&) = delete;

 private:
  at::Generator generator_;
  at::Generator* previous_;
};

}  // namespace attnscope
