#pragma once
// Tiny synthetic corpora and models the tests make themselves (no Multi30k needed).
#include <attnscope/model_config.h>
#include <attnscope/trainer.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace attnscope::testing {

enum class Task { kCopy, kReverse };

/// Writes `count` random sentences of words "a".."t" (3–8 words) and their copy or reversal
/// to `<folder>/<name>.src` / `.tgt`; returns the common path prefix.
std::string write_task_corpus(const std::string& folder, const std::string& name, Task task,
                              int count, unsigned seed);

/// Writes `count` sentences of made-up words of one to three syllables ("Kalomi neru ta.", the
/// first letter capitalised, a full stop at the end) to `<folder>/<name>.src` and the same words
/// in reverse order, lowercase, to `.tgt`; returns the common path prefix. Subword models learn
/// the syllables and their frequent pairs as pieces.
std::string write_syllable_corpus(const std::string& folder, const std::string& name, int count,
                                  unsigned seed);

/// Training options for a subword model of `pieces` pieces per side on a fresh syllable corpus
/// in `folder` (600 training and 40 validation pairs), a tiny_config(score) model, output
/// `<folder>/<output_name>`.
TrainOptions subword_training(const std::string& folder, const std::string& score, int pieces,
                              const std::string& output_name);

/// Trains (once per process, cached) a small subword model (100 SentencePiece pieces per side)
/// for a few epochs on the syllable corpus and returns its path.
std::string subword_model();

/// Training options on a fresh task corpus in `folder`: `train_pairs` training pairs (seed
/// `seed`) and `valid_pairs` validation pairs (seed `seed` + 1), a tiny_config(score) model,
/// output `<folder>/<output_name>`; everything else at TrainOptions' defaults.
TrainOptions task_training(const std::string& folder, Task task, const std::string& score,
                           int train_pairs, int valid_pairs, unsigned seed,
                           const std::string& output_name);

/// The bytes of model file `path` with its JSON header changed by `edit` (and, when given, the
/// weights after it by `edit_data`), the header's checksum recomputed: what a crafted file could
/// hold.
std::string with_header(const std::string& path, const std::function<void(nlohmann::json&)>& edit,
                        const std::function<void(std::string&)>& edit_data = {});

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

/// The error of opening the model file `path` in a Translator, or "" when it opens.
std::string model_load_error(const std::string& path);

/// An untrained model (random weights, vocabularies "a".."j") saved to a fresh file.
std::string random_model_file(const std::string& score = "additive",
                              const std::string& decoder = kGruDecoder);

/// A model config small enough for unit tests.
ModelConfig tiny_config(const std::string& score, int64_t source_vocab = 12,
                        int64_t target_vocab = 14);

/// A Transformer config small enough for unit tests: model size 16, 2 layers of 4 heads,
/// feed-forward 32, no dropout.
ModelConfig tiny_transformer_config(int64_t source_vocab = 12, int64_t target_vocab = 14);

/// An untrained Transformer (tiny_transformer_config, random weights of seed 5, vocabularies
/// "a".."j" on both sides) saved to a fresh file; `shared_embeddings`: one table for both.
std::string random_transformer_file(bool shared_embeddings = false);

}  // namespace attnscope::testing
