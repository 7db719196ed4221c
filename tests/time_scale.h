#pragma once
// How much longer than a plain Release build the tests may take: sanitizer builds start and run
// several times slower and say by how much in ATTNSCOPE_TEST_TIME_SCALE (build.sh sanitize sets
// 5). Every bound on elapsed time and every timeout a test sets is multiplied by it. Plain C++, so
// the GoogleTest and the QtTest programs read it alike.
#include <cstdlib>

namespace attnscope::testing {

// ATTNSCOPE_TEST_TIME_SCALE, or 1 when it is not set (or not a positive number).
inline double time_scale() {
  const char* text = std::getenv("ATTNSCOPE_TEST_TIME_SCALE");
  const double scale = text != nullptr ? std::atof(text) : 1.0;
  return scale > 0.0 ? scale : 1.0;
}

}  // namespace attnscope::testing
