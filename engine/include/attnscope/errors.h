#pragma once
// Error conventions of the engine: std::invalid_argument for bad input (SettingError when one
// setting of an options struct is at fault), std::runtime_error for I/O and model files.
// Messages are one line a user can act on, in the engine's own terms.
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace attnscope {

/// Builds a message from stream-able parts: error_message("file '", path, "' is empty").
template <typename... Parts>
std::string error_message(const Parts&... parts) {
  std::ostringstream out;
  (out << ... << parts);
  return out.str();
}

/// A setting of TrainOptions or BenchOptions that cannot be used. `setting()` is the field's
/// name ("epochs", "model.hidden"), so a front end can say which of its own controls to change.
class SettingError : public std::invalid_argument {
 public:
  SettingError(std::string setting, const std::string& message)
      : std::invalid_argument(message), setting_(std::move(setting)) {}
  const std::string& setting() const { return setting_; }

 private:
  std::string setting_;
};

}  // namespace attnscope

#define ATTNSCOPE_THROW_SETTING(setting, ...) \
  throw ::attnscope::SettingError(setting, ::attnscope::error_message(__VA_ARGS__))
#define ATTNSCOPE_THROW_INVALID_ARGUMENT(...) \
  throw std::invalid_argument(::attnscope::error_message(__VA_ARGS__))
#define ATTNSCOPE_THROW_RUNTIME_ERROR(...) \
  throw std::runtime_error(::attnscope::error_message(__VA_ARGS__))
