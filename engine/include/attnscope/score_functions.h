#pragma once
// The attention score functions the engine knows, as plain names. The list comes from the
// registry in engine/src/model/score/score_registry.cpp, the one place that knows them all.
#include <string>
#include <vector>

namespace attnscope {

/// The baseline's name: a model without attention (Bahdanau's RNNencdec), registered with the
/// score functions so that it is trained, listed and loaded like every other model.
inline constexpr const char* kNoAttention = "none";

/// Every registered score function, in the order the UI and `models` list them; "none" last.
const std::vector<std::string>& score_function_names();
bool is_score_function(const std::string& name);
/// False only for kNoAttention: its models decode without an attention matrix.
bool has_attention(const std::string& score);
/// The names joined for a message: "dot, general, additive, ...".
std::string score_function_list();

}  // namespace attnscope
