#pragma once
// Runs the real attnscope-cli as a child process (fork + exec, no shell) with a timeout, and
// checks its outcome the way every CLI test does: a clean success, or one error line naming the
// input and the problem.
#include <sys/resource.h>

#include <functional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace attnscope::cli_test {

/// Sanitizer builds start and run several times slower (ATTNSCOPE_TEST_TIME_SCALE).
extern const double kTimeScale;

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

std::ostream& operator<<(std::ostream& out, const Outcome& r);

struct RunOptions {
  std::string input;                // written to stdin, then closed
  std::string stdin_path;           // instead: stdin opened from this path
  std::string stdout_path;          // instead of capturing: stdout to this path (e.g. /dev/full)
  rlim_t file_size_limit = 0;       // > 0: RLIMIT_FSIZE with SIGXFSZ ignored (a full disk)
  double timeout = 120.0;           // seconds, before kTimeScale
  std::function<bool()> kill_when;  // polled; true: SIGKILL the child (a crash)
  std::function<bool()> stop_when;  // polled; true: SIGSTOP the child once (a hang)
  std::vector<std::pair<std::string, std::string>> environment;  // set in the child
};

Outcome run_cli(const std::vector<std::string>& args, const RunOptions& options = {});

/// Writes `bytes` to folder/name and returns the path.
std::string write_bytes(const std::string& folder, const std::string& name,
                        const std::string& bytes);

/// A failed run: non-zero exit, no signal, in time, and one line "attnscope-cli: error: ..."
/// last on stderr that holds every part of `parts` (the input's name and the problem).
void expect_clean_error(const Outcome& r, const std::vector<std::string>& parts);
void expect_success(const Outcome& r);

}  // namespace attnscope::cli_test
