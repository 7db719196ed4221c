#pragma once

namespace attnscope {

/// Uses `threads` CPU threads for torch (0 = every core). Debian's libtorch starts with one.
void set_thread_count(int threads);

}  // namespace attnscope
