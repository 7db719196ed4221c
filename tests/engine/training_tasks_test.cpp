// The built-in teaching tasks: their examples, a model learning `reverse` onto the
// anti-diagonal, snapshots of the probe while training, and a stop request.
#include <attnscope/errors.h>
#include <attnscope/text.h>
#include <attnscope/trainer.h>
#include <attnscope/training_snapshots.h>
#include <attnscope/training_tasks.h>
#include <attnscope/translator.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <numeric>
#include <set>
#include <thread>

#include "engine/test_models.h"
#include "io/checkpoint.h"
#include "train/plateau_schedule.h"
#include "train/task_corpus.h"

namespace attnscope {
namespace {

std::vector<std::string> words(const std::string& text) { return split_on_whitespace(text); }

TEST(TrainingTasks, AreDeterministicPerSeedAndDifferAcrossSeeds) {
  for (const auto& task : training_tasks()) {
    const auto a = generate_task_examples(task.name, 50, 7);
    const auto b = generate_task_examples(task.name, 50, 7);
    const auto c = generate_task_examples(task.name, 50, 8);
    ASSERT_EQ(a.size(), 50u) << task.name;
    int same = 0, differ = 0;
    for (size_t i = 0; i < a.size(); ++i) {
      same += a[i].source == b[i].source && a[i].target == b[i].target;
      differ += a[i].source != c[i].source;
    }
    EXPECT_EQ(same, 50) << task.name;
    EXPECT_GT(differ, 40) << task.name;
  }
}

TEST(TrainingTasks, CopyReverseAndSortGiveTheirOneRightAnswer) {
  for (const auto& e : generate_task_examples("copy", 200, 1)) EXPECT_EQ(e.source, e.target);
  for (const auto& e : generate_task_examples("reverse", 200, 1)) {
    auto reversed = words(e.source);
    std::reverse(reversed.begin(), reversed.end());
    EXPECT_EQ(words(e.target), reversed);
    EXPECT_GE(reversed.size(), 4u);
    EXPECT_LE(reversed.size(), 12u);
  }
  for (const auto& e : generate_task_examples("sort", 200, 1)) {
    std::vector<int> source, target;
    for (const auto& w : words(e.source)) source.push_back(std::stoi(w));
    for (const auto& w : words(e.target)) target.push_back(std::stoi(w));
    EXPECT_TRUE(std::is_sorted(target.begin(), target.end())) << e.target;
    std::sort(source.begin(), source.end());
    EXPECT_EQ(source, target) << e.source;
  }
}

// Every date is written in one of ten ways, and each carries the day, the month and the year
// (two digits at least) of its ISO answer.
TEST(TrainingTasks, DatesAreRealDatesWrittenTenWays) {
  const std::vector<std::string> months = {"jan", "feb", "mar", "apr", "may", "jun",
                                           "jul", "aug", "sep", "oct", "nov", "dec"};
  std::set<std::string> shapes;
  for (const auto& e : generate_task_examples("dates", 2000, 3)) {
    ASSERT_EQ(e.target.size(), 10u) << e.target;
    const int year = std::stoi(e.target.substr(0, 4)), month = std::stoi(e.target.substr(5, 2)),
              day = std::stoi(e.target.substr(8, 2));
    ASSERT_TRUE(year >= 1950 && year <= 2049) << e.target;
    ASSERT_TRUE(month >= 1 && month <= 12) << e.target;
    const int days[] = {31, (year % 4 == 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    ASSERT_TRUE(day >= 1 && day <= days[month - 1]) << e.target;
    const std::string source = to_lower(e.source);
    const bool month_named =
        source.find(months[static_cast<size_t>(month - 1)]) != std::string::npos;
    const bool month_number = source.find(std::to_string(month)) != std::string::npos;
    EXPECT_TRUE(month_named || month_number) << e.source << " -> " << e.target;
    EXPECT_NE(source.find(std::to_string(day)), std::string::npos) << e.source;
    EXPECT_NE(source.find(e.target.substr(2, 2)), std::string::npos) << e.source;
    std::string shape = e.source;  // digits and letters blurred: the way it is written
    for (char& c : shape)
      c = std::isdigit(static_cast<unsigned char>(c))   ? '9'
          : std::isalpha(static_cast<unsigned char>(c)) ? 'a'
                                                        : c;
    shape.erase(std::unique(shape.begin(), shape.end()), shape.end());
    shapes.insert(shape);
  }
  // Blurred, "3 March 2021" and "3 Mar 21" look alike, and so do "03/03/2021" and "3/3/21".
  EXPECT_GE(shapes.size(), 8u);
}

// Days since 1970-01-01 (Hinnant's days_from_civil): another way to the weekday than the
// generator's Zeller congruence.
int64_t days_from_civil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

TEST(TrainingTasks, DatesNameTheRightWeekday) {
  const std::vector<std::string> weekdays = {"Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"};
  int checked = 0;
  for (const auto& e : generate_task_examples("dates", 2000, 5)) {
    const auto named = std::find_if(weekdays.begin(), weekdays.end(), [&](const std::string& w) {
      return e.source.rfind(w, 0) == 0;
    });
    if (named == weekdays.end()) continue;
    const int64_t days =
        days_from_civil(std::stoi(e.target.substr(0, 4)), std::stoi(e.target.substr(5, 2)),
                        std::stoi(e.target.substr(8, 2)));
    EXPECT_EQ(*named, weekdays[static_cast<size_t>(((days % 7) + 7) % 7)]) << e.source;
    ++checked;
  }
  EXPECT_GT(checked, 200);  // two of the ten ways name the weekday
}

TEST(TrainingTasks, CharacterTokensMarkEachWordsFirstCharacter) {
  EXPECT_EQ(task_tokens("Mar 3, 21", TaskText::kCharacters),
            (std::vector<std::string>{"\u2581m", "a", "r", "\u25813", ",", "\u25812", "1"}));
  EXPECT_EQ(task_tokens("2021-03-03", TaskText::kCharacters).size(), 10u);
  EXPECT_EQ(task_tokens("Ä b", TaskText::kCharacters),
            (std::vector<std::string>{"\u2581ä", "\u2581b"}));
  EXPECT_EQ(task_tokens("k d q", TaskText::kWords), (std::vector<std::string>{"k", "d", "q"}));
}

TEST(TrainingTasks, UnknownTaskAndCorpusFilesBesideATaskAreRefusedByName) {
  const std::string folder = testing::temporary_folder();
  TrainOptions options = task_options("reverse", folder + "/m.attnmodel");
  options.task = "palindromes";
  try {
    train(options);
    FAIL();
  } catch (const SettingError& e) {
    EXPECT_EQ(e.setting(), "task");
    EXPECT_NE(std::string(e.what()).find("reverse, copy, sort, dates"), std::string::npos);
  }
  options.task = "reverse";
  options.source_path = folder + "/train.en";
  try {
    train(options);
    FAIL();
  } catch (const SettingError& e) {
    EXPECT_EQ(e.setting(), "source_path");
  }
  options.source_path.clear();
  options.snapshot_every = -1;
  EXPECT_THROW(train(options), SettingError);
  EXPECT_THROW(task_options("nope", "x"), std::invalid_argument);
}

// The check: a model that learned `reverse` looks at the anti-diagonal. Held-out
// examples (another seed); argmax attention of each output symbol on its mirrored source symbol.
TEST(TrainingTasks, ReverseIsLearnedOnTheAntiDiagonal) {
  const std::string folder = testing::temporary_folder();
  TrainOptions options = task_options("reverse", folder + "/reverse.attnmodel");
  options.epochs = 5;  // 95% exact after 3 on this machine
  // The thresholds below are seed 1's in float32. In bfloat16 the task is learned as well
  // (seeds 1-3: 99.7-100% exact), but seed 1's attention then sits on the anti-diagonal at
  // 87% of steps (seeds 2 and 3: 99%), float32's 97-100%: a seed's luck, not the precision's.
  options.precision = "fp32";
  const TrainingRecord record = train(options);
  // Its validation set reversed exactly (100% here after 5 epochs), as recorded in the model.
  EXPECT_GE(record.validation_accuracy, 0.9);
  EXPECT_LE(record.validation_accuracy, 1.0);

  const Translator translator(options.output_path);
  EXPECT_EQ(translator.info().config.score, "additive");
  EXPECT_NEAR(translator.info().training.validation_accuracy, record.validation_accuracy, 1e-6);
  // What the app offers to type: the probe first, then held-out inputs, stored in the model.
  ASSERT_GE(translator.info().examples.size(), 3u);
  EXPECT_EQ(translator.info().examples.front(), training_task("reverse").probe);
  EXPECT_EQ(translator.info().examples, record.examples);
  int steps = 0, on_anti_diagonal = 0, exact = 0;
  const auto held_out = generate_task_examples("reverse", 100, 12345);
  for (const auto& example : held_out) {
    const Translation t = translator.translate(example.source);
    exact += t.text() == example.target;
    const size_t n = t.source.tokens.size() - 1;  // without </s>
    for (size_t j = 0; j < n && j < t.attention.size(); ++j, ++steps) {
      const auto& row = t.attention[j];
      on_anti_diagonal +=
          static_cast<size_t>(std::max_element(row.begin(), row.end()) - row.begin()) == n - 1 - j;
    }
  }
  // 97-100% on the machines measured (759 of 800 on one CI machine, whose float32 sums run in
  // another order). Attention that did not learn the task would pick the mirrored symbol about
  // one step in n (n is 4-12 here), so 90% still tells the two apart by far.
  EXPECT_GE(on_anti_diagonal, 0.9 * steps) << on_anti_diagonal << " of " << steps;
  EXPECT_GE(exact, 90) << exact << " of 100 reversed exactly";
}

TEST(TrainingTasks, SnapshotsRecordTheProbeWithoutChangingTheTraining) {
  const std::string folder = testing::temporary_folder();
  TrainOptions options = task_options("dates", folder + "/plain.attnmodel");
  options.epochs = 1;
  options.task_examples = 640;  // 10 batches of 64
  options.snapshot_every = 0;
  train(options);

  options.output_path = folder + "/watched.attnmodel";
  options.snapshot_every = 3;
  options.snapshots_path = folder + "/snapshots.jsonl";
  std::vector<TrainingSnapshot> seen;
  TrainObserver observer;
  observer.snapshot = [&](const TrainingSnapshot& s) { seen.push_back(s); };
  train(options, observer);

  // Batches 1, 3, 6 and 9 of 10.
  const auto written = read_snapshots(options.snapshots_path);
  ASSERT_EQ(written.size(), 4u);
  ASSERT_EQ(seen.size(), 4u);
  EXPECT_EQ(written[0].batch, 1);
  EXPECT_EQ(written[3].batch, 9);
  const auto probe = task_tokens(training_task("dates").probe, TaskText::kCharacters);
  for (const auto& s : written) {
    EXPECT_EQ(s.epoch, 1);
    EXPECT_GT(s.loss, 0.0);
    EXPECT_EQ(s.subword_marker, "\u2581");
    ASSERT_EQ(s.source.size(), probe.size() + 1);
    EXPECT_EQ(s.source.back(), "</s>");
    ASSERT_EQ(s.attention.size(), s.output.size());
    for (const auto& row : s.attention) {
      ASSERT_EQ(row.size(), s.source.size());
      EXPECT_NEAR(std::accumulate(row.begin(), row.end(), 0.0), 1.0, 2e-3);
    }
  }
  EXPECT_EQ(seen[2].output, written[2].output);

  // The same weights with and without snapshots: decoding the probe uses no random numbers.
  const Checkpoint plain = load_checkpoint(folder + "/plain.attnmodel");
  const Checkpoint watched = load_checkpoint(options.output_path);
  ASSERT_EQ(plain.tensors.size(), watched.tensors.size());
  for (size_t i = 0; i < plain.tensors.size(); ++i)
    EXPECT_TRUE(torch::equal(plain.tensors[i].second, watched.tensors[i].second))
        << plain.tensors[i].first;
  EXPECT_EQ(watched.subwords, kCharacters);
}

// Stopped two thirds into its first epoch, `reverse` already reverses a good part of its
// validation set (an untrained model none): the partial epoch is validated with the weights
// trained so far, and those are the ones saved. How much depends on the arithmetic's rounding
// along the way: 63% in float32 and 66% in bfloat16 in the Release build, 32% in the sanitizer
// build's (-O1) bfloat16; hence the low bounds, still far from an untrained model's zero.
TEST(TrainingTasks, AStopRequestEndsTheRunWithTheEpochSoFarValidatedAndSaved) {
  const std::string folder = testing::temporary_folder();
  TrainOptions options = task_options("reverse", folder + "/reverse.attnmodel");
  options.task_examples = 9600;  // 300 batches of 32
  int batches = 0;
  std::vector<EpochSummary> epochs;
  TrainObserver observer;
  observer.progress = [&](const TrainProgress&) { ++batches; };
  observer.epoch_done = [&](const EpochSummary& s) { epochs.push_back(s); };
  observer.stop_requested = [&] { return batches == 200; };
  const TrainingRecord record = train(options, observer);
  EXPECT_EQ(batches, 200);
  ASSERT_EQ(epochs.size(), 1u);
  EXPECT_TRUE(epochs[0].partial);
  EXPECT_GE(epochs[0].validation_accuracy, 0.2);
  EXPECT_LE(epochs[0].validation_accuracy, 1.0);
  EXPECT_EQ(record.epochs, 1);
  EXPECT_LT(record.validation_bleu, 0.0);  // a task's record holds its exact matches instead
  EXPECT_NEAR(record.validation_accuracy, epochs[0].validation_accuracy, 1e-6);
  const Translator translator(options.output_path);
  EXPECT_NEAR(translator.info().training.validation_accuracy, record.validation_accuracy, 1e-6);
  // The saved weights are the trained ones: held-out examples come out reversed as often.
  int exact = 0;
  for (const auto& example : generate_task_examples("reverse", 100, 12345))
    exact += translator.translate(example.source).text() == example.target;
  EXPECT_GE(exact, 20) << exact << " of 100 reversed exactly";
}

// A front end pauses a run by blocking in stop_requested; that time is not training time: the
// speed, the time left and the epoch's time leave it out (they counted it: a GUI run showed half
// its speed after a pause).
TEST(TrainingTasks, TimePausedInTheObserverIsNotCountedAsTrainingTime) {
  const std::string folder = testing::temporary_folder();
  TrainOptions options = task_options("reverse", folder + "/paused.attnmodel");
  options.task_examples = 320;  // 10 batches of 32
  options.epochs = 1;
  constexpr double kPause = 3.0;
  std::vector<TrainProgress> progress;
  std::vector<EpochSummary> epochs;
  TrainObserver observer;
  observer.progress = [&](const TrainProgress& p) { progress.push_back(p); };
  observer.epoch_done = [&](const EpochSummary& s) { epochs.push_back(s); };
  observer.stop_requested = [&] {
    if (progress.size() == 3) std::this_thread::sleep_for(std::chrono::duration<double>(kPause));
    return false;
  };
  const auto start = std::chrono::steady_clock::now();
  train(options, observer);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(epochs.size(), 1u);
  ASSERT_EQ(progress.size(), 10u);
  // Everything but the pause took wall - kPause; the epoch's time is part of that. Counting
  // the pause would put it above (unless setting up took longer than the pause itself).
  EXPECT_LE(epochs[0].seconds, wall - kPause + 0.05) << wall;
  // The last batch's speed: 320 sentences in at most the same time.
  EXPECT_GE(progress.back().sentences_per_second, 320.0 / (wall - kPause + 0.05)) << wall;
  EXPECT_GT(epochs[0].seconds, 0.0);
}

// A character model reads what a user types as characters and writes an ISO date as one word.
TEST(TrainingTasks, ACharacterModelTranslatesTypedTextCharacterByCharacter) {
  const std::string folder = testing::temporary_folder();
  TrainOptions options = task_options("dates", folder + "/dates.attnmodel");
  options.epochs = 1;
  options.task_examples = 320;
  train(options);
  const Translator translator(options.output_path);
  EXPECT_EQ(translator.info().subwords, "characters");
  EXPECT_EQ(translator.info().subword_marker, "\u2581");
  const Translation t = translator.translate("Mar 3, 21");
  EXPECT_EQ(t.source.tokens, (std::vector<std::string>{"\u2581m", "a", "r", "\u25813", ",",
                                                       "\u25812", "1", "</s>"}));
  EXPECT_EQ(t.text().find("  "), std::string::npos);
}

// The kept epoch: the best validation score, and of epochs that tie on it (a task's 100% exact
// matches, epoch after epoch) the one with the lower validation loss, so that the summary "the
// model is epoch N's" names the epoch the log shows best. A tie is no better score: the learning
// rate halves and patience counts as before.
TEST(PlateauSchedule, TiesGoToTheLowerValidationLoss) {
  ResumeState state;
  state.learning_rate = 0.01;
  EXPECT_TRUE(apply_plateau_schedule(state, 1, 90.0, 0.020, 4));
  EXPECT_TRUE(apply_plateau_schedule(state, 2, 100.0, 0.007, 4));
  // Epochs 3 and 4: 100% again, at lower losses: each is the model kept.
  EXPECT_TRUE(apply_plateau_schedule(state, 3, 100.0, 0.003, 4));
  EXPECT_EQ(state.best_epoch, 3);
  EXPECT_DOUBLE_EQ(state.best_loss, 0.003);
  EXPECT_TRUE(apply_plateau_schedule(state, 4, 100.0, 0.002, 4));
  // The same score at a loss no lower, or a lower score at any loss: not kept.
  EXPECT_FALSE(apply_plateau_schedule(state, 5, 100.0, 0.002, 4));
  EXPECT_FALSE(state.stopped);
  EXPECT_FALSE(apply_plateau_schedule(state, 6, 99.0, 0.001, 4));
  EXPECT_EQ(state.best_epoch, 4);
  EXPECT_DOUBLE_EQ(state.best_loss, 0.002);
  EXPECT_DOUBLE_EQ(state.best_bleu, 100.0);
  // Four epochs without a better score: the rate halved four times, and the run stops.
  EXPECT_DOUBLE_EQ(state.learning_rate, 0.01 / 16);
  EXPECT_TRUE(state.stopped);
}

}  // namespace
}  // namespace attnscope
