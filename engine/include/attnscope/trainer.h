#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "attnscope/model_config.h"
#include "attnscope/model_info.h"
#include "attnscope/training_snapshots.h"

namespace attnscope {

/// Several processes training one model (docs/training.md, "Training on several machines"). Every
/// rank reads the corpus and computes its share of every batch; the gradients are summed across the
/// ranks (c10d, Gloo), so every rank takes the same optimizer step. Rank 0 hosts the rendezvous
/// at master_address:master_port, validates, reports progress and writes the model and its
/// state; the other ranks write nothing and report only errors.
struct DistributedOptions {
  int world_size = 1;  // processes in the group; 1: this process alone, the rest unused
  int rank = 0;        // this process's place in the group, 0 .. world_size - 1
  std::string master_address = "127.0.0.1";
  int master_port = 29500;
  // A rank that joins no later, and a rank silent (dead, hung, unreachable) this long, ends the
  // run on every other rank with one message naming it.
  double timeout_seconds = 60.0;
  int checksum_every = 100;  // batches between checks that every rank holds the same weights
};

struct TrainOptions {
  // A built-in task (training_tasks.h) instead of the corpus files: its examples are generated,
  // and the four corpus paths must be empty. task_options() gives a task's default settings.
  std::string task;
  int task_examples = 0;    // training examples of the task; 0: its default
  std::string source_path;  // parallel corpus, plain or .gz, one sentence per line
  std::string target_path;
  std::string validation_source_path;
  std::string validation_target_path;
  // What the training corpus is, in words ("Multi30k + Tatoeba"), recorded in the model for
  // Model info and the model list; empty: the corpus files' names.
  std::string corpus_name;
  // Further validation sets (source, target paths) whose greedy BLEU each epoch reports
  // (EpochSummary::reported), e.g. each corpus of a mixed validation set alone. They decide
  // nothing: the best epoch is chosen on the validation set above.
  std::vector<std::pair<std::string, std::string>> report_sets;
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
  // With subwords: one SentencePiece model of `subwords` pieces learned on both sides' text and
  // used for both (a joint vocabulary: a name or number is split alike on both sides), instead
  // of one per language.
  bool joint_subwords = false;
  // A model file whose SentencePiece models (and so vocabularies) this run takes instead of
  // learning its own: every model of a language pair reads and writes the same pieces. Instead
  // of `subwords`; its cased setting must be model.cased.
  std::string subwords_from;
  // A finished model file whose weights, vocabularies and subword models this run starts from,
  // instead of random weights: to train a shipped model further, or go on with a run whose
  // state file is lost. Its shape (architecture, score function, sizes, decoder, casing,
  // languages) must be model's; dropout, the learning rate and the data may differ. The
  // optimizer and the learning-rate schedule start afresh; the stored record adds this run's
  // epochs and time to the model's. Instead of subwords and subwords_from.
  std::string init_from;
  double learning_rate = 1e-3;
  // > 0: the learning rate rises linearly to learning_rate over the first warmup_steps batches,
  // then falls as 1/√batch (Vaswani et al. 2017, the schedule Transformers train with), and the
  // plateau schedule no longer halves it. 0: learning_rate, halved when validation stalls.
  int warmup_steps = 0;
  double gradient_clip = 1.0;
  double label_smoothing = 0.1;
  int patience = 4;  // stop after this many epochs without a better validation BLEU
  uint64_t seed = 1;
  bool resume = false;  // continue from output_path + ".state" if it exists, same settings only
  // Also write every epoch's model beside output_path (epoch_model_path(): "run.epoch07.attnmodel",
  // its record saying that epoch and its validation figures), for averaging (model_averaging.h).
  bool save_epochs = false;
  int max_batches = 0;  // > 0: stop each epoch after this many batches (tests, quick runs)
  // Worker threads, each computing a share of every batch with one torch thread (0: one per
  // core). The split and each worker's dropout depend on it: the same seed and thread count give
  // the same model. The calling thread validates with as many torch threads and has its own
  // count back when train() returns; other threads keep theirs (thread_settings.h).
  int threads = 1;
  // Precision of the matrix products (cpu_dispatch.h): "auto" (bfloat16 where the CPU has
  // AVX512-BF16 or AMX, else float32), "fp32" or "bf16". Weights, loss, softmax and the
  // optimizer stay float32; the same seed gives the same model only in the same precision.
  std::string precision = "auto";
  // Snapshots (training_snapshots.h): every `snapshot_every` batches (0: none) the probe is
  // decoded and handed to TrainObserver::snapshot, and appended to `snapshots_path` if set.
  // The probe is `probe`, or else the task's probe or the first validation sentence.
  std::string snapshots_path;
  int snapshot_every = 0;
  std::string probe;
  std::string command;  // recorded in the model
  DistributedOptions distributed;
};

/// TrainOptions for task `name` with its default sizes, epochs, batch size, learning rate and
/// dropout (TaskSpec), writing to `output_path`. Throws std::invalid_argument for an unknown task.
TrainOptions task_options(const std::string& name, const std::string& output_path);

/// The language a corpus file is in, as its name says: the last dot-separated part before an
/// optional ".gz" when it is two lowercase ASCII letters, an ISO 639-1 code ("train.fr.gz" →
/// "fr", "europarl-v7.de-en.de" → "de"); "" when the name does not say ("corpus.txt",
/// "train.src").
std::string language_of_corpus_file(const std::string& path);

struct TrainProgress {
  int epoch = 0;
  int epochs = 0;
  int batch = 0;  // batches done in this epoch
  int batches = 0;
  double loss = 0.0;  // running mean of this epoch's training loss per token
  // This epoch's so far, and the time for the rest of it at that speed; time the observer held
  // the run paused is not counted.
  double sentences_per_second = 0.0;
  double eta_seconds = 0.0;
  int64_t total_batch = 0;  // batches trained so far in the whole run
};

struct EpochSummary {
  int epoch = 0;
  double train_loss = 0.0;
  double validation_loss = 0.0;
  double validation_perplexity = 0.0;
  double validation_bleu = 0.0;
  double validation_accuracy = -1.0;  // tasks: share of exact greedy outputs; < 0 otherwise
  double seconds = 0.0;               // this epoch's, validation included, time paused not
  double total_seconds = 0.0;         // training time so far, this epoch's included
  double learning_rate = 0.0;
  // TrainOptions::report_sets' greedy BLEU, each named by report_set_name().
  std::vector<std::pair<std::string, double>> reported;
  bool best = false;     // this epoch's weights were saved as the model
  bool partial = false;  // a stop request ended this epoch early
};

struct TrainObserver {
  std::function<void(const std::string&)> message;  // one-line notes
  std::function<void(const TrainProgress&)> progress;
  std::function<void(const EpochSummary&)> epoch_done;
  std::function<void(const TrainingSnapshot&)> snapshot;
  // Asked after every batch; true ends the run: the epoch so far is validated like a finished
  // one (and saved if it is the best), and train() returns. A front end pauses by blocking in
  // any of these callbacks (they run on the training thread); time blocked in this one is not
  // counted as training time (TrainProgress, EpochSummary).
  std::function<bool()> stop_requested;
};

/// A report set's name in EpochSummary::reported: its source file's folder and name without
/// the language and ".gz" ("../data/tatoeba/en-de/val.en.gz" → "en-de/val").
std::string report_set_name(const std::string& source_path);

/// The checks train() starts with, before it reads or writes anything: throws SettingError for a
/// bad setting. For a front end that starts several processes and wants to refuse it once.
void check_train_options(const TrainOptions& options);

/// Trains a model and writes the best one to options.output_path after each better epoch (atomic:
/// temporary file + rename). Throws SettingError (a std::invalid_argument naming the setting)
/// for a bad setting, an unwritable output, or resume with a state file whose settings differ
/// from `options` (each difference listed; the stored ones are never used in their place);
/// std::invalid_argument / std::runtime_error for bad corpora, or a non-finite loss (the saved
/// best model is kept).
TrainingRecord train(const TrainOptions& options, const TrainObserver& observer = {});

}  // namespace attnscope
