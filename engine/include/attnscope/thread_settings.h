#pragma once
// Torch's CPU threads are a setting of each thread, not of the process: with OpenMP (Debian's
// libtorch) a thread's parallel regions use the count that thread set. So every worker (a
// decoding thread, a training run) sets its own count on its own thread, and no worker's
// setting changes another's.

namespace attnscope {

/// The calling thread uses `threads` torch threads from now on (0 = every core); other threads
/// keep theirs. It also becomes the count of threads that have not used torch yet (torch's
/// default; Debian's libtorch starts them with half the cores).
void set_thread_count(int threads);

/// The calling thread's torch thread count.
int thread_count();

/// `threads`, or every core for 0.
int resolve_thread_count(int threads);

/// Keeps large freed memory blocks in the process for the next allocation. glibc's malloc
/// otherwise gives every block above its mmap threshold back to the system when freed and
/// page-faults a fresh one in on the next allocation; attribution's batches allocate tens of MB
/// a step, and a third of their time went to those faults. Call once at start-up.
void keep_large_blocks_for_reuse();

/// Sets the calling thread's torch thread count for the life of this object (0 = every core)
/// and puts the earlier count back: for a run on a thread it does not own.
class ScopedThreadCount {
 public:
  explicit ScopedThreadCount(int threads);
  ~ScopedThreadCount();
  ScopedThreadCount(const ScopedThreadCount&) = delete;
  ScopedThreadCount& operator=(const ScopedThreadCount&) = delete;

 private:
  int previous_;
};

}  // namespace attnscope
