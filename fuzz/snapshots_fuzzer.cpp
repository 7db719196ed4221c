// libFuzzer target: the training snapshots reader takes any bytes and either returns snapshots
// that keep their contract (attention empty, or one row per output token, each as long as the
// source, weights in [0, 1]; a finite loss) or throws std::runtime_error with one line of UTF-8;
// never a crash, a hang or an absurd allocation.
//
// read_snapshots() takes a path: the input is written to an in-memory file (memfd) and read
// through /proc/self/fd, so no disk is touched.
#include <attnscope/text.h>
#include <attnscope/training_snapshots.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace {

using namespace attnscope;

void check(const std::vector<TrainingSnapshot>& snapshots) {
  if (snapshots.empty()) __builtin_trap();
  for (const TrainingSnapshot& s : snapshots) {
    if (s.batch < 0 || s.epoch < 0 || !std::isfinite(s.loss)) __builtin_trap();
    if (s.attention.empty()) continue;
    if (s.attention.size() != s.output.size()) __builtin_trap();
    for (const auto& row : s.attention) {
      if (row.size() != s.source.size()) __builtin_trap();
      for (float w : row)
        if (!(w >= 0.0f && w <= 1.0f)) __builtin_trap();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const int fd = memfd_create("snapshots", 0);
  static const std::string path = "/proc/self/fd/" + std::to_string(fd);
  if (fd < 0 || ftruncate(fd, 0) != 0) __builtin_trap();
  if (size > 0 && pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) __builtin_trap();
  try {
    check(read_snapshots(path));
  } catch (const std::runtime_error& e) {
    const std::string_view message = e.what();
    if (message.find('\n') != std::string_view::npos || !is_valid_utf8(message)) __builtin_trap();
  }
  return 0;
}
