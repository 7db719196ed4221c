#pragma once
// Data-parallel gradients for one training batch: the batch's sentences split among worker
// threads, each running forward and backward on its share with one torch thread.
//
// Why: at batch sizes like 64 the recurrent steps are hundreds of small operations, and
// spreading each of them over two threads costs more in synchronisation than it gains (on two
// cores, one run with two threads trained ~1.5x slower than two runs with one thread each).
// Workers that each own a core and a share of the sentences keep both cores busy instead.
#include <torch/torch.h>

#include <cstdint>
#include <vector>

#include "attnscope/cpu_dispatch.h"
#include "model/trainable_model.h"
#include "train/parallel_corpus.h"

namespace attnscope {

/// Which part of every batch a process computes when several train together (training_group.h):
/// the batch is split into `total_shares` shares (every rank's threads), and this rank takes its
/// `workers` shares from `first_share` on: the same split one process with as many threads makes.
struct BatchPart {
  int first_share = 0;
  int total_shares = 0;  // 0: this process trains alone
};

/// Sets every parameter's gradient to that of the batch's mean teacher-forced loss and returns
/// that loss. With workers > 1 the sentences are split into that many shares by split_batch()
/// (fewer for small batches), computed at once on as many threads, and their gradients summed
/// in share order, so the result does not depend on thread timing. Worker w draws its dropout
/// masks from a generator seeded with `seed` + w; with one worker everything runs on the
/// calling thread and dropout draws from torch's global generator.
///
/// With part.total_shares > 0, only this rank's shares are computed, share s drawing from
/// `seed` + s: the gradients and the loss are this rank's part of the batch's, and a parameter
/// gets no gradient when the rank has no share (a batch of fewer sentences than shares). (A
/// batch that splits into a single share is the one place where a rank's dropout differs from
/// one process's: the process draws it from the global generator.)
///
/// `precision` is that of the products (mixed_precision.h); gradients are float32 either way.
double compute_gradients(TrainableModel& model, const Batch& batch, double label_smoothing,
                         int workers, uint64_t seed, BatchPart part = {},
                         Precision precision = Precision::kFloat32);

/// The batch's sentences in `shares` shares (fewer if it has fewer sentences) of about equal
/// work: sorted by target length, each share a run of that order, cut where the slowest share
/// is fastest. Each share is trimmed to its own longest source and target, so short sentences
/// no longer run the decoder as long as the batch's longest.
std::vector<Batch> split_batch(const Batch& batch, int64_t shares);

}  // namespace attnscope
