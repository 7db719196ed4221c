#pragma once
// Built-in teaching tasks: parallel text generated on the fly, so a model can be trained (and
// its attention watched forming) without a corpus. Every task is deterministic per seed.
#include <cstdint>
#include <string>
#include <vector>

namespace attnscope {

struct TaskExample {
  std::string source;  // as a user would type it
  std::string target;  // the one right answer, as Translation::text() gives it
};

/// How a task's text is split into the tokens its model reads and writes.
enum class TaskText {
  kWords,       // attnscope's tokenizer: the symbols are separated by spaces
  kCharacters,  // one token per character; "▁" marks a word's first character (word view)
};

/// What a task is and the settings it trains well with on a two-core machine: each reaches
/// ≥ 95% exact match on held-out examples within three minutes with these (docs/training.md,
/// "Watch attention emerge"; `bench/tasks.sh` measures it).
struct TaskSpec {
  std::string name;
  std::string description;  // one line, for --help and the app's task box
  TaskText text = TaskText::kWords;
  std::string probe;  // the example whose attention snapshots show
  int train_examples = 0;
  int validation_examples = 0;
  int epochs = 0;
  int batch_size = 0;
  int64_t embedding = 0;
  int64_t hidden = 0;
  double learning_rate = 0.0;
  double dropout = 0.0;
};

/// reverse, copy, sort, dates: the built-in tasks in this order.
const std::vector<TaskSpec>& training_tasks();
/// The task of that name; throws std::invalid_argument listing the tasks for another name.
const TaskSpec& training_task(const std::string& name);
/// "reverse, copy, sort, dates", for messages.
std::string training_task_list();

/// `count` examples of task `name`, the same for the same seed. Validation and training sets
/// use different seeds; a validation example may (rarely) also occur in the training set.
std::vector<TaskExample> generate_task_examples(const std::string& name, size_t count,
                                                uint64_t seed);

}  // namespace attnscope
