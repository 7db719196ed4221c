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
  state.learning_rate *= 0.5;
  state.stopped = ++state.bad_epochs >= patience;
  return false;
}

}  // namespace attnscope
