#pragma once
// A built-in task's examples as the trainer reads them: tokens (words, or characters with "▁"
// before each word's first), and the validation references as words.
#include <string>
#include <vector>

#include "attnscope/training_tasks.h"
#include "train/parallel_corpus.h"

namespace attnscope {

struct TaskCorpus {
  TokenizedPairs train;
  TokenizedPairs validation;
  // The validation targets as Translation::words() gives an output of this task's model.
  std::vector<std::vector<std::string>> validation_references;
};

/// `train_examples` generated examples (seed `seed`) and the task's validation examples (a seed
/// derived from it).
TaskCorpus make_task_corpus(const TaskSpec& task, size_t train_examples, uint64_t seed);

/// Text as a task's model reads it: tokenize()'s words, or lowercased whitespace-separated words
/// split into characters, "▁" + the first.
std::vector<std::string> task_tokens(const std::string& text, TaskText kind);

}  // namespace attnscope
