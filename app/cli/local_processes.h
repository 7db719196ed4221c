#pragma once
// `train --local-processes N`: this command line run again as N ranks on this machine, with the
// flags that make them one group, and waited for.
#include <string>

namespace attnscope::cli {

/// Starts ranks 0 .. count-1 of this process's own command line (read from /proc/self/cmdline,
/// --local-processes taken out), each with --world-size, --rank and --master 127.0.0.1:PORT
/// (`master` if given, else a free port), and --threads `threads_per_rank` unless the command
/// line gives --threads. Returns 0 when every rank succeeded, else 1 (130 when interrupted); the
/// ranks print their own errors, and a rank ended by a signal is named here.
int run_local_processes(int count, const std::string& master, int threads_per_rank);

/// In a rank started by run_local_processes: makes it end (SIGTERM) when its starter does, even
/// when the starter is killed outright. Elsewhere it does nothing.
void local_rank_guard();

}  // namespace attnscope::cli
