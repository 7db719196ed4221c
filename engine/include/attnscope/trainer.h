#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "attnscope/model_config.h"
#include "attnscope/model_info.h"

namespace attnscope {

struct TrainOptions {
  std::string source_path;  // parallel corpus, plain or .gz, one sentence per line
  std::string target_path;
  std::string validation_source_path;
  std::string validation_target_path;
  std::string test_source_path;  // optional: measured once at the end and stored in the model
  std::string test_target_path;
  std::string output_path;  // the best model; the resumable state goes to output_path + ".state"
  ModelConfig model;        // score, sizes, dropout (vocabulary sizes are filled in)
  int epochs = 20;
  int batch_size = 64;
  int min_frequency = 2;  // word models: the vocabulary keeps words seen this often
  // > 0: a subword model. Two SentencePiece BPE models of this many pieces each (special tokens
  // included; fewer when the corpus has no more to merge), one per language, are learned from
  // the training corpus and stored in the model; their pieces are the vocabularies, so
  // min_frequency does not apply. 0: a word model.
  int subwords = 0;
  double learning_rate = 1e-3;
  double gradient_clip = 1.0;
  double label_smoothing = 0.1;
  int patience = 4;  // stop after this many epochs without a better validation BLEU
  uint64_t seed = 1;
  bool resume = false;  // continue from output_path + ".state" if it exists, same settings only
  int max_batches = 0;  // > 0: stop each epoch after this many batches (tests, quick runs)
  std::string command;  // recorded in the model
};

struct TrainProgress {
  int epoch = 0;
  int epochs = 0;
  int batch = 0;  // batches done in this epoch
  int batches = 0;
  double loss = 0.0;  // running mean of this epoch's training loss per token
  double sentences_per_second = 0.0;
  double eta_seconds = 0.0;  // for the rest of this epoch
};

struct EpochSummary {
  int epoch = 0;
  double train_loss = 0.0;
  double validation_loss = 0.0;
  double validation_perplexity = 0.0;
  double validation_bleu = 0.0;
  double seconds = 0.0;
  double learning_rate = 0.0;
  bool best = false;  // this epoch's weights were saved as the model
};

struct TrainObserver {
  std::function<void(const std::string&)> message;  // one-line notes
  std::function<void(const TrainProgress&)> progress;
  std::function<void(const EpochSummary&)> epoch_done;
};

/// Trains a model and writes the best one to options.output_path after each better epoch (atomic:
/// temporary file + rename). Throws SettingError (a std::invalid_argument naming the setting)
/// for a bad setting, an unwritable output, or resume with a state file whose settings differ
/// from `options` (each difference listed; the stored ones are never used in their place);
/// std::invalid_argument / std::runtime_error for bad corpora, or a non-finite loss (the saved
/// best model is kept).
TrainingRecord train(const TrainOptions& options, const TrainObserver& observer = {});

}  // namespace attnscope
