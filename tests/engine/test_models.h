#pragma once
// Tiny synthetic corpora and models the tests make themselves (no Multi30k needed).
#include <attnscope/model_config.h>
#include <attnscope/trainer.h>

#include <functional>
#include <string>
#include <vector>

namespace attnscope::testing {

enum class Task { kCopy, kReverse };

/// Writes `count` random sentences of words "a".."t" (3–8 words) and their copy or reversal
/// to `<folder>/<name>.src` / `.tgt`; returns the common path prefix.
std::string write_task_corpus(const std::string& folder, const std::string& name, Task task,
                              int count, unsigned seed);

/// Training options on a fresh task corpus in `folder`: `train_pairs` training pairs (seed
/// `seed`) and `valid_pairs` validation pairs (seed `seed` + 1), a tiny_config(score) model,
/// output `<folder>/<output_name>`; everything else at TrainOptions' defaults.
TrainOptions task_training(const std::string& folder, Task task, const std::string& score,
                           int train_pairs, int valid_pairs, unsigned seed,
                           const std::string& output_name);

/// The whole content of a file ("" when it cannot be read).
std::string read_bytes(const std::string& path);
/// `text` gzip-compressed, as the bytes of a .gz file.
std::string gzip(const std::string& text);
/// `word` `count` times, separated by spaces.
std::string repeat_words(const std::string& word, int count);

/// Runs `check` in a child process that has given up root first (root reads any file, so a
/// test of an unreadable file runs there). Returns 0 when `check` held, 2 when root could not be
/// dropped, 3 when `check` failed.
int check_without_root(const std::function<bool()>& check);

/// A fresh temporary folder, removed with the test process.
std::string temporary_folder();

/// Trains (once per process, cached) a small model on the copy task and returns its path.
std::string copy_model(const std::string& score = "additive");

/// An untrained model (random weights, vocabularies "a".."j") saved to a fresh file.
std::string random_model_file(const std::string& score = "additive");

/// A model config small enough for unit tests.
ModelConfig tiny_config(const std::string& score, int64_t source_vocab = 12,
                        int64_t target_vocab = 14);

}  // namespace attnscope::testing
