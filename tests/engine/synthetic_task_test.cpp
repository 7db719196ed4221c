// A tiny model learns to copy and to reverse in seconds, and its attention shows how: the
// argmax alignment lies on the diagonal (copy) or the anti-diagonal (reverse).
#include <attnscope/text.h>
#include <attnscope/trainer.h>
#include <attnscope/translator.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "attnscope/corpus.h"
#include "engine/test_models.h"

namespace attnscope {
namespace {

struct Outcome {
  double exact = 0.0;    // share of sentences reproduced exactly
  double aligned = 0.0;  // share of output words whose argmax attention is where expected
};

Outcome learn(testing::Task task, const std::string& score) {
  const std::string folder = testing::temporary_folder();
  TrainOptions options =
      testing::task_training(folder, task, score, 1500, 60, 11, "model.attnmodel");
  const std::string test_prefix = testing::write_task_corpus(folder, "test", task, 60, 13);
  // 9 epochs: at 6, seeds 11, 21, 31 and 41 copied only 62-77% of the test sentences exactly,
  // so passing hung on float summation order; at 9 they copy 90-100% and reverse 98-100%.
  options.epochs = 9;
  options.batch_size = 32;
  options.min_frequency = 1;
  options.label_smoothing = 0.0;
  options.learning_rate = 3e-3;
  train(options);

  const Translator translator(options.output_path);
  const auto sources = read_lines(test_prefix + ".src");
  const auto targets = read_lines(test_prefix + ".tgt");
  Outcome outcome;
  int words = 0;
  for (size_t i = 0; i < sources.size(); ++i) {
    const Translation t = translator.translate(sources[i]);
    outcome.exact += t.text() == targets[i];
    const size_t n = t.source.tokens.size() - 1;  // without </s>
    for (size_t j = 0; j + 1 < t.tokens.size() && j < n; ++j, ++words) {
      const auto& row = t.attention[j];
      const size_t argmax = std::max_element(row.begin(), row.end()) - row.begin();
      outcome.aligned += argmax == (task == testing::Task::kCopy ? j : n - 1 - j);
    }
  }
  outcome.exact /= static_cast<double>(sources.size());
  outcome.aligned /= std::max(1, words);
  return outcome;
}

TEST(SyntheticTask, CopyIsLearnedOnTheDiagonal) {
  const Outcome o = learn(testing::Task::kCopy, "additive");
  EXPECT_GE(o.exact, 0.8);
  EXPECT_GE(o.aligned, 0.8);
}

TEST(SyntheticTask, ReverseIsLearnedOnTheAntiDiagonal) {
  const Outcome o = learn(testing::Task::kReverse, "general");
  EXPECT_GE(o.exact, 0.8);
  EXPECT_GE(o.aligned, 0.8);
}

}  // namespace
}  // namespace attnscope
