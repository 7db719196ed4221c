#include "attnscope/thread_settings.h"

#include <malloc.h>
#include <torch/torch.h>

#include <algorithm>
#include <thread>

namespace attnscope {

int resolve_thread_count(int threads) {
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return threads > 0 ? threads : cores;
}

void keep_large_blocks_for_reuse() {
  // 32 MB is the largest threshold glibc accepts; the trim threshold keeps up to 1 GB of freed
  // memory at the top of the heap instead of returning it at once.
  mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
  mallopt(M_TRIM_THRESHOLD, 1024 * 1024 * 1024);
}

int thread_count() { return torch::get_num_threads(); }

void set_thread_count(int threads) {
  const int wanted = resolve_thread_count(threads);
  // get_num_threads() first: a thread's first use of torch copies torch's default into its own
  // setting, which would otherwise overwrite a count set before it. Only a change is applied:
  // set_num_threads also resizes torch's one process-wide pthreadpool (unused by these models),
  // and workers that alternated would rebuild it every time.
  if (torch::get_num_threads() != wanted) torch::set_num_threads(wanted);
}

ScopedThreadCount::ScopedThreadCount(int threads) : previous_(thread_count()) {
  set_thread_count(threads);
}

ScopedThreadCount::~ScopedThreadCount() { set_thread_count(previous_); }

}  // namespace attnscope
