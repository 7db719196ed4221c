// The real attnscope-cli binary against hostile input: every case ends in bounded time with
// exit code 0 and the promised output, or a non-zero exit code and one line on stderr naming
// the input and the problem. Never a signal, a hang or a half-written file.
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

#include "engine/scripted_modules.h"
#include "engine/test_models.h"
#include "io/checkpoint.h"

#ifndef ATTNSCOPE_CLI
#error "ATTNSCOPE_CLI: the path of attnscope-cli, set by tests/CMakeLists.txt"
#endif

namespace attnscope {
namespace {

using testing::gzip;
using testing::read_bytes;
using testing::repeat_words;

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Sanitizer builds start and run several times slower.
const double kTimeScale = std::getenv("ATTNSCOPE_TEST_TIME_SCALE")
                              ? std::atof(std::getenv("ATTNSCOPE_TEST_TIME_SCALE"))
                              : 1.0;

struct Outcome {
  int exit_code = -1;  // -1 when killed by a signal
  int signal = 0;
  bool timed_out = false;
  double seconds = 0.0;
  std::string out, err;

  std::vector<std::string> err_lines() const { return lines(err); }
  std::vector<std::string> out_lines() const { return lines(out); }
  static std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> result;
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      result.push_back(text.substr(start, end - start));
      start = end + 1;
    }
    return result;
  }
};

std::ostream& operator<<(std::ostream& out, const Outcome& r) {
  return out << "exit " << r.exit_code << " signal " << r.signal
             << (r.timed_out ? " TIMED OUT" : "") << " after " << r.seconds
             << " s\nstdout: " << r.out.substr(0, 2000) << "\nstderr: " << r.err.substr(0, 2000);
}

struct RunOptions {
  std::string input;                // written to stdin, then closed
  std::string stdin_path;           // instead: stdin opened from this path
  std::string stdout_path;          // instead of capturing: stdout to this path (e.g. /dev/full)
  rlim_t file_size_limit = 0;       // > 0: RLIMIT_FSIZE with SIGXFSZ ignored (a full disk)
  double timeout = 120.0;           // seconds, before kTimeScale
  std::function<bool()> kill_when;  // polled; true: SIGKILL the child (a crash)
};

// fork + exec with pipes, no shell; the child is killed at the timeout.
Outcome run_cli(const std::vector<std::string>& args, const RunOptions& options = {}) {
  int in[2], out[2], err[2];
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0)
    throw std::runtime_error("pipe failed");
  std::vector<std::string> argv_strings = {ATTNSCOPE_CLI};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_strings) argv.push_back(a.data());
  argv.push_back(nullptr);
  const auto start = Clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (!options.stdin_path.empty()) {
      const int fd = ::open(options.stdin_path.c_str(), O_RDONLY);
      ::dup2(fd, 0);
    } else {
      ::dup2(in[0], 0);
    }
    if (!options.stdout_path.empty()) {
      const int fd = ::open(options.stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(fd, 1);
    } else {
      ::dup2(out[1], 1);
    }
    ::dup2(err[1], 2);
    ::signal(SIGPIPE, SIG_DFL);
    if (options.file_size_limit > 0) {
      ::signal(SIGXFSZ, SIG_IGN);  // kept across exec: writes fail with EFBIG, like ENOSPC
      rlimit limit{options.file_size_limit, options.file_size_limit};
      ::setrlimit(RLIMIT_FSIZE, &limit);
    }
    ::setenv("QT_QPA_PLATFORM", "offscreen", 1);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  Outcome run;
  size_t written = 0;
  int in_fd = in[1];
  if (options.input.empty()) ::close(in_fd), in_fd = -1;
  std::string* sinks[2] = {&run.out, &run.err};
  int fds[2] = {out[0], err[0]};
  const double timeout = options.timeout * kTimeScale;
  while (fds[0] >= 0 || fds[1] >= 0 || in_fd >= 0) {
    pollfd p[3];
    int n = 0;
    for (int i = 0; i < 2; ++i)
      if (fds[i] >= 0) p[n++] = {fds[i], POLLIN, 0};
    if (in_fd >= 0) p[n++] = {in_fd, POLLOUT, 0};
    ::poll(p, static_cast<nfds_t>(n), 20);
    for (int k = 0; k < n; ++k) {
      if (p[k].revents == 0) continue;
      if (p[k].fd == in_fd) {
        ::signal(SIGPIPE, SIG_IGN);
        const ssize_t w = ::write(in_fd, options.input.data() + written,
                                  std::min<size_t>(65536, options.input.size() - written));
        if (w > 0) written += static_cast<size_t>(w);
        if (w < 0 || written == options.input.size()) ::close(in_fd), in_fd = -1;
        continue;
      }
      char buffer[65536];
      const ssize_t r = ::read(p[k].fd, buffer, sizeof buffer);
      const int i = p[k].fd == fds[0] ? 0 : 1;
      if (r > 0) {
        sinks[i]->append(buffer, static_cast<size_t>(r));
      } else {
        ::close(fds[i]);
        fds[i] = -1;
      }
    }
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    if (elapsed > timeout || (options.kill_when && options.kill_when())) {
      run.timed_out = elapsed > timeout;
      ::kill(pid, SIGKILL);
      break;
    }
  }
  for (int fd : {fds[0], fds[1], in_fd})
    if (fd >= 0) ::close(fd);
  int status = 0;
  ::waitpid(pid, &status, 0);
  run.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (WIFEXITED(status)) run.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) run.signal = WTERMSIG(status);
  return run;
}

std::string write_bytes(const std::string& folder, const std::string& name,
                        const std::string& bytes) {
  const std::string path = folder + "/" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

// A failed run: non-zero exit, no signal, in time, and one line "attnscope-cli: error: ..."
// last on stderr that holds every part of `parts` (the input's name and the problem). Training
// logs its progress before it.
void expect_clean_error(const Outcome& r, const std::vector<std::string>& parts) {
  EXPECT_FALSE(r.timed_out) << r;
  EXPECT_EQ(r.signal, 0) << r;
  EXPECT_GT(r.exit_code, 0) << r;
  const auto lines = r.err_lines();
  ASSERT_FALSE(lines.empty()) << r;
  const std::string prefix = "attnscope-cli: error: ";
  EXPECT_EQ(std::count_if(lines.begin(), lines.end(),
                          [&](const std::string& l) { return l.rfind(prefix, 0) == 0; }),
            1)
      << r;
  EXPECT_EQ(lines.back().rfind(prefix, 0), 0u) << r;
  for (const auto& line : lines)
    if (line.rfind(prefix, 0) != 0)
      EXPECT_TRUE(line.rfind("epoch ", 0) == 0 || line.rfind("note: ", 0) == 0)
          << "stray line: " << r;
  for (const auto& part : parts)
    EXPECT_NE(lines.back().find(part), std::string::npos) << part << "\n" << r;
}

void expect_success(const Outcome& r) {
  EXPECT_FALSE(r.timed_out) << r;
  EXPECT_EQ(r.signal, 0) << r;
  EXPECT_EQ(r.exit_code, 0) << r;
}

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

// TorchScript models (docs/model-protocol.md) through every command that takes --model.
TEST(CliScriptedModel, TranslateEvalAndExport) {
  using testing::write_scripted_module;
  const std::string copy = write_scripted_module({}, "cli_copy");
  const std::string heads = write_scripted_module({2, 4}, "cli_heads");

  const Outcome plain = run_cli({"translate", "--model", copy, "--threads", "1", "a b c", "d"});
  expect_success(plain);
  EXPECT_EQ(plain.out_lines(), (std::vector<std::string>{"a b c", "d"}));
  const Outcome beam = run_cli({"translate", "--model", copy, "--beam", "5", "e c"});
  expect_success(beam);
  EXPECT_EQ(beam.out_lines(), (std::vector<std::string>{"e c"}));

  const Outcome json = run_cli({"translate", "--model", heads, "--json", "a b"});
  expect_success(json);
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["tokens"], (std::vector<std::string>{"a", "b", "</s>"}));
  EXPECT_EQ(j["layers"], 2);
  EXPECT_EQ(j["heads"], 4);
  ASSERT_EQ(j["head_attention"].size(), 3u);  // steps
  EXPECT_EQ(j["head_attention"][0].size(), 2u);
  EXPECT_EQ(j["head_attention"][0][1].size(), 4u);
  EXPECT_EQ(j["head_attention"][0][1][3].size(), 3u);  // source tokens

  const std::string folder = testing::temporary_folder();
  const std::string src = folder + "/scripted.src";
  std::ofstream(src) << "a b c d e\nb c d e a\n";  // 4-grams, so BLEU is defined
  const Outcome eval = run_cli({"eval", "--model", copy, "--src", src, "--ref", src});
  expect_success(eval);
  EXPECT_NE(eval.out.find("BLEU = 100.00"), std::string::npos) << eval;
  EXPECT_NE(eval.out.find("cli_copy"), std::string::npos) << eval;

  if (ATTNSCOPE_CLI_HAS_UI) {
    const std::string csv = folder + "/heads.csv";
    expect_success(run_cli({"export", "--model", heads, "--head", "all", "--out", csv, "a b"}));
    EXPECT_NE(testing::read_bytes(csv).find("layer 2 · head 4"), std::string::npos);
    expect_clean_error(run_cli({"export", "--model", heads, "--layer", "3", "--out", csv, "a b"}),
                       {"--layer 3: model 'cli_heads' has 2 layers"});
    expect_clean_error(run_cli({"export", "--model", copy, "--head", "2", "--out", csv, "a b"}),
                       {"has one attention matrix"});
  }
}

TEST(CliScriptedModel, BrokenModulesGiveOneLine) {
  testing::ScriptedModuleSpec broken;
  broken.break_step = "        attention = attention[:-1]\n";
  const std::string path = testing::write_scripted_module(broken, "cli_broken");
  expect_clean_error(run_cli({"translate", "--model", path, "a b"}),
                     {"model '" + path + "': step() returned attention of shape [1]"});
  const std::string junk = testing::temporary_folder() + "/junk.pt";
  std::ofstream(junk, std::ios::binary) << "PK\x03\x04 and then nothing";
  expect_clean_error(run_cli({"translate", "--model", junk, "a b"}),
                     {"model '" + junk + "': is not a TorchScript module"});
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
  auto args = train_args(train_ + ".src", train_ + ".tgt", out,
                         {"--score", "dot", "--hidden", "16", "--epochs", "2"});
  args.push_back("--resume");
  expect_clean_error(run_cli(args), {"--resume: cannot resume '" + out + ".state'",
                                     "score function: \"additive\" in the state, \"dot\" now",
                                     "hidden size: 8 in the state, 16 now"});
  EXPECT_EQ(read_bytes(out + ".state"), state);
}

}  // namespace
}  // namespace attnscope
