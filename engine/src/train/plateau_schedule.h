#pragma once
#include "train/resume_state.h"

namespace attnscope {

/// After each epoch: a better validation BLEU makes the epoch the best one; otherwise the
/// learning rate halves (on a plateau that usually buys another BLEU point before stopping) and
/// after `patience` such epochs in a row the run stops. Updates `state`; true when this epoch
/// is the new best.
bool apply_plateau_schedule(ResumeState& state, int epoch, double validation_bleu,
                            double validation_loss, int patience);

}  // namespace attnscope
