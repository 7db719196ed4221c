#pragma once
// The seeds of a training run. Each depends only on the run's seed, the epoch and the batch, so
// an epoch's shuffle and dropout are the same whether or not the run was resumed: a resumed run
// ends with the same model as an uninterrupted one.
#include <cstdint>

namespace attnscope {

/// The order of an epoch's batches.
inline uint64_t epoch_shuffle_seed(uint64_t seed, int epoch) {
  return seed * 1000003ull + static_cast<uint64_t>(epoch);
}

/// torch's global generator at the start of an epoch.
inline uint64_t epoch_torch_seed(uint64_t seed, int epoch) {
  return seed * 7919ull + static_cast<uint64_t>(epoch);
}

/// The dropout generators of one batch's workers (see data_parallel.h).
inline uint64_t batch_worker_seed(uint64_t seed, int epoch, int batch) {
  return epoch_torch_seed(seed, epoch) * 1000003ull + static_cast<uint64_t>(batch) * 1024ull;
}

}  // namespace attnscope
