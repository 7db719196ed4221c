#pragma once
#include <string>
#include <vector>

namespace attnscope {

/// Folders searched for shipped models, first match wins: $ATTNSCOPE_MODEL_DIR, the install
/// location relative to the running binary (../share/attnscope/models), the source tree.
std::vector<std::string> model_directories();

/// The file "<name>.attnmodel" in the first of model_directories() that has it, or "" if none.
std::string find_shipped_model(const std::string& name);

}  // namespace attnscope
