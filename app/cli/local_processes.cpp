#include "cli/local_processes.h"

#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <stdexcept>
#include <vector>

extern char** environ;

namespace attnscope::cli {
namespace {

// Set in the ranks' environment: the starter's process id.
constexpr const char* kStarterVariable = "ATTNSCOPE_LOCAL_PROCESSES_STARTER";

// The ranks, for the signal handler: Ctrl+C in a terminal reaches them anyway (one process
// group), but a SIGTERM sent to this process alone must not leave them training.
std::vector<pid_t>* ranks_to_signal = nullptr;
volatile sig_atomic_t interrupted = 0;

void forward_signal(int signal_number) {
  interrupted = 1;
  if (ranks_to_signal)
    for (pid_t pid : *ranks_to_signal) kill(pid, signal_number);
}

std::vector<std::string> own_command_line() {
  std::ifstream file("/proc/self/cmdline", std::ios::binary);
  const std::string bytes{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  std::vector<std::string> arguments;
  for (size_t start = 0; start < bytes.size();) {
    const size_t end = bytes.find('\0', start);
    arguments.push_back(bytes.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  if (arguments.empty()) throw std::runtime_error("cannot read this process's command line");
  return arguments;
}

// A port no program listens on now. Another could take it before rank 0 does; rank 0 then says
// the port is in use, and --master PORT picks one by hand.
int free_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  const bool ok = fd >= 0 && bind(fd, reinterpret_cast<sockaddr*>(&address), length) == 0 &&
                  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0;
  if (fd >= 0) close(fd);
  if (!ok)
    throw std::runtime_error(std::string("--local-processes: no free port on 127.0.0.1: ") +
                             std::strerror(errno));
  return ntohs(address.sin_port);
}

}  // namespace

int run_local_processes(int count, const std::string& master, int threads_per_rank) {
  std::vector<std::string> base;
  bool threads_given = false;
  const std::vector<std::string> own = own_command_line();
  for (size_t i = 0; i < own.size(); ++i) {
    const std::string& argument = own[i];
    if (argument == "--local-processes" || argument == "--master") {
      ++i;  // and its value
      continue;
    }
    if (argument.rfind("--local-processes=", 0) == 0 || argument.rfind("--master=", 0) == 0)
      continue;
    if (argument == "--threads" || argument.rfind("--threads=", 0) == 0) threads_given = true;
    base.push_back(argument);
  }
  const std::string address = master.empty() ? "127.0.0.1:" + std::to_string(free_port()) : master;
  std::vector<pid_t> pids;
  pids.reserve(static_cast<size_t>(count));  // the signal handler reads it: never reallocated
  struct sigaction forward = {};
  struct sigaction previous_int = {};
  struct sigaction previous_term = {};
  forward.sa_handler = forward_signal;
  sigemptyset(&forward.sa_mask);
  ranks_to_signal = &pids;
  sigaction(SIGINT, &forward, &previous_int);
  sigaction(SIGTERM, &forward, &previous_term);
  // The ranks end with this process even when it is killed outright (local_rank_guard()).
  setenv(kStarterVariable, std::to_string(getpid()).c_str(), 1);
  int spawn_error = 0;
  for (int rank = 0; rank < count && spawn_error == 0; ++rank) {
    std::vector<std::string> arguments = base;
    for (const std::string& extra :
         {std::string("--world-size"), std::to_string(count), std::string("--rank"),
          std::to_string(rank), std::string("--master"), address})
      arguments.push_back(extra);
    if (!threads_given) {
      arguments.push_back("--threads");
      arguments.push_back(std::to_string(threads_per_rank));
    }
    std::vector<char*> argv;
    for (auto& argument : arguments) argv.push_back(argument.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    spawn_error = posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, argv.data(), environ);
    if (spawn_error == 0) pids.push_back(pid);
  }
  unsetenv(kStarterVariable);
  // A rank that could not start: the others would only wait for it until their timeout.
  if (spawn_error != 0)
    for (pid_t pid : pids) kill(pid, SIGTERM);
  // Waits for every rank started, even after one failed: the others end within their timeout.
  int failed = 0;
  for (size_t rank = 0; rank < pids.size(); ++rank) {
    int status = 0;
    pid_t waited = 0;
    while ((waited = waitpid(pids[rank], &status, 0)) < 0 && errno == EINTR) {
    }
    if (waited < 0) {
      failed = 1;
    } else if (interrupted || spawn_error != 0) {
      failed = 1;  // the ranks were stopped on purpose: no message per rank
    } else if (WIFSIGNALED(status)) {
      std::cerr << "attnscope-cli: error: rank " << rank << " was ended by signal "
                << WTERMSIG(status) << " (" << strsignal(WTERMSIG(status)) << ")\n";
      failed = 1;
    } else if (WEXITSTATUS(status) != 0) {
      failed = 1;
    }
  }
  sigaction(SIGINT, &previous_int, nullptr);
  sigaction(SIGTERM, &previous_term, nullptr);
  ranks_to_signal = nullptr;
  if (spawn_error != 0) {
    std::cerr << "attnscope-cli: error: --local-processes: cannot start rank " << pids.size()
              << ": " << std::strerror(spawn_error) << '\n';
    return 1;
  }
  return interrupted ? 130 : failed;
}

void local_rank_guard() {
  const char* starter = std::getenv(kStarterVariable);
  if (!starter) return;
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  // The starter may have ended before prctl: then this rank ends now.
  if (std::to_string(getppid()) != starter) raise(SIGTERM);
}

}  // namespace attnscope::cli
