#include "decode/token_mapping.h"

#include <algorithm>

#include "attnscope/text.h"

namespace attnscope {
namespace {

// A protocol model names no source length limit; this keeps a pasted book from reaching it.
constexpr size_t kScriptedMaxSourceTokens = 1000;
// Longer words are not split into pieces: the greedy split is quadratic in the word's length.
constexpr size_t kLongestSplitWord = 100;

size_t previous_character(const std::string& text, size_t end) {
  do --end;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80);
  return end;
}

}  // namespace

TokenMapping::Side TokenMapping::side_of(std::vector<std::string> tokens) {
  Side side;
  side.tokens = std::move(tokens);
  for (size_t i = 0; i < side.tokens.size(); ++i)
    side.ids.emplace(side.tokens[i], static_cast<int64_t>(i));  // the first of duplicates wins
  return side;
}

TokenMapping TokenMapping::native(const Vocabulary& source, const Vocabulary& target,
                                  int64_t max_source_length, const SubwordModel& source_subwords,
                                  const SubwordModel& target_subwords, bool cased) {
  TokenMapping m;
  m.cased_ = cased;
  m.lowercase_ = !cased;
  m.source_ = side_of(source.tokens());
  m.target_ = side_of(target.tokens());
  m.source_.subwords = source_subwords;
  m.target_.subwords = target_subwords;
  if (!source_subwords.empty()) m.subword_marker_ = kWordStart;
  m.unk_ = Vocabulary::kUnk;
  m.eos_ = Vocabulary::kEos;
  m.max_source_tokens_ = static_cast<size_t>(std::max<int64_t>(1, max_source_length - 1));
  return m;
}

TokenMapping TokenMapping::characters(const Vocabulary& source, const Vocabulary& target,
                                      int64_t max_source_length) {
  TokenMapping m = native(source, target, max_source_length);
  m.characters_ = true;
  // Every character of the vocabulary is a piece: the greedy longest match of split() finds
  // them one by one, and words() joins them back as any "▁" model's pieces.
  m.subword_marker_ = kWordStart;
  return m;
}

TokenMapping TokenMapping::scripted(const ScriptedModelAttributes& a) {
  TokenMapping m;
  m.source_ = side_of(a.source_vocabulary);
  m.target_ = side_of(a.target_vocabulary);
  m.lowercase_ = a.tokenizer == "attnscope";
  m.unk_ = a.unk;
  m.eos_ = a.eos;
  m.append_eos_ = a.append_eos;
  m.max_source_tokens_ = kScriptedMaxSourceTokens;
  m.subword_marker_ = a.subword_marker;
  return m;
}

std::vector<std::string> TokenMapping::pieces_of(const std::string& word, const Side& side) const {
  // Greedy longest match: "▁" marks a word's first piece, "@@" every piece but its last.
  std::vector<std::string> pieces;
  for (size_t start = 0; start < word.size();) {
    bool found = false;
    for (size_t end = word.size(); end > start; end = previous_character(word, end)) {
      std::string piece = word.substr(start, end - start);
      if (subword_marker_ == kWordStart && start == 0) piece = kWordStart + piece;
      if (subword_marker_ == "@@" && end < word.size()) piece += "@@";
      if (side.contains(piece)) {
        pieces.push_back(std::move(piece));
        start = end;
        found = true;
        break;
      }
    }
    if (!found) return {subword_marker_ == kWordStart ? kWordStart + word : word};  // unknown
  }
  return pieces;
}

std::vector<std::string> TokenMapping::split(const std::string& sentence, const Side& side) const {
  // A character model keeps punctuation inside its words: "2021-03-03" is one word.
  const std::vector<std::string> words = characters_  ? split_on_whitespace(to_lower(sentence))
                                         : cased_     ? split_as_written(sentence)
                                         : lowercase_ ? tokenize(sentence)
                                                      : split_on_whitespace(sentence);
  if (!side.subwords.empty()) return side.subwords.encode(words);
  if (subword_marker_.empty()) return words;
  std::vector<std::string> tokens;
  for (const auto& word : words) {
    // Pieces typed as pieces stay; a "▁" model's plain word always starts a new word.
    const bool typed_as_piece = subword_marker_ == kWordStart
                                    ? word.rfind(kWordStart, 0) == 0 && side.contains(word)
                                    : side.contains(word);
    if (typed_as_piece || word.size() > kLongestSplitWord) {
      tokens.push_back(word);
      continue;
    }
    for (auto& piece : pieces_of(word, side)) tokens.push_back(std::move(piece));
  }
  return tokens;
}

std::vector<std::string> TokenMapping::typed_tokens(const std::string& sentence,
                                                    const std::vector<std::string>& tokens) const {
  // Pieces and whitespace-split tokens are already what the model reads as typed.
  if (!lowercase_ || !subword_marker_.empty()) return tokens;
  std::vector<std::string> typed = tokenize_keeping_case(sentence);
  // Lowercasing may change how a word splits in rare scripts; then the lowercase tokens serve.
  return typed.size() == tokens.size() ? typed : tokens;
}

SourceText TokenMapping::prepare_source(const std::string& sentence) const {
  SourceText source;
  source.tokens = split(sentence, source_);
  source.typed = typed_tokens(sentence, source.tokens);
  source.original_length = static_cast<int>(source.tokens.size());
  if (source.tokens.size() > max_source_tokens_) {
    source.tokens.resize(max_source_tokens_);
    source.typed.resize(max_source_tokens_);
    source.truncated = true;
  }
  source.kept_length = static_cast<int>(source.tokens.size());
  for (const auto& token : source.tokens) {
    const bool unknown = !source_.contains(token);
    source.unknown.push_back(unknown);
    if (unknown) source.unknown_words.push_back(token);
  }
  if (append_eos_) {
    source.tokens.push_back(source_.tokens[static_cast<size_t>(eos_)]);
    source.typed.push_back(source.tokens.back());
    source.unknown.push_back(false);
  }
  return source;
}

bool TokenMapping::is_empty(const SourceText& source) const {
  return source.tokens.size() == (append_eos_ ? 1u : 0u);
}

int64_t TokenMapping::id_in(const Side& side, const std::string& token) const {
  const auto found = side.ids.find(token);
  return found == side.ids.end() ? unk_ : found->second;
}

std::vector<int64_t> TokenMapping::source_ids(const SourceText& source) const {
  std::vector<int64_t> ids;
  const size_t words = source.tokens.size() - (append_eos_ ? 1 : 0);
  for (size_t i = 0; i < words; ++i) ids.push_back(id_in(source_, source.tokens[i]));
  if (append_eos_) ids.push_back(eos_);
  return ids;
}

std::vector<int64_t> TokenMapping::target_ids(const std::string& sentence) const {
  std::vector<int64_t> ids;
  for (const auto& token : split(sentence, target_)) ids.push_back(id_in(target_, token));
  ids.push_back(eos_);
  return ids;
}

std::vector<std::string> TokenMapping::unknown_target_tokens(const std::string& sentence) const {
  std::vector<std::string> unknown;
  for (const auto& token : split(sentence, target_))
    if (id_in(target_, token) == unk_ && token != unknown_token() &&
        std::find(unknown.begin(), unknown.end(), token) == unknown.end())
      unknown.push_back(token);
  return unknown;
}

int64_t TokenMapping::target_id(const std::string& token) const {
  const std::string typed = lowercase_ ? to_lower(token) : token;
  if ((!target_.subwords.empty() || characters_) && !target_.contains(typed) &&
      target_.contains(kWordStart + typed))
    return id_in(target_, kWordStart + typed);
  return id_in(target_, typed);
}

const std::string& TokenMapping::target_token(int64_t id) const {
  return target_.tokens.at(static_cast<size_t>(id));
}

}  // namespace attnscope
