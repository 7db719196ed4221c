#pragma once
// Keeps large freed blocks in the process instead of handing them back to the kernel, while a
// training run lasts.
//
// Why: every training batch allocates and frees the same large tensors (the output layer's
// 32 MB weight gradient and 13 MB logits per worker, among others). glibc serves blocks above
// its mmap threshold with fresh mappings, so each batch paid ~10,000 page faults and the
// kernel's zeroing of every page again (7% of a batch's time was in the kernel).
//
// The thresholds are the process's: in the app, a run must not leave the Translation and Corpus
// tabs holding up to a gigabyte of freed memory, so they are put back when the last run ends.

namespace attnscope {

/// While an AllocatorTuning lives (any number at once, on any threads), glibc's mmap and trim
/// thresholds are raised; when the last one goes, glibc's defaults are put back and the freed
/// memory returned. No effect on other C libraries.
class AllocatorTuning {
 public:
  AllocatorTuning();
  ~AllocatorTuning();
  AllocatorTuning(const AllocatorTuning&) = delete;
  AllocatorTuning& operator=(const AllocatorTuning&) = delete;

  /// Whether any AllocatorTuning lives now (glibc's thresholds are raised).
  static bool active();
};

}  // namespace attnscope
