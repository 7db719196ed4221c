#include "train/task_corpus.h"

#include "attnscope/text.h"
#include "io/subword_model.h"

namespace attnscope {
namespace {

// Bytes of the UTF-8 character that starts with `lead` (1 for a stray continuation byte, which
// generated text never holds).
size_t character_bytes(unsigned char lead) {
  if (lead >= 0xF0) return 4;
  if (lead >= 0xE0) return 3;
  if (lead >= 0xC0) return 2;
  return 1;
}

// The words of a character model's output or reference: what words() joins its pieces into.
std::vector<std::string> task_words(const std::string& text, TaskText kind) {
  return kind == TaskText::kCharacters ? split_on_whitespace(to_lower(text)) : tokenize(text);
}

TokenizedPairs to_pairs(const std::vector<TaskExample>& examples, TaskText kind) {
  TokenizedPairs pairs;
  for (const auto& example : examples) {
    pairs.source.push_back(task_tokens(example.source, kind));
    pairs.target.push_back(task_tokens(example.target, kind));
  }
  return pairs;
}

}  // namespace

std::vector<std::string> task_tokens(const std::string& text, TaskText kind) {
  if (kind == TaskText::kWords) return tokenize(text);
  std::vector<std::string> tokens;
  for (const auto& word : task_words(text, kind)) {
    for (size_t at = 0; at < word.size();) {
      const size_t bytes =
          std::min(character_bytes(static_cast<unsigned char>(word[at])), word.size() - at);
      tokens.push_back((at == 0 ? kWordStart : "") + word.substr(at, bytes));
      at += bytes;
    }
  }
  return tokens;
}

TaskCorpus make_task_corpus(const TaskSpec& task, size_t train_examples, uint64_t seed) {
  // Validation draws from another stream of the same generator, so its examples are new ones
  // (up to the rare repeat the small task spaces allow).
  const uint64_t validation_seed = seed ^ 0x9E3779B97F4A7C15ull;
  const auto validation = generate_task_examples(
      task.name, static_cast<size_t>(task.validation_examples), validation_seed);
  TaskCorpus corpus;
  corpus.train = to_pairs(generate_task_examples(task.name, train_examples, seed), task.text);
  corpus.validation = to_pairs(validation, task.text);
  for (const auto& example : validation)
    corpus.validation_references.push_back(task_words(example.target, task.text));
  return corpus;
}

}  // namespace attnscope
