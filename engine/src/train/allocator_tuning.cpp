#include "train/allocator_tuning.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace attnscope {

void keep_freed_memory_for_reuse() {
#if defined(__GLIBC__)
  // 32 MiB is glibc's largest mmap threshold (and just above the 7882 × 1024 floats of the
  // reference shape's output gradient); a trim threshold of 1 GiB keeps freed tops of the
  // heaps for the next batch.
  static const bool done = [] {
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    return true;
  }();
  (void)done;
#endif
}

}  // namespace attnscope
