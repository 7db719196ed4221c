#include "cli/local_processes.h"

#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
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

// The ranks, for the signal handler: Ctrl+C in a terminal reaches them anyway (one process
// group), but a SIGTERM sent to this process alone must not leave them training.
std::vector<pid_t>* ranks_to_signal = nullptr;

void forward_signal(int signal_number) {
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
  struct sigaction forward {
  }, previous_int{}, previous_term{};
  forward.sa_handler = forward_signal;
  sigemptyset(&forward.sa_mask);
  ranks_to_signal = &pids;
  sigaction(SIGINT, &forward, &previous_int);
  sigaction(SIGTERM, &forward, &previous_term);
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
  // Waits for every rank started, even after one failed: the others end within their timeout.
  int failed = 0;
  for (size_t rank = 0; rank < pids.size(); ++rank) {
    int status = 0;
    while (waitpid(pids[rank], &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFSIGNALED(status)) {
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
  return failed;
}

}  // namespace attnscope::cli
