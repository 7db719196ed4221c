#include "attnscope/thread_settings.h"

#include <torch/torch.h>

#include <algorithm>
#include <thread>

namespace attnscope {

void set_thread_count(int threads) {
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  torch::set_num_threads(threads > 0 ? threads : cores);
}

}  // namespace attnscope
