// attnscope-cli export --snapshots: a training run's snapshots as small multiples (PNG) or an
// animated GIF, and every bad input refused with one line. The real binary, run as a child
// process.
#include <attnscope/training_snapshots.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "cli/cli_process.h"
#include "engine/test_models.h"
#if ATTNSCOPE_CLI_HAS_UI
#include "ui/gif_file.h"
#endif

namespace attnscope {
namespace {

using namespace cli_test;
using testing::read_bytes;

// `count` snapshots of a 3-word probe whose attention drifts from uniform to the diagonal.
std::string snapshots_file(const std::string& folder, int count) {
  std::string text;
  for (int k = 0; k < count; ++k) {
    TrainingSnapshot s;
    s.batch = 25 * (k + 1);
    s.epoch = 1 + k / 10;
    s.loss = 4.0 / (k + 1);
    s.source = {"a", "dog", "runs", "</s>"};
    s.output = {"ein", "Hund", "läuft", "</s>"};
    const float t = static_cast<float>(k) / static_cast<float>(count - 1);
    for (size_t r = 0; r < 4; ++r) {
      s.attention.emplace_back(4, (1 - t) * 0.25f);
      s.attention.back()[r] += t;
    }
    text += snapshot_json_line(s) + "\n";
  }
  return write_bytes(folder, "run.jsonl", text);
}

// Width and height from a PNG's IHDR chunk.
std::pair<int, int> png_size(const std::string& bytes) {
  const auto be32 = [&](size_t at) {
    return static_cast<int>(static_cast<unsigned char>(bytes[at]) << 24 |
                            static_cast<unsigned char>(bytes[at + 1]) << 16 |
                            static_cast<unsigned char>(bytes[at + 2]) << 8 |
                            static_cast<unsigned char>(bytes[at + 3]));
  };
  return {be32(16), be32(20)};
}

class CliSnapshots : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!ATTNSCOPE_CLI_HAS_UI) GTEST_SKIP() << "export needs the UI build";
    folder_ = testing::temporary_folder();
    file_ = snapshots_file(folder_, 20);
  }
  std::string path(const std::string& name) const { return folder_ + "/" + name; }

  std::string folder_, file_;
};

TEST_F(CliSnapshots, SmallMultiplesAsPng) {
  expect_success(run_cli({"export", "--snapshots", file_, "--out", path("six.png")}));
  const std::string png = read_bytes(path("six.png"));
  ASSERT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_EQ(png_size(png), std::make_pair(1500, 840));  // six panels, 3 × 2, 500 × 420 each
  expect_success(run_cli({"export", "--snapshots", file_, "--frames", "2", "--width", "800",
                          "--height", "300", "--out", path("two.png")}));
  EXPECT_EQ(png_size(read_bytes(path("two.png"))), std::make_pair(800, 300));
}

#if ATTNSCOPE_CLI_HAS_UI
TEST_F(CliSnapshots, AnimatedGif) {
  expect_success(run_cli({"export", "--snapshots", file_, "--out", path("run.gif")}));
  const gif_test::GifFile all = gif_test::read_gif(path("run.gif"));
  EXPECT_EQ(all.frames.size(), 20u);  // every snapshot, under the cap of 100
  EXPECT_EQ(all.width, 800);
  EXPECT_EQ(all.height, 600);
  EXPECT_EQ(all.loop_count, 0);
  EXPECT_EQ(all.frames.front().delay_cs, 20);
  EXPECT_NE(all.frames.front().pixels, all.frames.back().pixels);

  expect_success(run_cli({"export", "--snapshots", file_, "--frames", "5", "--delay", "100",
                          "--width", "320", "--height", "240", "--out", path("five.gif")}));
  const gif_test::GifFile five = gif_test::read_gif(path("five.gif"));
  ASSERT_EQ(five.frames.size(), 5u);
  EXPECT_EQ(five.width, 320);
  EXPECT_EQ(five.frames[0].delay_cs, 10);
  EXPECT_EQ(five.frames[4].delay_cs, 200);  // the last frame stays 2 s
}
#endif

TEST_F(CliSnapshots, BadSnapshotsFileGivesOneLineWithFileAndLine) {
  const std::string out = path("never.gif");
  const std::string bad = write_bytes(folder_, "bad.jsonl", read_bytes(file_) + "{\"batch\":\n");
  expect_clean_error(run_cli({"export", "--snapshots", bad, "--out", out}),
                     {"snapshots '" + bad + "', line 21: not JSON"});
  const std::string ragged = write_bytes(
      folder_, "ragged.jsonl",
      R"({"batch":1,"epoch":1,"loss":2,"source":["a","</s>"],"output":["x"],"attention":[[1]]})"
      "\n");
  expect_clean_error(run_cli({"export", "--snapshots", ragged, "--out", out}),
                     {"'" + ragged + "', line 1", "attention row 1"});
  expect_clean_error(run_cli({"export", "--snapshots", path("missing.jsonl"), "--out", out}),
                     {"snapshots '" + path("missing.jsonl") + "': cannot be read"});
  expect_clean_error(
      run_cli({"export", "--snapshots", write_bytes(folder_, "empty.jsonl", ""), "--out", out}),
      {"empty.jsonl'", "holds no snapshot"});
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST_F(CliSnapshots, BadOptionsAndOutputsGiveOneLine) {
  const std::vector<std::string> base = {"export", "--snapshots", file_};
  const auto run = [&](std::vector<std::string> more) {
    std::vector<std::string> args = base;
    args.insert(args.end(), more.begin(), more.end());
    return run_cli(args);
  };
  expect_clean_error(run({"--frames", "0", "--out", path("x.png")}), {"--frames", "0"});
  expect_clean_error(run({"--frames", "-3", "--out", path("x.gif")}), {"--frames"});
  expect_clean_error(run({"--frames", "many", "--out", path("x.gif")}), {"--frames"});
  expect_clean_error(run({"--delay", "5", "--out", path("x.gif")}), {"--delay"});
  expect_clean_error(run({"--delay", "100", "--out", path("x.png")}),
                     {"--delay", path("x.png"), "not a .gif"});
  expect_clean_error(run({"--out", path("x.csv")}),
                     {"cannot export to '" + path("x.csv") + "'", "unknown file type"});
  expect_clean_error(run({"--out", path("missing/x.gif")}),
                     {path("missing/x.gif"), "does not exist"});
  std::filesystem::create_directory(path("dir.gif"));
  expect_clean_error(run({"--out", path("dir.gif")}), {path("dir.gif"), "is a directory"});
  // --snapshots replaces a sentence, a model and an attention file; --frames needs it.
  expect_clean_error(run({"--model", "x.attnmodel", "--out", path("x.png")}),
                     {"--snapshots", "--model"});
  expect_clean_error(run({"--from", file_, "--out", path("x.png")}), {"--snapshots", "--from"});
  expect_clean_error(run({"--out", path("x.png"), "a", "sentence"}), {"--snapshots", "sentence"});
  expect_clean_error(run_cli({"export", "--frames", "3", "--out", path("x.png"), "a dog"}),
                     {"--frames", "--snapshots"});
  expect_clean_error(run_cli({"export", "--out", path("x.gif"), "a dog"}),
                     {"unknown file type", ".gif only with --snapshots"});
  // Root writes into any folder: an unwritable one is /proc's.
  expect_clean_error(run({"--out", "/proc/x.gif"}), {"cannot export to '/proc/x.gif'"});
  for (const char* name : {"x.png", "x.gif", "x.csv"})
    EXPECT_FALSE(std::filesystem::exists(path(name))) << name;
}

TEST_F(CliSnapshots, FullDiskLeavesNoHalfFile) {
  for (const char* name : {"full.gif", "full.png"}) {
    SCOPED_TRACE(name);
    RunOptions full;
    full.file_size_limit = 4096;
    expect_clean_error(run_cli({"export", "--snapshots", file_, "--out", path(name)}, full),
                       {"cannot export to '" + path(name) + "'"});
    for (const auto& entry : std::filesystem::directory_iterator(folder_))
      EXPECT_EQ(entry.path().filename().string().rfind(name, 0), std::string::npos) << entry.path();
  }
}

// Without the UI, export --snapshots refuses as export always has.
TEST(CliSnapshotsHeadless, SaysWhatItNeeds) {
  if (ATTNSCOPE_CLI_HAS_UI) GTEST_SKIP() << "the UI build exports";
  const std::string folder = testing::temporary_folder();
  expect_clean_error(
      run_cli({"export", "--snapshots", snapshots_file(folder, 3), "--out", folder + "/x.gif"}),
      {"export needs the desktop build"});
}

}  // namespace
}  // namespace attnscope
