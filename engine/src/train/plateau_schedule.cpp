#include "train/plateau_schedule.h"

namespace attnscope {

bool apply_plateau_schedule(ResumeState& state, int epoch, double validation_bleu,
                            double validation_loss, int patience) {
  state.epochs_done = epoch;
  if (validation_bleu > state.best_bleu) {
    state.best_bleu = validation_bleu;
    state.best_loss = validation_loss;
    state.best_epoch = epoch;
    state.bad_epochs = 0;
    return true;
  }
  // A tie on the score (a task's 100% exact matches, epoch after epoch) keeps the epoch with the
  // lower validation loss, the one the log shows as best. The score itself did not improve, so
  // the schedule goes on as after a worse epoch: training runs as it did without the tie rule.
  const bool kept = validation_bleu == state.best_bleu && validation_loss < state.best_loss;
  if (kept) {
    state.best_loss = validation_loss;
    state.best_epoch = epoch;
  }
  state.learning_rate *= 0.5;
  state.stopped = ++state.bad_epochs >= patience;
  return kept;
}

}  // namespace attnscope
