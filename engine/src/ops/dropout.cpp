#include "ops/dropout.h"

#include <ATen/CPUGeneratorImpl.h>

namespace attnscope {
namespace {
thread_local at::Generator* thread_generator = nullptr;
}  // namespace

torch::Tensor apply_dropout(const torch::Tensor& x, double p, bool training) {
  if (!training || p == 0.0) return x;
  c10::optional<at::Generator> generator;
  if (thread_generator != nullptr) generator = *thread_generator;
  return x * torch::empty_like(x).bernoulli_(1.0 - p, generator).div_(1.0 - p);
}

ThreadGenerator::ThreadGenerator(uint64_t seed)
    : generator_(at::make_generator<at::CPUGeneratorImpl>(seed)), previous_(thread_generator) {
  thread_generator = &generator_;
}

ThreadGenerator::~ThreadGenerator() { thread_generator = previous_; }

}  // namespace attnscope
