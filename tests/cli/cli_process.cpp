#include "cli/cli_process.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>

#include "time_scale.h"

#ifndef ATTNSCOPE_CLI
#error "ATTNSCOPE_CLI: the path of attnscope-cli, set by tests/CMakeLists.txt"
#endif

namespace attnscope::cli_test {

using Clock = std::chrono::steady_clock;

// Sanitizer builds start and run several times slower.
const double kTimeScale = testing::time_scale();

std::ostream& operator<<(std::ostream& out, const Outcome& r) {
  return out << "exit " << r.exit_code << " signal " << r.signal
             << (r.timed_out ? " TIMED OUT" : "") << " after " << r.seconds
             << " s\nstdout: " << r.out.substr(0, 2000) << "\nstderr: " << r.err.substr(0, 2000);
}

// fork + exec with pipes, no shell; the child is killed at the timeout.
Outcome run_cli(const std::vector<std::string>& args, const RunOptions& options) {
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
    for (const auto& [name, value] : options.environment) ::setenv(name.c_str(), value.c_str(), 1);
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
  bool stopped = false;
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
    if (options.stop_when && !stopped && options.stop_when()) {
      ::kill(pid, SIGSTOP);
      stopped = true;
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

}  // namespace attnscope::cli_test
