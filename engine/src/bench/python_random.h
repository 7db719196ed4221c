#pragma once
// CPython's random module (MT19937 seeded by init_by_array, shuffle by rejection sampling), so
// the benchmark's timed batches are the very batches the Python reference times after
// random.seed(0): batch lengths vary a lot, and 40 of 454 batches is too few to average that out.
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace attnscope {

class PythonRandom {
 public:
  /// random.seed(seed) for a small non-negative int.
  explicit PythonRandom(uint32_t seed);

  /// random.shuffle(x): for i from len-1 down to 1, swap x[i] with x[randbelow(i + 1)].
  template <typename T>
  void shuffle(std::vector<T>& items) {
    for (size_t i = items.size(); i-- > 1;) std::swap(items[i], items[below(i + 1)]);
  }

  /// random.getrandbits(32).
  uint32_t next();

 private:
  static constexpr size_t kN = 624, kM = 397;

  void init_genrand(uint32_t s);
  // _randbelow_with_getrandbits(n) for n < 2^32: getrandbits(n.bit_length()) until below n.
  size_t below(size_t n);

  std::array<uint32_t, kN> state_{};
  size_t index_ = kN;
};

}  // namespace attnscope
