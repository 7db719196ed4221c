#pragma once
#include "train/resume_state.h"

namespace attnscope {

/// After each epoch: a better validation BLEU (or task score) makes the epoch the best one;
/// otherwise the learning rate halves (on a plateau that usually buys another BLEU point before
/// stopping) and after `patience` such epochs in a row the run stops. Such an epoch that ties
/// the best score at a lower validation loss still becomes the best one (its weights are kept).
/// Updates `state`; true when this epoch is the new best.
bool apply_plateau_schedule(ResumeState& state, int epoch, double validation_bleu,
                            double validation_loss, int patience);

}  // namespace attnscope
