#include "attnscope/translation.h"

#include <cmath>

#include "attnscope/text.h"
#include "attnscope/vocabulary.h"

namespace attnscope {

std::vector<std::string> Translation::words() const {
  std::vector<std::string> words;
  for (const auto& token : tokens)
    if (token != Vocabulary::special_tokens()[Vocabulary::kEos]) words.push_back(token);
  return words;
}

std::string Translation::text() const { return join_tokens(words()); }

float attention_entropy(const std::vector<float>& row) {
  double entropy = 0.0;
  for (float a : row)
    if (a > 0.0f) entropy -= a * std::log(static_cast<double>(a));
  return static_cast<float>(entropy);
}

}  // namespace attnscope
