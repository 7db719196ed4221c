#pragma once
// Keeps large freed blocks in the process instead of handing them back to the kernel.
//
// Why: every training batch allocates and frees the same large tensors (the output layer's
// 32 MB weight gradient and 13 MB logits per worker, among others). glibc serves blocks above
// its mmap threshold with fresh mappings, so each batch paid ~10,000 page faults and the
// kernel's zeroing of every page again (7% of a batch's time was in the kernel).

namespace attnscope {

/// Raises glibc's mmap and trim thresholds (once per process; no effect on other C libraries).
void keep_freed_memory_for_reuse();

}  // namespace attnscope
