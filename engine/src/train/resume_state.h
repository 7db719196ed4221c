#pragma once
// What a training state file (OUT.state) holds beyond the model: where the run stands, and the
// settings it was started with, so that resuming with other settings is refused instead of
// silently continuing the stored run.
#include <torch/torch.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "attnscope/trainer.h"
#include "train/parallel_corpus.h"

namespace attnscope {

// Where an interrupted run picks up.
struct ResumeState {
  int epochs_done = 0;
  int best_epoch = 0;
  double best_bleu = -1.0;
  double best_loss = 0.0;
  int bad_epochs = 0;
  double learning_rate = 0.0;
  double seconds = 0.0;
  bool stopped = false;  // early stopping already ended the run
  // Batches trained in the whole run (the warm-up schedule's clock); -1 in states written before
  // it was kept.
  int64_t batches = -1;

  nlohmann::json to_json() const;
  /// Throws nlohmann::json::exception when a field is missing or of another type,
  /// std::invalid_argument when an integer is out of range.
  static ResumeState from_json(const nlohmann::json& json);
};

/// The settings that shape a run's result: the model's shape, the corpora (by content, so a
/// moved corpus still matches) and the optimisation settings. Not the epochs (resuming with
/// more is how a run is extended), the patience or the thread count.
nlohmann::json training_settings(const TrainOptions& options, const TokenizedPairs& training,
                                 const TokenizedPairs& validation);

/// One line per setting that differs ("score function: 'dot' in the state, 'additive' now").
/// Settings missing on either side are compared only where both have them, so state files
/// written before settings were recorded still resume (their model shape is still compared); a
/// state without "subwords" is a word model's (0).
std::vector<std::string> settings_differences(const nlohmann::json& stored,
                                              const nlohmann::json& now);

/// The model shape part of training_settings(), for a state file that recorded only its config.
nlohmann::json model_settings(const ModelConfig& config);

/// An optimizer's state as bytes, to be stored as a uint8 tensor in the state file, and back.
std::string optimizer_bytes(torch::optim::Optimizer& optimizer);
void load_optimizer(torch::optim::Optimizer& optimizer, const torch::Tensor& bytes);

}  // namespace attnscope
