#pragma once
// The teacher-forced training loss, shared by training, validation and the benchmark.
#include <torch/torch.h>

#include "model/seq2seq.h"
#include "model/trainable_model.h"
#include "train/parallel_corpus.h"

namespace attnscope {

/// Cross-entropy of predicting batch.target[:, 1:] from batch.target[:, :-1] (teacher forcing).
/// The output layer runs only on real target positions, not on padding: it is most of the
/// arithmetic, and a length-bucketed batch still has a fifth or so of padding. Either
/// architecture (an RNN's Seq2Seq: *model).
/// sum = false: mean per target token; true: the sum (for exact averages over many batches).
torch::Tensor teacher_forced_loss(TrainableModel& model, const Batch& batch,
                                  double label_smoothing = 0.0, bool sum = false);

/// The same loss computed the straightforward way: one decoder step() at a time, the output
/// layer inside the loop, padding masked by ignore_index (the shape of the Python reference).
/// Slower; kept to check that the optimised path trains to the same result.
torch::Tensor stepwise_loss(Seq2Seq& model, const Batch& batch, double label_smoothing = 0.0);

}  // namespace attnscope
