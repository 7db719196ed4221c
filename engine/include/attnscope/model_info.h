#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "attnscope/model_config.h"

namespace attnscope {

/// ModelInfo::tokenizer of a cased model (ModelConfig::cased).
constexpr char kCasedTokenizer[] = "cased";

/// What a checkpoint says about how its model was made.
struct TrainingRecord {
  std::string corpus;    // e.g. "multi30k train (29000 pairs)"
  int epochs = 0;        // epochs trained
  int best_epoch = 0;    // the epoch whose weights are stored
  double seconds = 0.0;  // wall-clock training time
  double validation_loss = 0.0;
  double validation_bleu = 0.0;       // greedy; < 0 for a task model (its outputs are no sentences)
  double validation_accuracy = -1.0;  // a task model's share of exact outputs; < 0 otherwise
  double test_bleu = -1.0;            // greedy; < 0 when not measured
  double test_bleu_beam5 = -1.0;
  std::string test_corpus;
  std::string command;  // the command line that trained it
  uint64_t seed = 0;
  // Inputs to try, as a user types them: a built-in task's probe and held-out examples; empty
  // for a model trained on a corpus (its corpus says what it reads).
  std::vector<std::string> examples;
};

struct ModelInfo {
  std::string path;
  // "attnscope" (a model file this engine trained) or "torchscript" (a module following
  // docs/model-protocol.md; its config has the languages and vocabulary sizes, no score).
  std::string format = "attnscope";
  std::string name;           // what to call the model: its score function, or the module's name
  bool has_attention = true;  // false for the `none` baseline
  int attention_layers = 1;
  int attention_heads = 1;     // per layer
  std::string subword_marker;  // empty for word models
  // How words become pieces: "sentencepiece" for a model trained with subwords (its
  // vocabularies, config.source_vocab and target_vocab, are the SentencePiece models' pieces,
  // the four special tokens included); "characters" for a character model (a task such as
  // `dates`: lowercased words split into characters); empty for a word model or a TorchScript
  // module.
  std::string subwords;
  // "attnscope" (lowercase, punctuation split off: text.h's tokenize), "whitespace" (as typed)
  // or kCasedTokenizer (a cased model: text.h's split_as_written, then SentencePiece)
  std::string tokenizer = "attnscope";
  ModelConfig config;
  TrainingRecord training;
  int64_t parameters = 0;
  int64_t file_bytes = 0;
  // Inputs the app offers (Examples menu, input line): training.examples for attnscope's own
  // models, the `examples` attribute of a TorchScript module; often none.
  std::vector<std::string> examples;
};

}  // namespace attnscope
