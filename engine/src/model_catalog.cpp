#include "attnscope/model_catalog.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "attnscope/errors.h"
#include "checkpoint.h"

namespace attnscope {
namespace fs = std::filesystem;

namespace {
constexpr const char* kModelExtension = ".attnmodel";
}

const std::vector<std::string>& score_function_names() {
  static const std::vector<std::string> names = {"dot",        "general", "additive",
                                                 "scaled_dot", "cosine",  "location"};
  return names;
}

bool is_score_function(const std::string& name) {
  const auto& names = score_function_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::vector<std::string> model_directories() {
  std::vector<std::string> folders;
  if (const char* env = std::getenv("ATTNSCOPE_MODEL_DIR"); env != nullptr && *env != '\0')
    folders.emplace_back(env);
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) folders.push_back((exe.parent_path() / ".." / ATTNSCOPE_INSTALL_MODEL_DIR).lexically_normal().string());
  folders.emplace_back(ATTNSCOPE_SOURCE_MODEL_DIR);
  return folders;
}

std::string resolve_model(const std::string& name_or_path) {
  if (!is_score_function(name_or_path)) return name_or_path;
  for (const auto& folder : model_directories()) {
    const fs::path candidate = fs::path(folder) / (name_or_path + kModelExtension);
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec)) return candidate.string();
  }
  ATTNSCOPE_THROW_RUNTIME_ERROR("no shipped model for score function '", name_or_path,
                                "' (looked in ", model_directories().front(), " and ",
                                model_directories().size() - 1, " other folders)");
}

ModelInfo read_model_info(const std::string& path) {
  const Checkpoint checkpoint = load_checkpoint(path, /*header_only=*/true);
  return {path, checkpoint.config, checkpoint.training, checkpoint.float_elements,
          checkpoint.file_bytes};
}

std::vector<ModelInfo> installed_models() {
  std::vector<ModelInfo> models;
  for (const auto& name : score_function_names()) {
    try {
      models.push_back(read_model_info(resolve_model(name)));
    } catch (const std::runtime_error&) {
      // Not shipped (or unreadable): `models` lists what is there.
    }
  }
  return models;
}

}  // namespace attnscope
