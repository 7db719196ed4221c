#pragma once
// How a model's text becomes token ids and back: its tokenizer, its two vocabularies, its
// special ids and, for subword models, how typed words become pieces.
#include <string>
#include <unordered_map>
#include <vector>

#include "attnscope/translation.h"
#include "attnscope/vocabulary.h"
#include "io/subword_model.h"
#include "model/scripted_model.h"

namespace attnscope {

class TokenMapping {
 public:
  /// attnscope's own models: tokenize(), "</s>" appended, ids of Vocabulary. Subword models
  /// also give their SentencePiece models, which split the tokens into the vocabularies' pieces.
  /// A cased model (ModelConfig::cased) reads text as written (split_as_written()) instead.
  static TokenMapping native(const Vocabulary& source, const Vocabulary& target,
                             int64_t max_source_length, const SubwordModel& source_subwords = {},
                             const SubwordModel& target_subwords = {}, bool cased = false);
  /// attnscope's character models: lowercased text split on whitespace, each word into its
  /// characters ("▁" before the first), the vocabularies' tokens.
  static TokenMapping characters(const Vocabulary& source, const Vocabulary& target,
                                 int64_t max_source_length);
  /// A TorchScript model's attributes.
  static TokenMapping scripted(const ScriptedModelAttributes& attributes);

  /// Tokenises a sentence and maps it the way the model reads it.
  SourceText prepare_source(const std::string& sentence) const;
  /// True when the source holds nothing but the appended end token.
  bool is_empty(const SourceText& source) const;
  std::vector<int64_t> source_ids(const SourceText& source) const;
  /// A target sentence's ids, the end token appended (forced decoding).
  std::vector<int64_t> target_ids(const std::string& sentence) const;
  /// The tokens of a target sentence that the target vocabulary lacks (each once, in order):
  /// forced, they would be the unknown token. Always none for a model with byte fallback.
  std::vector<std::string> unknown_target_tokens(const std::string& sentence) const;
  /// One target token as a user typed it (forcing a step); the unknown id when there is none.
  /// For a SentencePiece model a piece as the model emits it ("▁hund", "en"); a word typed
  /// without the marker that is no piece itself is the piece that starts that word.
  int64_t target_id(const std::string& token) const;
  const std::string& target_token(int64_t id) const;
  int64_t target_size() const { return static_cast<int64_t>(target_.tokens.size()); }
  const std::string& end_token() const { return target_token(eos_); }
  const std::string& unknown_token() const { return target_token(unk_); }
  int64_t unknown_id() const { return unk_; }
  const std::string& subword_marker() const { return subword_marker_; }
  /// True when the model's sources end with the appended end token.
  bool appends_end() const { return append_eos_; }

 private:
  struct Side {
    std::vector<std::string> tokens;  // id → token
    std::unordered_map<std::string, int64_t> ids;
    SubwordModel subwords;  // native subword models: splits tokens into pieces
    bool contains(const std::string& token) const { return ids.count(token) > 0; }
  };
  static Side side_of(std::vector<std::string> tokens);
  std::vector<std::string> split(const std::string& sentence, const Side& side) const;
  std::vector<std::string> pieces_of(const std::string& word, const Side& side) const;
  int64_t id_in(const Side& side, const std::string& token) const;
  /// `tokens` (the split of `sentence`) as typed, case kept, for copying unknown words.
  std::vector<std::string> typed_tokens(const std::string& sentence,
                                        const std::vector<std::string>& tokens) const;

  Side source_, target_;
  bool lowercase_ = true;    // the attnscope tokenizer; otherwise split on whitespace as typed
  bool cased_ = false;       // a cased native model: split_as_written(), case kept
  bool characters_ = false;  // lowercase, split on whitespace, words into characters
  int64_t unk_ = 0, eos_ = 0;
  bool append_eos_ = true;
  size_t max_source_tokens_ = 0;  // without the end token
  std::string subword_marker_;
};

}  // namespace attnscope
