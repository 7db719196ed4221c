#pragma once
#include <string>
#include <vector>

#include "attnscope/model_info.h"

namespace attnscope {

/// The six attention score functions, in the order the UI lists them.
const std::vector<std::string>& score_function_names();
bool is_score_function(const std::string& name);

/// Folders searched for shipped models, first match wins: $ATTNSCOPE_MODEL_DIR, the install
/// location relative to the running binary (../share/attnscope/models), the source tree.
std::vector<std::string> model_directories();

/// A score function name resolves to the shipped model "<name>.attnmodel"; anything else is
/// taken as a file path. Throws std::runtime_error when a name has no shipped model.
std::string resolve_model(const std::string& name_or_path);

/// Reads only the header of a checkpoint (fast; no weights). Throws like Translator's constructor.
ModelInfo read_model_info(const std::string& path);

/// The shipped models found in model_directories(), one per score function name found.
std::vector<ModelInfo> installed_models();

}  // namespace attnscope
