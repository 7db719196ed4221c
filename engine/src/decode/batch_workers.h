#pragma once
// Independent decoding jobs (batches of a corpus) spread over threads. A batch of short
// sentences is hundreds of small torch operations a step, too small to split among threads:
// with two torch threads on one batch half the time went to OpenMP's waiting (issue 32). Two
// workers, each decoding its own batch on one thread, keep both cores busy instead.
#include <cstddef>
#include <functional>

namespace attnscope {

/// Runs job(i) for every i in [0, jobs), taken in order of i by up to `threads` worker threads
/// (fewer when there are fewer jobs), which share the `threads` torch threads among them. After
/// each job, done(i) runs on the calling thread, one call at a time; returning false stops the
/// run: the jobs not started are skipped and run_jobs returns false once every worker stopped.
/// The first exception a job (or done) throws ends the run the same way and is rethrown here. With
/// one thread or one job everything runs on the calling thread.
bool run_jobs(size_t jobs, int threads, const std::function<void(size_t)>& job,
              const std::function<bool(size_t)>& done);

}  // namespace attnscope
