#include "attnscope/source_leak.h"

#include "attnscope/corpus.h"
#include "attnscope/text.h"

namespace attnscope {

TargetLexicon TargetLexicon::from_file(const std::string& path) {
  std::unordered_set<std::string> words;
  for (const std::string& line : read_utf8_lines(path))
    for (std::string& word : tokenize(line)) words.insert(std::move(word));
  return TargetLexicon(std::move(words));
}

std::vector<size_t> leaked_words(const std::vector<std::string>& source_words,
                                 const std::vector<std::string>& output_words,
                                 const TargetLexicon& lexicon) {
  // A source word typed with a capital (a name, or the first word of the sentence) is not
  // counted: names pass into a translation unchanged, and a first word cannot tell.
  std::unordered_set<std::string> lowercase_source;
  for (const std::string& word : source_words)
    if (to_lower(word) == word) lowercase_source.insert(word);
  std::vector<size_t> leaked;
  for (size_t i = 0; i < output_words.size(); ++i) {
    const std::string word = to_lower(output_words[i]);
    if (lowercase_source.count(word) && !lexicon.contains(word)) leaked.push_back(i);
  }
  return leaked;
}

}  // namespace attnscope
