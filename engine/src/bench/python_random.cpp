#include "bench/python_random.h"

namespace attnscope {

PythonRandom::PythonRandom(uint32_t seed) {
  // random.seed(n) for a small non-negative int is init_by_array with the key {n}.
  init_genrand(19650218u);
  const uint32_t key = seed;
  size_t i = 1;
  for (size_t k = kN; k > 0; --k) {
    state_[i] = (state_[i] ^ ((state_[i - 1] ^ (state_[i - 1] >> 30)) * 1664525u)) + key;
    if (++i >= kN) {
      state_[0] = state_[kN - 1];
      i = 1;
    }
  }
  for (size_t k = kN - 1; k > 0; --k) {
    state_[i] = (state_[i] ^ ((state_[i - 1] ^ (state_[i - 1] >> 30)) * 1566083941u)) -
                static_cast<uint32_t>(i);
    if (++i >= kN) {
      state_[0] = state_[kN - 1];
      i = 1;
    }
  }
  state_[0] = 0x80000000u;
}

void PythonRandom::init_genrand(uint32_t s) {
  state_[0] = s;
  for (size_t i = 1; i < kN; ++i)
    state_[i] = 1812433253u * (state_[i - 1] ^ (state_[i - 1] >> 30)) + static_cast<uint32_t>(i);
  index_ = kN;
}

uint32_t PythonRandom::next() {
  if (index_ >= kN) {
    for (size_t k = 0; k < kN; ++k) {
      const uint32_t y = (state_[k] & 0x80000000u) | (state_[(k + 1) % kN] & 0x7fffffffu);
      state_[k] = state_[(k + kM) % kN] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
    }
    index_ = 0;
  }
  uint32_t y = state_[index_++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= y >> 18;
  return y;
}

size_t PythonRandom::below(size_t n) {
  int bits = 0;
  while ((n >> bits) != 0) ++bits;
  uint32_t r;
  do r = next() >> (32 - bits);
  while (r >= n);
  return r;
}

}  // namespace attnscope
