#include "train/output_path.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "attnscope/errors.h"

namespace attnscope {

void check_output_path(const std::string& output_path) {
  namespace fs = std::filesystem;
  const char* setting = "output_path";
  if (output_path.empty())
    ATTNSCOPE_THROW_SETTING(setting, "the output path is empty: give a model file name");
  const fs::path path(output_path);
  if (fs::is_directory(path))
    ATTNSCOPE_THROW_SETTING(setting, "output '", output_path, "' is a directory, not a file name");
  // Saving renames a temporary file over these: never over a device, a FIFO or a folder.
  for (const std::string& target : {output_path, output_path + ".state"}) {
    std::error_code ec;
    const auto status = fs::status(target, ec);
    if (fs::exists(status) && !fs::is_regular_file(status))
      ATTNSCOPE_THROW_SETTING(setting, "output '", target, "' exists and is not a regular file");
  }
  const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
  if (!fs::is_directory(folder))
    ATTNSCOPE_THROW_SETTING(setting, "output folder '", folder.string(), "' does not exist");
  const std::string probe =
      (folder / (".attnscope-write-test." + std::to_string(::getpid()))).string();
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0)
    ATTNSCOPE_THROW_SETTING(setting, "cannot write to output folder '", folder.string(),
                            "': ", std::strerror(errno));
  ::close(fd);
  ::unlink(probe.c_str());
}

std::string epoch_model_path(const std::string& output_path, int epoch) {
  char number[16];
  std::snprintf(number, sizeof number, ".epoch%02d", epoch);
  const std::string extension = ".attnmodel";
  const bool has_extension =
      output_path.size() > extension.size() &&
      output_path.compare(output_path.size() - extension.size(), extension.size(), extension) == 0;
  if (!has_extension) return output_path + number;
  return output_path.substr(0, output_path.size() - extension.size()) + number + extension;
}

}  // namespace attnscope
