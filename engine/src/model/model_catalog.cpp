#include "attnscope/model_catalog.h"

#include "attnscope/errors.h"
#include "model/model_file.h"
#include "model/scripted_model.h"

namespace attnscope {

std::string resolve_model(const std::string& name_or_path, const std::string& pair) {
  if (!is_score_function(name_or_path)) return name_or_path;
  if (!is_language_pair(pair))
    ATTNSCOPE_THROW_RUNTIME_ERROR("language pair '", pair,
                                  "' is not two language codes joined by '-', as en-fr");
  std::string path = find_shipped_model(name_or_path, pair);
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

std::vector<ModelInfo> installed_models() {
  std::vector<ModelInfo> models;
  for (const auto& pair : shipped_language_pairs())
    for (const auto& name : score_function_names()) {
      const std::string path = find_shipped_model(name, pair);
      if (path.empty()) continue;
      try {
        models.push_back(read_model_info(path));
      } catch (const std::runtime_error&) {
        // Unreadable: `models` lists what is there.
      }
    }
  return models;
}

}  // namespace attnscope
