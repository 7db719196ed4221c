// The real attnscope-cli binary against hostile input: every case ends in bounded time with
// exit code 0 and the promised output, or a non-zero exit code and one line on stderr naming
// the input and the problem. Never a signal, a hang or a half-written file.
#include <attnscope/score_functions.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <thread>

#include "cli/cli_process.h"
#include "engine/test_models.h"
#include "io/checkpoint.h"

namespace attnscope {
namespace {

using testing::gzip;
using testing::read_bytes;
using testing::repeat_words;
using namespace cli_test;

namespace fs = std::filesystem;

class Cli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { model_ = new std::string(testing::random_model_file("location")); }
  static void TearDownTestSuite() { delete model_; }
  static const std::string& model() { return *model_; }
  static std::string* model_;
};
std::string* Cli::model_ = nullptr;

// ---------------------------------------------------------------------------------------------
// translate: one output line per input line, whatever the line holds

struct StdinCase {
  const char* name;
  std::string input;
  size_t lines;  // expected output lines
};

std::vector<StdinCase> stdin_cases() {
  return {
      {"nothing", "", 0},
      {"one empty line", "\n", 1},
      {"blank lines", "\n  \n\t\t\n\n", 4},
      {"last line without newline", "a b\nc d", 2},
      {"CRLF", "a b\r\nc\r\n\r\n", 3},
      {"NUL bytes inside a line", std::string("a\0b c\n\0\0\n\0", 11), 3},
      {"control characters", "\x01\x02\x1b[2J\x7f\n\x07\x08 a\n", 2},
      {"invalid UTF-8", "\xFF\xFE\n\xC3(\na \xED\xA0\x80 b\n\xE2\x82", 4},
      {"emoji, CJK, right-to-left", "😀 👩‍👩‍👧\n東京\nשלום مرحبا\n", 3},
      {"only punctuation", "...!!!???\n,,,\n", 2},
      {"special-token lookalikes", "<unk> </s>\n<s> <pad>\n", 2},
      {"format strings", "%s %n %x\n%99999999s %%\n{0} ${HOME}\n", 3},
      {"a 5000-word line", repeat_words("a", 5000) + "\n", 1},
      {"a 1 MB word", std::string(1 << 20, 'x') + "\n", 1},
      {"200 lines",
       [] {
         std::string s;
         for (int i = 0; i < 200; ++i) s += "a b c\n";
         return s;
       }(),
       200},
  };
}

TEST_F(Cli, TranslateWritesOneLinePerInputLine) {
  const std::vector<std::string> greedy = {"translate", "--model", model(), "--threads", "1"};
  std::string all;  // every case at once, for --json and beam search
  size_t all_lines = 0;
  for (const auto& c : stdin_cases()) {
    SCOPED_TRACE(c.name);
    RunOptions options;
    options.input = c.input;
    const Outcome r = run_cli(greedy, options);
    expect_success(r);
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), static_cast<long>(c.lines)) << r;
    all += c.input;
    if (!c.input.empty() && c.input.back() != '\n') all += '\n';
    all_lines += c.lines;
  }
  RunOptions options;
  options.input = all;
  for (const std::string& mode : {"--json", "--beam"}) {
    SCOPED_TRACE(mode);
    std::vector<std::string> args = greedy;
    args.push_back(mode);
    if (mode == "--beam") args.push_back("3");
    const Outcome r = run_cli(args, options);
    expect_success(r);
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), static_cast<long>(all_lines)) << r;
    if (mode == "--json")
      for (const auto& line : r.out_lines()) {
        nlohmann::json j;
        ASSERT_NO_THROW(j = nlohmann::json::parse(line)) << line;
        EXPECT_EQ(j.at("attention").size(), j.at("tokens").size());
      }
  }
}

TEST_F(Cli, LongLinesAreTruncatedWithANoteNamingTheLine) {
  RunOptions options;
  for (int i = 0; i < 69; ++i) options.input += "a b\n";  // past the first batch of 64
  options.input += repeat_words("a", 5000) + "\n";
  const Outcome r = run_cli({"translate", "--model", model(), "--threads", "1"}, options);
  expect_success(r);
  EXPECT_EQ(r.out_lines().size(), 70u);
  ASSERT_EQ(r.err_lines().size(), 1u) << r;
  // The tiny model takes 19 words + </s>.
  EXPECT_EQ(r.err_lines()[0],
            "attnscope-cli: note: line 70 has 5000 tokens; translated its first 19");
  const Outcome json = run_cli(
      {"translate", "--json", "--model", model(), "--threads", "1", repeat_words("a", 5000)});
  expect_success(json);
  EXPECT_TRUE(nlohmann::json::parse(json.out).at("truncated").get<bool>());
}

TEST_F(Cli, SentenceArgumentsMayBeEmptyOrHostile) {
  const Outcome r = run_cli({"translate", "--model", model(), "--threads", "1", "", "  ", "%s%n",
                             std::string("a\x01\x02 b"), "\xFF\xFE", "</s>"});
  expect_success(r);
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 6) << r;
}

TEST_F(Cli, UnreadableStdinAndUnwritableStdoutAreErrors) {
  RunOptions folder_stdin;
  folder_stdin.stdin_path = testing::temporary_folder();
  expect_clean_error(run_cli({"translate", "--model", model(), "--threads", "1"}, folder_stdin),
                     {"cannot read standard input"});
  if (!fs::is_character_file("/dev/full")) GTEST_SKIP() << "no /dev/full";
  RunOptions full;
  full.input = "a b\nc\n";
  full.stdout_path = "/dev/full";
  expect_clean_error(run_cli({"translate", "--model", model(), "--threads", "1"}, full),
                     {"No space left on device"});
  expect_clean_error(
      run_cli({"translate", "--json", "--model", model(), "--threads", "1", "a"}, full),
      {"No space left on device"});
  const std::string src = write_bytes(testing::temporary_folder(), "eval.src", "a b\n");
  expect_clean_error(
      run_cli({"eval", "--model", model(), "--src", src, "--ref", src, "--threads", "1"}, full),
      {"cannot write the output: No space left on device"});
}

// ---------------------------------------------------------------------------------------------
// Command-line arguments

TEST_F(Cli, BadArgumentsGiveOneLine) {
  struct Case {
    std::vector<std::string> args;
    std::string part;
  };
  const std::vector<Case> cases = {
      {{"frobnicate"}, "unknown command 'frobnicate'"},
      {{}, "subcommand is required"},
      {{"translate", "--bogus"}, "--bogus"},
      {{"translate", "--model"}, "--model"},
      {{"translate", "--beam", "0", "x"}, "--beam"},
      {{"translate", "--beam", "abc", "x"}, "--beam"},
      {{"translate", "--threads", "1000000", "x"}, "--threads"},
      {{"translate", "--threads", "-1", "x"}, "--threads"},
      {{"translate", "--score", "nope", "x"}, "nope"},
      {{"translate", "--score", "dot", "--model", "m", "x"}, "excludes"},
      {{"train", "--src", "a"}, "required"},
      {{"eval", "--src", "a"}, "--ref"},
      {{"export", "--out", "x.png"}, "sentence"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(::testing::PrintToString(c.args));
    expect_clean_error(run_cli(c.args), {c.part});
  }
  const Outcome help = run_cli({"translate", "--help"});
  expect_success(help);
  EXPECT_NE(help.out.find("--beam"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// Model files

TEST_F(Cli, BadModelFilesGiveOneLineNamingTheFile) {
  const std::string folder = testing::temporary_folder();
  const std::string whole = read_bytes(model());
  std::string future = whole;
  future[16] = 9;
  std::string flipped = whole;
  flipped[whole.size() / 2] = static_cast<char>(flipped[whole.size() / 2] ^ 0x08);
  std::string header_flip = whole;
  header_flip[100] = static_cast<char>(header_flip[100] ^ 0x01);
  struct Case {
    std::string path;
    std::string problem;
  };
  std::vector<Case> cases = {
      {folder + "/missing.attnmodel", "does not exist"},
      {write_bytes(folder, "empty.attnmodel", ""), "is empty"},
      {write_bytes(folder, "magic.attnmodel", whole.substr(0, 10)), "truncated"},
      {write_bytes(folder, "preamble.attnmodel", whole.substr(0, 30)), "truncated"},
      {write_bytes(folder, "header.attnmodel", whole.substr(0, 500)), "truncated"},
      {write_bytes(folder, "weights.attnmodel", whole.substr(0, whole.size() - 100)), "truncated"},
      {write_bytes(folder, "flipped.attnmodel", flipped), "checksum mismatch"},
      {write_bytes(folder, "header-flip.attnmodel", header_flip), "header checksum mismatch"},
      {write_bytes(folder, "future.attnmodel", future), "format version 9"},
      {write_bytes(folder, "image.png", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16)),
       "not an attnscope model file"},
      {write_bytes(folder, "model.pkl", std::string("\x80\x04\x95\x10\0\0\0\0\0\0\0}\x94.", 14)),
       "not an attnscope model file"},
      {write_bytes(folder, "notes.txt", "hello\n"), "not an attnscope model file"},
      {folder, "is a directory"},
      {"/dev/zero", "not a regular file"},
  };
  const std::string fifo = folder + "/fifo.attnmodel";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  cases.push_back({fifo, "not a regular file"});  // must not wait for a writer
  if (::geteuid() != 0) {
    const std::string locked = write_bytes(folder, "locked.attnmodel", whole);
    ::chmod(locked.c_str(), 0);
    cases.push_back({locked, "cannot be read"});
  }
  for (const auto& c : cases) {
    SCOPED_TRACE(c.path);
    const std::string named = "model file '" + c.path + "'";
    expect_clean_error(run_cli({"translate", "--model", c.path, "--threads", "1", "a b"}),
                       {named, c.problem});
    if (&c - cases.data() < 3) {  // the same loader; a few through `eval` too
      const std::string src = write_bytes(folder, "eval.src", "a b\n");
      expect_clean_error(
          run_cli({"eval", "--model", c.path, "--src", src, "--ref", src, "--threads", "1"}),
          {named, c.problem});
    }
  }
}

// A broken file in ATTNSCOPE_MODEL_DIR gives way to the shipped model it would shadow (and
// `models` says it skipped it); a folder that does not exist is said; a model's texts reach the
// terminal without escape sequences.
TEST_F(Cli, TheModelFolderOfTheEnvironmentIsCheckedAndItsTextsArePrintable) {
  const std::string folder = testing::temporary_folder();
  write_bytes(folder, "additive.attnmodel", "broken");
  write_bytes(folder, "dot.attnmodel",
              testing::with_header(testing::random_model_file("dot"), [](auto& h) {
                h["config"]["source_language"] = "e\x1b]0;owned\x07n\n";
              }));
  RunOptions in_folder;
  in_folder.environment = {{"ATTNSCOPE_MODEL_DIR", folder}};
  const Outcome translated = run_cli({"translate", "--threads", "1", "a dog"}, in_folder);
  expect_success(translated);  // the shipped additive model
  const Outcome listed = run_cli({"models"}, in_folder);
  expect_success(listed);
  EXPECT_NE(listed.err.find("note: skipped model file '" + folder + "/additive.attnmodel'"),
            std::string::npos)
      << listed;
  EXPECT_NE(listed.out.find(folder + "/dot.attnmodel"), std::string::npos) << listed;
  EXPECT_EQ(listed.out.find('\x1b'), std::string::npos) << "an escape sequence reached stdout";
  EXPECT_EQ(listed.out.find('\x07'), std::string::npos);

  RunOptions missing;
  missing.environment = {{"ATTNSCOPE_MODEL_DIR", folder + "/no-such-folder"}};
  const Outcome noted = run_cli({"models"}, missing);
  expect_success(noted);
  EXPECT_NE(noted.err.find("ATTNSCOPE_MODEL_DIR '" + folder + "/no-such-folder' does not exist"),
            std::string::npos)
      << noted;
}

// ---------------------------------------------------------------------------------------------
// Training corpora

class CliTrain : public Cli {
 protected:
  void SetUp() override {
    folder_ = testing::temporary_folder();
    train_ = testing::write_task_corpus(folder_, "train", testing::Task::kCopy, 200, 1);
    valid_ = testing::write_task_corpus(folder_, "valid", testing::Task::kCopy, 20, 2);
  }
  // `extra` options replace the defaults of the same name (CLI11 refuses an option twice).
  std::vector<std::string> train_args(const std::string& src, const std::string& tgt,
                                      const std::string& out,
                                      const std::vector<std::string>& extra = {}) const {
    std::vector<std::pair<std::string, std::string>> options = {{"--src", src},
                                                                {"--tgt", tgt},
                                                                {"--val-src", valid_ + ".src"},
                                                                {"--val-tgt", valid_ + ".tgt"},
                                                                {"--score", "additive"},
                                                                {"--emb", "8"},
                                                                {"--hidden", "8"},
                                                                {"--batch", "16"},
                                                                {"--epochs", "1"},
                                                                {"--min-freq", "1"},
                                                                {"--threads", "1"},
                                                                {"--out", out}};
    std::vector<std::string> args = {"train"};
    for (size_t i = 0; i < extra.size(); i += 2) {
      auto same = [&](const auto& o) { return o.first == extra[i]; };
      options.erase(std::remove_if(options.begin(), options.end(), same), options.end());
      args.push_back(extra[i]);
      if (i + 1 < extra.size() && extra[i + 1] != "") args.push_back(extra[i + 1]);
    }
    for (const auto& [name, value] : options) {
      args.push_back(name);
      args.push_back(value);
    }
    return args;
  }
  std::string folder_, train_, valid_;
};

TEST_F(CliTrain, EachCorpusTrainsOrGivesOneLineNamingTheFile) {
  const std::string text = read_bytes(train_ + ".src");
  const std::string gz = gzip(text);
  std::string empty_lines;
  for (size_t i = 0; i < 200; ++i) empty_lines += "\n";
  struct Case {
    const char* name;
    std::string source;  // bytes of the source file; the target is the normal one
    std::string error;   // "" when training must succeed
  };
  std::string crlf_bom = "\xEF\xBB\xBF";
  for (char c : text) crlf_bom += c == '\n' ? std::string("\r\n") : std::string(1, c);
  std::string some_empty = text;
  some_empty.replace(0, some_empty.find('\n'), "");  // the first line blank
  std::string latin1 = text;
  latin1.insert(latin1.find('\n', 100),
                " stra\xDF"
                "e");
  const std::vector<Case> cases = {
      {"CRLF and BOM", crlf_bom, ""},
      {"a few empty lines", some_empty, ""},
      {"gzip", gz, ""},
      {"unequal line counts", text.substr(0, text.rfind('\n', text.size() - 2) + 1),
       "has 199 lines but"},
      {"only empty lines", empty_lines, "no usable sentence pair"},
      {"non-UTF-8 bytes", latin1, "is not UTF-8 (byte 0xDF"},
      {"truncated gzip", gz.substr(0, gz.size() / 2), "truncated gzip"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string src = write_bytes(folder_, "case.src", c.source);
    const std::string out = folder_ + "/case.attnmodel";
    fs::remove(out);
    fs::remove(out + ".state");
    const Outcome r = run_cli(train_args(src, train_ + ".tgt", out));
    if (c.error.empty()) {
      expect_success(r);
      EXPECT_TRUE(fs::exists(out));
    } else {
      expect_clean_error(r, {"'" + src + "'", c.error});
      EXPECT_FALSE(fs::exists(out));
    }
  }
  expect_clean_error(
      run_cli(train_args(folder_ + "/missing.src", train_ + ".tgt", folder_ + "/m.attnmodel")),
      {"missing.src' does not exist"});
  expect_clean_error(run_cli(train_args(folder_, train_ + ".tgt", folder_ + "/m.attnmodel")),
                     {"'" + folder_ + "' is a directory"});
}

// ---------------------------------------------------------------------------------------------
// Outputs

TEST_F(CliTrain, BadOutputsAreFoundBeforeTrainingStarts) {
  const std::string fifo = folder_ + "/fifo.attnmodel";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  struct Case {
    std::string out;
    std::string error;
  };
  std::vector<Case> cases = {
      {folder_ + "/no/such/folder/m.attnmodel",
       "output folder '" + folder_ + "/no/such/folder' does not exist"},
      {folder_, "is a directory"},
      {fifo, "exists and is not a regular file"},
      {"", "--out: the output path is empty"},
  };
  if (::geteuid() != 0) {
    const std::string locked = folder_ + "/locked";
    fs::create_directory(locked);
    ::chmod(locked.c_str(), 0555);
    cases.push_back({locked + "/m.attnmodel", "cannot write to output folder"});
  } else {
    cases.push_back({"/proc/m.attnmodel", "cannot write to output folder '/proc'"});
  }
  for (const auto& c : cases) {
    SCOPED_TRACE(c.out);
    const Outcome r = run_cli(train_args(train_ + ".src", train_ + ".tgt", c.out));
    expect_clean_error(r, {c.error});
    EXPECT_EQ(r.err.find("epoch"), std::string::npos) << "training started: " << r;
  }
  EXPECT_TRUE(fs::is_fifo(fifo));
}

TEST_F(CliTrain, AFullDiskFailsCleanlyAndLeavesNoHalfFile) {
  const std::string out = folder_ + "/full.attnmodel";
  RunOptions full;
  full.file_size_limit = 2048;  // the model file's header alone is larger
  const Outcome r = run_cli(train_args(train_ + ".src", train_ + ".tgt", out), full);
  expect_clean_error(r, {"'" + out + "'", "File too large"});
  EXPECT_FALSE(fs::exists(out));
  for (const auto& entry : fs::directory_iterator(folder_))
    EXPECT_EQ(entry.path().string().find(".tmp."), std::string::npos) << entry.path();
}

// A CLI built without the UI (-DATTNSCOPE_BUILD_UI=OFF) keeps the export command, and says why
// it cannot render.
TEST_F(Cli, ExportWithoutTheUiSaysWhatItNeeds) {
  if (ATTNSCOPE_CLI_HAS_UI) GTEST_SKIP() << "this attnscope-cli was built with the UI";
  const std::string out = testing::temporary_folder() + "/x.png";
  expect_clean_error(run_cli({"export", "--model", model(), "--out", out, "--threads", "1", "a b"}),
                     {"export needs the desktop build"});
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(Cli, BadExportPathsGiveOneLine) {
  if (!ATTNSCOPE_CLI_HAS_UI) GTEST_SKIP() << "export needs the UI build";
  const std::string folder = testing::temporary_folder();
  const std::string fifo = folder + "/fifo.png";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  fs::create_directory(folder + "/dir.png");
  struct Case {
    std::string out;
    std::string error;
  };
  std::vector<Case> cases = {
      {folder + "/missing/x.png", "does not exist"},  {folder + "/x.docx", "unknown file type"},
      {folder + "/noextension", "unknown file type"}, {fifo, "not a regular file"},
      {folder + "/dir.png", "is a directory"},
  };
  if (::geteuid() != 0) {
    const std::string locked = folder + "/locked";
    fs::create_directory(locked);
    ::chmod(locked.c_str(), 0555);
    cases.push_back({locked + "/x.png", "Permission denied"});
  } else {
    cases.push_back({"/proc/x.csv", "cannot export"});
  }
  for (const auto& c : cases) {
    SCOPED_TRACE(c.out);
    expect_clean_error(
        run_cli({"export", "--model", model(), "--out", c.out, "--threads", "1", "a b"}),
        {"'" + c.out + "'", c.error});
  }
  EXPECT_TRUE(fs::is_fifo(fifo));
  const std::string good = folder + "/good.csv";
  expect_success(run_cli({"export", "--model", model(), "--out", good, "--threads", "1", "a b"}));
  EXPECT_GT(fs::file_size(good), 0u);
}

TEST_F(Cli, ExportToAFullDiskFailsAndLeavesNoHalfFile) {
  if (!ATTNSCOPE_CLI_HAS_UI) GTEST_SKIP() << "export needs the UI build";
  const std::string folder = testing::temporary_folder();
  // A picture is written in one go (over Qt's 16 KB buffer); a small CSV goes through the
  // buffer and is flushed by QSaveFile::commit().
  for (const auto& [name, limit] :
       {std::pair<std::string, rlim_t>{"full.png", 2048}, {"full.csv", 64}}) {
    SCOPED_TRACE(name);
    const std::string out = folder + "/" + name;
    RunOptions full;
    full.file_size_limit = limit;
    const Outcome r =
        run_cli({"export", "--model", model(), "--out", out, "--threads", "1", "a b c"}, full);
    expect_clean_error(r, {"cannot export to '" + out + "'"});
    EXPECT_FALSE(fs::exists(out));
    for (const auto& entry : fs::directory_iterator(folder))
      EXPECT_EQ(entry.path().filename().string().rfind(name, 0), std::string::npos) << entry.path();
  }
}

// ---------------------------------------------------------------------------------------------
// Faults during training

TEST_F(CliTrain, DivergenceIsReportedWithTheBatchAndTheOldModelSurvives) {
  const std::string out = folder_ + "/nan.attnmodel";
  write_bytes(folder_, "nan.attnmodel", "the previous model");
  const auto args =
      train_args(train_ + ".src", train_ + ".tgt", out, {"--lr", "1e30", "--max-batches", "3"});
  expect_clean_error(run_cli(args), {"training diverged: the loss is nan at epoch 1, batch 2"});
  EXPECT_EQ(read_bytes(out), "the previous model");
}

// kill -9 after the first epoch's state is written, then --resume: the same model as a run
// that was never interrupted (per-epoch seeds, Adam state and schedule in OUT.state).
TEST_F(CliTrain, KillDuringTrainingThenResumeEndsWithTheSameModel) {
  const std::string big = testing::write_task_corpus(folder_, "big", testing::Task::kCopy, 1500, 3);
  auto args_for = [&](const std::string& out) {
    return train_args(big + ".src", big + ".tgt", out,
                      {"--epochs", "4", "--emb", "16", "--hidden", "32", "--patience", "10",
                       "--seed", "7", "--lr", "3e-3"});
  };
  const std::string whole = folder_ + "/whole.attnmodel";
  const Outcome uninterrupted = run_cli(args_for(whole));
  expect_success(uninterrupted);

  const std::string resumed = folder_ + "/resumed.attnmodel";
  RunOptions crash;
  crash.kill_when = [&] { return fs::exists(resumed + ".state"); };
  const Outcome killed = run_cli(args_for(resumed), crash);
  ASSERT_EQ(killed.signal, SIGKILL) << "the run ended before it could be killed: " << killed;
  auto resume_args = args_for(resumed);
  resume_args.push_back("--resume");
  const Outcome second = run_cli(resume_args);
  expect_success(second);
  EXPECT_NE(second.err.find("resuming '" + resumed + ".state' after epoch"), std::string::npos)
      << second;
  EXPECT_EQ(second.err.find("after epoch 4"), std::string::npos)
      << "nothing was left to do: " << second;

  const Checkpoint a = load_checkpoint(whole), b = load_checkpoint(resumed);
  EXPECT_EQ(a.training.best_epoch, b.training.best_epoch);
  EXPECT_EQ(a.training.epochs, b.training.epochs);
  ASSERT_EQ(a.tensors.size(), b.tensors.size());
  for (size_t i = 0; i < a.tensors.size(); ++i) {
    EXPECT_EQ(a.tensors[i].first, b.tensors[i].first);
    EXPECT_TRUE(torch::equal(a.tensors[i].second, b.tensors[i].second)) << a.tensors[i].first;
  }
}

// --resume with flags that differ from the state's: refused, every difference named, and the
// state left as it was.
TEST_F(CliTrain, ResumeWithOtherFlagsIsRefusedNamingEachDifference) {
  const std::string out = folder_ + "/model.attnmodel";
  expect_success(run_cli(train_args(train_ + ".src", train_ + ".tgt", out)));
  const std::string state = read_bytes(out + ".state");
  auto args =
      train_args(train_ + ".src", train_ + ".tgt", out,
                 {"--score", "dot", "--hidden", "16", "--decoder", "cgru", "--epochs", "2"});
  args.push_back("--resume");
  expect_clean_error(run_cli(args), {"--resume: cannot resume '" + out + ".state'",
                                     "score function: \"additive\" in the state, \"dot\" now",
                                     "hidden size: 8 in the state, 16 now",
                                     "decoder: \"gru\" in the state, \"cgru\" now"});
  EXPECT_EQ(read_bytes(out + ".state"), state);
}

TEST_F(CliTrain, EpochModelsAreKeptAndAverageIntoAModel) {
  const std::string out = folder_ + "/run.attnmodel";
  expect_success(run_cli(
      train_args(train_ + ".src", train_ + ".tgt", out, {"--epochs", "2", "--save-epochs", ""})));
  const std::string first = folder_ + "/run.epoch01.attnmodel",
                    second = folder_ + "/run.epoch02.attnmodel";
  ASSERT_TRUE(std::filesystem::exists(first));
  ASSERT_TRUE(std::filesystem::exists(second));
  const std::string mean = folder_ + "/mean.attnmodel";
  const Outcome averaged = run_cli({"average", "--out", mean, first, second});
  expect_success(averaged);
  EXPECT_NE(averaged.out.find("averaged 2 models into " + mean), std::string::npos) << averaged.out;
  expect_success(run_cli({"translate", "--model", mean, "--threads", "1", "a b c"}));
  expect_clean_error(run_cli({"average", "--out", folder_ + "/one.attnmodel", first}),
                     {"two or more model files"});
  expect_clean_error(run_cli({"average", "--out", folder_ + "/s.attnmodel", first, out + ".state"}),
                     {"'" + out + ".state' cannot be averaged", "training state"});
}

TEST_F(CliTrain, TheConditionalGruTrainsAndTranslatesAndAnUnknownDecoderIsRefused) {
  const std::string out = folder_ + "/cgru.attnmodel";
  expect_success(run_cli(train_args(train_ + ".src", train_ + ".tgt", out, {"--decoder", "cgru"})));
  EXPECT_EQ(load_checkpoint(out, /*header_only=*/true).config.decoder, kConditionalGruDecoder);
  const Outcome translated = run_cli({"translate", "--model", out, "--threads", "1", "a b c"});
  expect_success(translated);
  EXPECT_FALSE(translated.out.empty());
  const std::string refused = folder_ + "/lstm.attnmodel";
  expect_clean_error(
      run_cli(train_args(train_ + ".src", train_ + ".tgt", refused, {"--decoder", "lstm"})),
      {"--decoder", "unknown decoder 'lstm' (gru or cgru)"});
  EXPECT_FALSE(std::filesystem::exists(refused));
}

// --output-layer direct: the Python reference's linear output layer, stored in the model, and
// translated alike with stored and int8 output weights (the int8 context columns on AVX512-VNNI).
TEST_F(CliTrain, TheDirectOutputLayerTrainsAndTranslatesAndAnUnknownOneIsRefused) {
  const std::string out = folder_ + "/direct.attnmodel";
  expect_success(
      run_cli(train_args(train_ + ".src", train_ + ".tgt", out, {"--output-layer", "direct"})));
  EXPECT_FALSE(load_checkpoint(out, /*header_only=*/true).config.tied_readout);
  RunOptions piped;
  piped.input = "a b c\nd e\n";
  const Outcome stored =
      run_cli({"translate", "--model", out, "--threads", "1", "--batch", "1"}, piped);
  expect_success(stored);
  EXPECT_EQ(stored.out_lines().size(), 2u) << stored;
  const Outcome int8 =
      run_cli({"translate", "--model", out, "--threads", "1", "--output-weights", "int8"}, piped);
  expect_success(int8);
  EXPECT_EQ(int8.out, stored.out);
  const std::string refused = folder_ + "/bilinear.attnmodel";
  expect_clean_error(run_cli(train_args(train_ + ".src", train_ + ".tgt", refused,
                                        {"--output-layer", "bilinear"})),
                     {"--output-layer", "bilinear"});
  EXPECT_FALSE(std::filesystem::exists(refused));
}

// ---------------------------------------------------------------------------------------------
// The baseline without attention: usable everywhere, no attention figures anywhere

TEST(CliNoAttention, TranslatesAndEvaluatesWithoutAttentionAndAlignRefusesIt) {
  const std::string none = testing::random_model_file(kNoAttention);
  const Outcome json = run_cli({"translate", "--json", "--model", none, "--threads", "1", "a b c"});
  expect_success(json);
  const nlohmann::json line = nlohmann::json::parse(json.out);
  EXPECT_TRUE(line.at("attention").is_null());
  EXPECT_FALSE(line.at("tokens").empty());

  const std::string folder = testing::temporary_folder();
  const std::string src = write_bytes(folder, "src.txt", "a b c\nd e\n");
  const std::string ref = write_bytes(folder, "ref.txt", "a b c\nd e\n");
  const Outcome eval = run_cli({"eval", "--model", none, "--src", src, "--ref", ref, "--metrics",
                                "--json", "--threads", "1"});
  expect_success(eval);
  const nlohmann::json result = nlohmann::json::parse(eval.out).at("models").at(0);
  EXPECT_TRUE(result.at("metrics").is_null());
  EXPECT_TRUE(result.at("bleu").at("bleu").is_number());

  const Outcome align =
      run_cli({"align", "--model", none, "--src", src, "--tgt", ref, "--threads", "1"});
  expect_clean_error(align, {"has no attention"});
  EXPECT_TRUE(align.out.empty());
}

}  // namespace
}  // namespace attnscope
