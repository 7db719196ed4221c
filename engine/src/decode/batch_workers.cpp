#include "decode/batch_workers.h"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "attnscope/thread_settings.h"

namespace attnscope {

bool run_jobs(size_t jobs, int threads, const std::function<void(size_t)>& job,
              const std::function<bool(size_t)>& done) {
  threads = std::max(1, threads);
  const size_t workers = std::min(jobs, static_cast<size_t>(threads));
  if (workers <= 1) {
    for (size_t i = 0; i < jobs; ++i) {
      job(i);
      if (!done(i)) return false;
    }
    return true;
  }
  std::mutex mutex;
  std::condition_variable changed;
  size_t next = 0;            // the next job to start
  std::vector<size_t> ended;  // jobs whose done() has not run yet
  size_t running = workers;   // workers that have not returned
  bool stop = false;
  std::exception_ptr failure;
  // Torch threads shared out: with 3 threads and 2 workers, one worker gets 2.
  auto work = [&](int torch_threads) {
    set_thread_count(torch_threads);
    for (;;) {
      size_t i;
      {
        std::lock_guard<std::mutex> lock(mutex);
        if (stop || next == jobs) break;
        i = next++;
      }
      try {
        job(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex);
        if (!failure) failure = std::current_exception();
        stop = true;
        break;
      }
      std::lock_guard<std::mutex> lock(mutex);
      ended.push_back(i);
      changed.notify_one();
    }
    std::lock_guard<std::mutex> lock(mutex);
    --running;
    changed.notify_one();
  };
  std::vector<std::thread> pool;
  const int share = threads / static_cast<int>(workers);
  const int extra = threads % static_cast<int>(workers);
  for (size_t w = 0; w < workers; ++w)
    pool.emplace_back(work, share + (static_cast<int>(w) < extra ? 1 : 0));
  bool completed = true;
  {
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      changed.wait(lock, [&] { return !ended.empty() || running == 0; });
      if (ended.empty()) break;  // every worker returned and every done() ran
      const std::vector<size_t> report = std::move(ended);
      ended.clear();
      if (!completed) continue;  // stopped: the rest only waits for the workers
      lock.unlock();
      // done() outside the lock: it may take its time (a GUI's progress), the workers go on.
      // Should it throw, the workers are stopped and joined before its error goes on.
      bool go_on = true;
      std::exception_ptr done_failure;
      try {
        for (size_t i : report)
          if (go_on && !done(i)) go_on = false;
      } catch (...) {
        done_failure = std::current_exception();
        go_on = false;
      }
      lock.lock();
      if (done_failure && !failure) failure = done_failure;
      if (!go_on) {
        stop = true;
        completed = false;
      }
    }
  }
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
  return completed;  // without a failure, only a done() saying stop ends a run early
}

}  // namespace attnscope
