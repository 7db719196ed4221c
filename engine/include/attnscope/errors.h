#pragma once
// Error conventions of the engine (see ../shared/STYLE.md): std::invalid_argument for bad input,
// std::runtime_error for I/O and model files. Messages are one line a user can act on.
#include <sstream>
#include <stdexcept>

namespace attnscope {

/// Builds a message from stream-able parts: error_message("file '", path, "' is empty").
template <typename... Parts>
std::string error_message(const Parts&... parts) {
  std::ostringstream out;
  (out << ... << parts);
  return out.str();
}

}  // namespace attnscope

#define ATTNSCOPE_THROW_INVALID_ARGUMENT(...) \
  throw std::invalid_argument(::attnscope::error_message(__VA_ARGS__))
#define ATTNSCOPE_THROW_RUNTIME_ERROR(...) \
  throw std::runtime_error(::attnscope::error_message(__VA_ARGS__))
