#include "attnscope/model_folders.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace attnscope {
namespace fs = std::filesystem;

namespace {
bool is_language_code(const std::string& code) {
  return (code.size() == 2 || code.size() == 3) &&
         std::all_of(code.begin(), code.end(), [](char c) { return c >= 'a' && c <= 'z'; });
}
}  // namespace

bool is_language_pair(const std::string& text) {
  const auto dash = text.find('-');
  return dash != std::string::npos && is_language_code(text.substr(0, dash)) &&
         is_language_code(text.substr(dash + 1));
}

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

std::string model_dir_environment_problem() {
  const char* env = std::getenv("ATTNSCOPE_MODEL_DIR");
  if (env == nullptr || *env == '\0') return "";
  std::error_code ec;
  const auto status = fs::status(env, ec);
  if (fs::is_directory(status)) return "";
  return "ATTNSCOPE_MODEL_DIR '" + std::string(env) + "' " +
         (fs::exists(status) ? "is not a folder" : "does not exist") +
         ": models come from the other folders";
}

std::vector<std::string> shipped_model_candidates(const std::string& name,
                                                  const std::string& pair) {
  std::vector<std::string> candidates;
  if (!is_language_pair(pair)) return candidates;  // never a path out of the model folders
  for (const auto& folder : model_directories()) {
    fs::path candidate = fs::path(folder);
    if (pair != kDefaultLanguagePair) candidate /= pair;
    candidate /= name + ".attnmodel";
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec)) candidates.push_back(candidate.string());
  }
  return candidates;
}

std::string find_shipped_model(const std::string& name, const std::string& pair) {
  const std::vector<std::string> candidates = shipped_model_candidates(name, pair);
  return candidates.empty() ? "" : candidates.front();
}

std::vector<std::string> shipped_language_pairs() {
  std::vector<std::string> others;
  for (const auto& folder : model_directories()) {
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      std::error_code type_ec;
      if (name != kDefaultLanguagePair && is_language_pair(name) && it->is_directory(type_ec))
        others.push_back(name);
    }
  }
  std::sort(others.begin(), others.end());
  others.erase(std::unique(others.begin(), others.end()), others.end());
  others.insert(others.begin(), kDefaultLanguagePair);
  return others;
}

}  // namespace attnscope
