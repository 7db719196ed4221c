#pragma once
// Which models there are: the shipped ones by score function name, and any model file's header.
#include <string>
#include <vector>

#include "attnscope/model_folders.h"
#include "attnscope/model_info.h"
#include "attnscope/score_functions.h"

namespace attnscope {

/// A score function name resolves to the shipped model "<name>.attnmodel"; anything else is
/// taken as a file path. Throws std::runtime_error when a name has no shipped model.
std::string resolve_model(const std::string& name_or_path);

/// Reads only the header of a model file (fast; no weights). Throws like Translator's constructor.
ModelInfo read_model_info(const std::string& path);

/// The shipped models found in model_directories(), one per score function name found.
std::vector<ModelInfo> installed_models();

}  // namespace attnscope
