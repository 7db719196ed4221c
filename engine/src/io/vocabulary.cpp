#include "attnscope/vocabulary.h"

#include <algorithm>

#include "attnscope/errors.h"

namespace attnscope {

const std::vector<std::string>& Vocabulary::special_tokens() {
  static const std::vector<std::string> specials = {"<pad>", "<unk>", "<s>", "</s>"};
  return specials;
}

Vocabulary::Vocabulary() {
  for (const auto& token : special_tokens()) {
    ids_.emplace(token, size());
    tokens_.push_back(token);
  }
}

Vocabulary Vocabulary::build(const std::vector<std::vector<std::string>>& sentences,
                             int min_frequency) {
  std::unordered_map<std::string, int64_t> counts;
  for (const auto& sentence : sentences)
    for (const auto& word : sentence) ++counts[word];
  std::vector<std::pair<std::string, int64_t>> kept;
  for (auto& [word, count] : counts)
    if (count >= min_frequency) kept.emplace_back(word, count);
  std::sort(kept.begin(), kept.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  std::vector<std::string> tokens = special_tokens();
  for (auto& [word, count] : kept)
    if (std::find(tokens.begin(), tokens.begin() + 4, word) == tokens.begin() + 4)
      tokens.push_back(word);
  return from_tokens(std::move(tokens));
}

Vocabulary Vocabulary::from_tokens(std::vector<std::string> tokens) {
  const auto& specials = special_tokens();
  if (tokens.size() < specials.size() ||
      !std::equal(specials.begin(), specials.end(), tokens.begin()))
    ATTNSCOPE_THROW_INVALID_ARGUMENT("vocabulary does not start with the special tokens");
  Vocabulary vocab;
  vocab.tokens_ = std::move(tokens);
  vocab.ids_.clear();
  vocab.ids_.reserve(vocab.tokens_.size());
  for (size_t i = 0; i < vocab.tokens_.size(); ++i) {
    if (!vocab.ids_.emplace(vocab.tokens_[i], static_cast<int64_t>(i)).second)
      ATTNSCOPE_THROW_INVALID_ARGUMENT("vocabulary lists '", vocab.tokens_[i], "' twice");
  }
  return vocab;
}

int64_t Vocabulary::id(const std::string& token) const {
  const auto it = ids_.find(token);
  return it == ids_.end() ? kUnk : it->second;
}

bool Vocabulary::contains(const std::string& token) const { return ids_.count(token) > 0; }

const std::string& Vocabulary::token(int64_t id) const {
  if (id < 0 || id >= size())
    ATTNSCOPE_THROW_INVALID_ARGUMENT("token id ", id, " is outside the vocabulary of ", size());
  return tokens_[static_cast<size_t>(id)];
}

}  // namespace attnscope
