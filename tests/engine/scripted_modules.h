#pragma once
// TorchScript modules following docs/model-protocol.md, built in C++ (torch::jit::Module and
// TorchScript source), so the tests need no Python: a toy that copies its source with known
// attention, a multi-head variant, and broken ones.
#include <string>
#include <vector>

namespace attnscope::testing {

struct ScriptedModuleSpec {
  // 0: step() returns attention [S]; otherwise [layers, heads, S], head k (counting over
  // layers) with sharpness 0.5·(k+1).
  int layers = 0;
  int heads = 1;
  std::vector<std::string> vocabulary = {"<s>", "</s>", "<unk>", "a", "b", "c", "d", "e"};
  int64_t bos = 0, eos = 1, unk = 2;
  std::string tokenizer = "whitespace";
  std::string subword_marker;  // the attribute is absent when empty
  int protocol = 1;
  // TorchScript lines run in step() just before it returns (8 spaces of indentation), to
  // break the protocol: "        attention = attention * 1.5".
  std::string break_step;
  bool with_step = true;
  std::vector<std::string> without_attributes;  // attribute names to leave out
  std::string source_language;                  // src_lang; absent when empty
  std::vector<std::string> examples;            // the attribute is absent when empty
};

/// Saves the module to a fresh file named `name` and returns its path. The toy copies its
/// source: at step t it attends softmax(−sharpness·|s − min(t, S−1)|) and emits the source
/// token at min(t, S−1) with probability e⁵/(e⁵ + V − 1).
std::string write_scripted_module(const ScriptedModuleSpec& spec, const std::string& name);

/// The toy's attention at step t over a source of n tokens, for a sharpness.
std::vector<float> toy_attention(int t, int n, float sharpness);

}  // namespace attnscope::testing
