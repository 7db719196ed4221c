#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace attnscope {

/// Token <-> id mapping. Ids 0..3 are the special tokens, then words by falling frequency.
class Vocabulary {
 public:
  static constexpr int64_t kPad = 0;
  static constexpr int64_t kUnk = 1;
  static constexpr int64_t kBos = 2;
  static constexpr int64_t kEos = 3;
  static const std::vector<std::string>& special_tokens();

  Vocabulary();  ///< Only the special tokens.
  /// Keeps the words seen at least `min_frequency` times; ties in count are ordered by the
  /// word itself so the result does not depend on the corpus order.
  static Vocabulary build(const std::vector<std::vector<std::string>>& sentences,
                          int min_frequency);
  /// From a list that starts with the special tokens (as stored in a checkpoint).
  static Vocabulary from_tokens(std::vector<std::string> tokens);

  int64_t size() const { return static_cast<int64_t>(tokens_.size()); }
  int64_t id(const std::string& token) const;  ///< kUnk when unknown.
  bool contains(const std::string& token) const;
  const std::string& token(int64_t id) const;  ///< Throws std::invalid_argument when out of range.
  const std::vector<std::string>& tokens() const { return tokens_; }

 private:
  std::vector<std::string> tokens_;
  std::unordered_map<std::string, int64_t> ids_;
};

}  // namespace attnscope
