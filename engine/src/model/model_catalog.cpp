#include "attnscope/model_catalog.h"

#include "attnscope/errors.h"
#include "model/model_file.h"
#include "model/scripted_model.h"

namespace attnscope {

std::string resolve_model(const std::string& name_or_path) {
  if (!is_score_function(name_or_path)) return name_or_path;
  std::string path = find_shipped_model(name_or_path);
  if (path.empty()) {
    const auto folders = model_directories();
    ATTNSCOPE_THROW_RUNTIME_ERROR("no shipped model for score function '", name_or_path,
                                  "' (looked in ", folders.front(), " and ", folders.size() - 1,
                                  " other folders)");
  }
  return path;
}

ModelInfo read_model_info(const std::string& path) {
  // A TorchScript file has no header to read on its own: it is loaded and probed whole.
  if (ScriptedModel::is_scripted_file(path)) return model_info(ScriptedModel(path), path);
  const Checkpoint checkpoint = load_model_file(path, /*header_only=*/true);
  return model_info(checkpoint, path, checkpoint.float_elements);
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
