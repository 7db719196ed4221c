#pragma once
// A TorchScript module that follows docs/model-protocol.md. Its attributes are read and checked
// once, and every result of encode() and step() is checked, so a module that breaks the
// protocol gives one line naming the file and the problem, never a wrong picture or an abort.
// The optional methods (embed(), encode_embedded(), step_with_attention()) are found and tried
// on loading; a module without them, or with broken ones, still translates.
#include <torch/script.h>

#include <string>
#include <vector>

#include "attnscope/model_info.h"

namespace attnscope {

struct ScriptedModelAttributes {
  std::vector<std::string> source_vocabulary;  // id → token
  std::vector<std::string> target_vocabulary;
  int64_t bos = 0, eos = 0, unk = 0;  // ids in both vocabularies
  bool append_eos = false;            // the source gets eos appended
  std::string tokenizer;              // "attnscope" or "whitespace"
  std::string name, source_language, target_language;
  std::string subword_marker;         // "", "▁" or "@@"
  std::vector<std::string> examples;  // sentences the module's maker offers (may be none)
};

struct ScriptedStep {
  torch::Tensor log_probs;  // [V] float, contiguous
  torch::Tensor attention;  // [layers, heads, S] float, contiguous
  std::vector<torch::Tensor> state;
};

/// A TorchScript or PyTorch error as one short line: the interpreter's last "…Error: …" line (or
/// the first line), without PyTorch's plea to its own developers, at most 300 characters.
std::string short_message(const std::string& what);

class ScriptedModel {
 public:
  static constexpr int kProtocolVersion = 1;

  /// True when the file starts like a TorchScript archive (a zip file).
  static bool is_scripted_file(const std::string& path);

  /// Loads the module and checks its attributes, its methods and one step on a probe sentence.
  /// Throws std::runtime_error "model 'PATH': PROBLEM".
  explicit ScriptedModel(const std::string& path);

  const std::string& path() const { return path_; }
  const ScriptedModelAttributes& attributes() const { return attributes_; }
  int layers() const { return layers_; }
  int heads() const { return heads_; }
  int64_t parameter_count() const;

  std::vector<torch::Tensor> encode(const std::vector<int64_t>& source) const;
  /// One step of the decoder from `state`, which the step does not change.
  ScriptedStep step(const std::vector<torch::Tensor>& state, int64_t previous,
                    int64_t source_length) const;

  /// embed() and encode_embedded() are there and passed the loading probe (gradient
  /// attributions need them).
  bool has_gradient_methods() const { return gradient_methods_missing_.empty(); }
  /// step_with_attention() is there and passed the loading probe (editing attention needs it).
  bool has_edit_method() const { return edit_method_missing_.empty(); }
  /// Why has_gradient_methods() is false, one line naming the file and the method ("" when true).
  const std::string& gradient_methods_missing() const { return gradient_methods_missing_; }
  /// Why has_edit_method() is false, one line naming the file and the method ("" when true).
  const std::string& edit_method_missing() const { return edit_method_missing_; }

  /// The source's embeddings [S,E], float, as encode_embedded() reads them.
  torch::Tensor embed(const std::vector<int64_t>& source) const;
  /// encode() of embeddings `embeddings` [S,E] given in place of the source's own. With autograd
  /// on, the state depends on `embeddings` by autograd (the module's promise).
  std::vector<torch::Tensor> encode_embedded(const torch::Tensor& embeddings) const;
  /// step() with the decoder reading `attention` [source_length] (summing to 1) instead of its
  /// own; the attention returned is what it read.
  ScriptedStep step_with_attention(const std::vector<torch::Tensor>& state, int64_t previous,
                                   const torch::Tensor& attention, int64_t source_length) const;

 private:
  [[noreturn]] void fail(const std::string& problem) const;
  void read_attributes();
  void probe_optional_methods(const std::vector<int64_t>& probe,
                              const std::vector<torch::Tensor>& probe_state);
  torch::jit::IValue call(const char* method, std::vector<torch::jit::IValue> inputs) const;
  std::vector<torch::Tensor> state_of(const torch::jit::IValue& value, const char* method) const;
  ScriptedStep step_result(const torch::jit::IValue& out, const char* method,
                           int64_t source_length) const;

  std::string path_;
  mutable torch::jit::Module module_;  // calling a method is not const in torch's API
  ScriptedModelAttributes attributes_;
  int layers_ = 1, heads_ = 1;
  bool probed_ = false;  // layers_ and heads_ are known
  std::string gradient_methods_missing_, edit_method_missing_;
};

/// What a loaded module says about itself; the file stem names a module without `name`.
ModelInfo model_info(const ScriptedModel& model, const std::string& path);

}  // namespace attnscope
