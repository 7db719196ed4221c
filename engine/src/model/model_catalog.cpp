#include "attnscope/model_catalog.h"

#include <optional>
#include <utility>

#include "attnscope/errors.h"
#include "model/model_file.h"
#include "model/scripted_model.h"

namespace attnscope {

std::string resolve_model(const std::string& name_or_path, const std::string& pair) {
  if (!is_score_function(name_or_path)) return name_or_path;
  if (!is_language_pair(pair))
    ATTNSCOPE_THROW_RUNTIME_ERROR("language pair '", pair,
                                  "' is not two language codes joined by '-', as en-fr");
  std::vector<std::string> skipped;
  std::string path = find_usable_model(name_or_path, pair, &skipped);
  if (path.empty() && !skipped.empty())  // only broken files: the first one's reason
    ATTNSCOPE_THROW_RUNTIME_ERROR(skipped.front());
  if (path.empty()) {
    const auto folders = model_directories();
    if (pair == kDefaultLanguagePair)
      ATTNSCOPE_THROW_RUNTIME_ERROR("no shipped model for score function '", name_or_path,
                                    "' (looked in ", folders.front(), " and ", folders.size() - 1,
                                    " other folders)");
    std::string shipped;
    for (const auto& name : score_function_names())
      if (!find_shipped_model(name, pair).empty())
        shipped += (shipped.empty() ? "'" : ", '") + name + "'";
    ATTNSCOPE_THROW_RUNTIME_ERROR(
        "no shipped ", pair, " model for score function '", name_or_path, "' (",
        shipped.empty() ? "no " + pair + " models in " + folders.front() + " nor " +
                              std::to_string(folders.size() - 1) + " other folders"
                        : pair + " ships " + shipped,
        ")");
  }
  return path;
}

std::string shipped_model_name(const std::string& score, const std::string& pair) {
  if (pair == kDefaultLanguagePair) return score;
  std::string arrow = pair;
  arrow.replace(arrow.find('-'), 1, "→");
  return score + " (" + arrow + ")";
}

std::string language_pair_of(const ModelInfo& info) {
  return info.config.source_language + "-" + info.config.target_language;
}

ModelInfo read_model_info(const std::string& path) {
  // A TorchScript file has no header to read on its own: it is loaded and probed whole.
  if (ScriptedModel::is_scripted_file(path)) return model_info(ScriptedModel(path), path);
  const Checkpoint checkpoint = load_model_file(path, /*header_only=*/true);
  return model_info(checkpoint, path, checkpoint.float_elements);
}

namespace {

// The first usable candidate's info, the broken ones before it said in `skipped`.
std::optional<ModelInfo> first_usable(const std::string& name, const std::string& pair,
                                      std::vector<std::string>* skipped) {
  for (const std::string& path : shipped_model_candidates(name, pair)) {
    try {
      return read_model_info(path);
    } catch (const std::exception& e) {
      if (skipped) skipped->push_back(e.what());  // the engine's load errors name the file
    }
  }
  return std::nullopt;
}

}  // namespace

std::string find_usable_model(const std::string& name, const std::string& pair,
                              std::vector<std::string>* skipped) {
  const std::optional<ModelInfo> info = first_usable(name, pair, skipped);
  return info ? info->path : "";
}

std::vector<ModelInfo> installed_models(std::vector<std::string>* skipped) {
  std::vector<ModelInfo> models;
  for (const auto& pair : shipped_language_pairs())
    for (const auto& name : score_function_names())
      if (std::optional<ModelInfo> info = first_usable(name, pair, skipped))
        models.push_back(std::move(*info));
  return models;
}

}  // namespace attnscope
