#pragma once
// The attention score functions the engine knows, as plain names. The list comes from the
// registry in engine/src/model/score/score_registry.cpp, the one place that knows them all.
#include <string>
#include <vector>

namespace attnscope {

/// Every registered score function, in the order the UI and `models` list them.
const std::vector<std::string>& score_function_names();
bool is_score_function(const std::string& name);
/// The names joined for a message: "dot, general, additive, ...".
std::string score_function_list();

}  // namespace attnscope
