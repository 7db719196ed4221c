#include "attnscope/model_folders.h"

#include <cstdlib>
#include <filesystem>

namespace attnscope {
namespace fs = std::filesystem;

std::vector<std::string> model_directories() {
  std::vector<std::string> folders;
  if (const char* env = std::getenv("ATTNSCOPE_MODEL_DIR"); env != nullptr && *env != '\0')
    folders.emplace_back(env);
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec)
    folders.push_back(
        (exe.parent_path() / ".." / ATTNSCOPE_INSTALL_MODEL_DIR).lexically_normal().string());
  folders.emplace_back(ATTNSCOPE_SOURCE_MODEL_DIR);
  return folders;
}

std::string find_shipped_model(const std::string& name) {
  for (const auto& folder : model_directories()) {
    const fs::path candidate = fs::path(folder) / (name + ".attnmodel");
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec)) return candidate.string();
  }
  return "";
}

}  // namespace attnscope
