#pragma once
// Source-language words left in a translation: an English word in the German output that
// German never uses. A word model that cannot translate a word it knows writes "<unk>", and
// copying through attention (translation.h) used to fill that with the English word; a subword
// model may spell an English word piece by piece. This measures how often either happens.
#include <cstddef>
#include <string>
#include <unordered_set>
#include <vector>

namespace attnscope {

/// Every word of the target side of a training corpus, lowercased as tokenize() splits it.
class TargetLexicon {
 public:
  TargetLexicon() = default;
  explicit TargetLexicon(std::unordered_set<std::string> words) : words_(std::move(words)) {}
  /// Reads a target text (plain or .gz), one sentence per line; throws std::invalid_argument or
  /// std::runtime_error naming the file.
  static TargetLexicon from_file(const std::string& path);

  bool contains(const std::string& lowercase_word) const { return words_.count(lowercase_word); }
  size_t size() const { return words_.size(); }
  bool empty() const { return words_.empty(); }

 private:
  std::unordered_set<std::string> words_;
};

/// Positions in `output_words` of leaked words: the word occurs among `source_words` written in
/// lowercase there (so not a name, which a translation keeps) and nowhere in `lexicon`. Words
/// compare lowercased. `source_words`: the source as typed, split like the model splits it.
std::vector<size_t> leaked_words(const std::vector<std::string>& source_words,
                                 const std::vector<std::string>& output_words,
                                 const TargetLexicon& lexicon);

/// Leaked words over a corpus.
struct LeakShare {
  size_t leaked_words = 0;
  size_t output_words = 0;
  size_t sentences_with_leak = 0;

  void add(size_t leaked, size_t words) {
    leaked_words += leaked;
    output_words += words;
    sentences_with_leak += leaked > 0 ? 1 : 0;
  }
  /// Leaked words in percent of output words (0 without output).
  double percent() const {
    return output_words == 0 ? 0.0 : 100.0 * static_cast<double>(leaked_words) / output_words;
  }
};

}  // namespace attnscope
