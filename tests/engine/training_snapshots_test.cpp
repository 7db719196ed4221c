// Training snapshots as JSON lines: written and read back unchanged (weights to four decimals),
// every bad line refused with the file, its line number and the problem, and frames picked
// evenly from a run.
#include <attnscope/training_snapshots.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "engine/test_models.h"

namespace attnscope {
namespace {

TrainingSnapshot snapshot(int64_t batch, double loss) {
  TrainingSnapshot s;
  s.batch = batch;
  s.epoch = 1 + static_cast<int>(batch / 100);
  s.loss = loss;
  s.source = {"a", "dog", "</s>"};
  s.output = {"ein", "Hund", "</s>"};
  s.attention = {{0.8125f, 0.1875f, 0.0f}, {0.0625f, 0.25f, 0.6875f}, {0.1234f, 0.0f, 0.8766f}};
  return s;
}

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = testing::temporary_folder() + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// The error of reading `text` as a snapshots file, which must be one line naming the file.
std::string read_error(const std::string& text) {
  const std::string path = write_file("bad.jsonl", text);
  try {
    read_snapshots(path);
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("'" + path + "'"), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    return message;
  }
  ADD_FAILURE() << "read: " << text;
  return {};
}

void expect_same(const TrainingSnapshot& read, const TrainingSnapshot& written) {
  EXPECT_EQ(read.batch, written.batch);
  EXPECT_EQ(read.epoch, written.epoch);
  EXPECT_DOUBLE_EQ(read.loss, written.loss);
  EXPECT_EQ(read.source, written.source);
  EXPECT_EQ(read.output, written.output);
  EXPECT_EQ(read.subword_marker, written.subword_marker);
  ASSERT_EQ(read.attention.size(), written.attention.size());
  for (size_t r = 0; r < read.attention.size(); ++r)
    EXPECT_EQ(read.attention[r], written.attention[r]) << "row " << r;
}

TEST(TrainingSnapshots, JsonLinesRoundTrip) {
  TrainingSnapshot words = snapshot(120, 1.234);
  TrainingSnapshot pieces = snapshot(240, 0.5);
  pieces.source = {"▁ein", "\"quoted\"", "ü\\", "</s>"};
  pieces.output = {"▁a", "</s>"};
  pieces.attention = {{0.25f, 0.25f, 0.5f, 0.0f}, {0.0f, 0.0f, 0.0001f, 0.9999f}};
  pieces.subword_marker = "▁";
  TrainingSnapshot baseline = snapshot(360, 7.0);  // a model without attention
  baseline.attention.clear();
  const std::vector<TrainingSnapshot> written = {words, pieces, baseline};
  // Blank lines and CRLF line ends are allowed between the lines.
  std::string text;
  for (const auto& s : written) {
    const std::string line = snapshot_json_line(s);
    EXPECT_EQ(line.find('\n'), std::string::npos);
    text += line + "\r\n\n";
  }
  const auto read = read_snapshots(write_file("run.jsonl", text));
  ASSERT_EQ(read.size(), written.size());
  for (size_t i = 0; i < read.size(); ++i) {
    SCOPED_TRACE(i);
    expect_same(read[i], written[i]);
  }
  EXPECT_TRUE(read[2].attention.empty());
}

TEST(TrainingSnapshots, WeightsAreWrittenToFourDecimals) {
  TrainingSnapshot s = snapshot(1, 2.0);
  s.attention[0] = {0.123456f, 0.876544f, 0.0f};
  const auto read = read_snapshots(write_file("run.jsonl", snapshot_json_line(s)));
  EXPECT_FLOAT_EQ(read[0].attention[0][0], 0.1235f);
  EXPECT_FLOAT_EQ(read[0].attention[0][1], 0.8765f);
}

TEST(TrainingSnapshots, EveryBadLineIsNamedWithItsNumberAndProblem) {
  const std::string good = snapshot_json_line(snapshot(1, 2.0));
  // The replacement of `field`'s value in a good line.
  const auto with = [&](const std::string& field, const std::string& value) {
    nlohmann::json object = nlohmann::json::parse(good);
    if (value.empty())
      object.erase(field);
    else
      object[field] = nlohmann::json::parse(value);
    return object.dump();
  };
  // Each bad line is line 3: after a good line and a blank one, which counts.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{\"batch\": 1,", "not JSON"},
      {"[1, 2, 3]", "not a JSON object"},
      {with("batch", ""), "\"batch\" is missing"},
      {with("epoch", "\"two\""), "\"epoch\" is missing or not a whole number"},
      {with("batch", "-4"), "\"batch\" is missing or not a whole number"},
      {with("loss", "\"low\""), "\"loss\" is missing or not a finite number"},
      {with("source", "\"a dog\""), "\"source\" is missing or not a list of tokens"},
      {with("output", "[\"ein\", 2, \"</s>\"]"), "\"output\" holds a non-string"},
      {with("attention", ""), "\"attention\" is missing"},
      {with("attention", "\"diagonal\""), "\"attention\" is missing or neither a matrix nor null"},
      {with("attention", "[[1, 0, 0], [0, 1, 0]]"), "\"attention\" has 2 rows for 3 output tokens"},
      {with("attention", "[[1, 0, 0], [0, 1], [0, 0, 1]]"),
       "attention row 2 does not have one weight for each of the 3 source tokens"},
      {with("attention", "[[1, 0, 0], [0, 1, 0], [0, 0, \"1\"]]"),
       "attention row 3 holds a non-number"},
      {with("attention", "[[1, 0, 0], [0, 1.5, 0], [0, 0, 1]]"),
       "attention row 2 holds 1.5, outside [0, 1]"},
      {with("attention", "[[1, 0, 0], [0, 1, 0], [-0.25, 0, 1]]"),
       "attention row 3 holds -0.25, outside [0, 1]"},
      {with("subword_marker", "7"), "\"subword_marker\" is not a string"},
      // JSON has no NaN or infinity: such a weight makes the line no JSON at all.
      {good.substr(0, good.find("0.8125")) + "NaN" + good.substr(good.find("0.8125") + 6),
       "not JSON"},
      {good.substr(0, good.find("0.8125")) + "1e999" + good.substr(good.find("0.8125") + 6),
       "not JSON"},
      {good.substr(0, good.find("0.8125")) + "1.0001" + good.substr(good.find("0.8125") + 6),
       "attention row 1 holds 1.0001, outside [0, 1]"},
      {"{\"batch\": \"\xff\"}", "not UTF-8"},
  };
  for (const auto& [line, problem] : cases) {
    SCOPED_TRACE(line);
    const std::string message = read_error(good + "\n\n" + line + "\n" + good + "\n");
    EXPECT_NE(message.find(", line 3: " + problem), std::string::npos) << message;
  }
}

TEST(TrainingSnapshots, EmptyMissingAndUnreadableFilesAreNamed) {
  EXPECT_NE(read_error("").find("holds no snapshot"), std::string::npos);
  EXPECT_NE(read_error("\n  \n\r\n").find("holds no snapshot"), std::string::npos);
  const std::string missing = testing::temporary_folder() + "/missing.jsonl";
  try {
    read_snapshots(missing);
    FAIL() << "a missing file was read";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "snapshots '" + missing + "': cannot be read");
  }
  const std::string folder = testing::temporary_folder();
  try {
    read_snapshots(folder);
    FAIL() << "a folder was read";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "snapshots '" + folder + "': cannot be read");
  }
}

std::vector<TrainingSnapshot> run_of(int count) {
  std::vector<TrainingSnapshot> run;
  for (int i = 0; i < count; ++i) run.push_back(snapshot(10 * (i + 1), 5.0 / (i + 1)));
  return run;
}

std::vector<int64_t> batches(const std::vector<TrainingSnapshot>& frames) {
  std::vector<int64_t> result;
  for (const auto& f : frames) result.push_back(f.batch);
  return result;
}

TEST(TrainingSnapshots, FramesAreSpreadEvenlyWithTheFirstAndLast) {
  const auto run = run_of(20);
  for (size_t count : {2, 3, 6, 7, 19}) {
    SCOPED_TRACE(count);
    const auto picked = batches(pick_frames(run, count));
    ASSERT_EQ(picked.size(), count);
    EXPECT_EQ(picked.front(), 10);
    EXPECT_EQ(picked.back(), 200);
    // Even: every gap (in snapshots) is the mean gap rounded down or up.
    const double mean = 19.0 / static_cast<double>(count - 1);
    for (size_t i = 1; i < picked.size(); ++i) {
      const int64_t gap = (picked[i] - picked[i - 1]) / 10;
      EXPECT_GE(gap, static_cast<int64_t>(std::floor(mean))) << i;
      EXPECT_LE(gap, static_cast<int64_t>(std::ceil(mean))) << i;
    }
  }
  EXPECT_EQ(batches(pick_frames(run, 6)), (std::vector<int64_t>{10, 50, 90, 120, 160, 200}));
}

TEST(TrainingSnapshots, AllFramesWhenThereAreNoMore) {
  const auto run = run_of(5);
  EXPECT_EQ(batches(pick_frames(run, 5)), batches(run));
  EXPECT_EQ(batches(pick_frames(run, 100)), batches(run));
  // One frame: the last, the trained state; none asked for, none given.
  EXPECT_EQ(batches(pick_frames(run, 1)), (std::vector<int64_t>{50}));
  EXPECT_TRUE(pick_frames(run, 0).empty());
  EXPECT_TRUE(pick_frames({}, 6).empty());
}

}  // namespace
}  // namespace attnscope
