#pragma once
// A TorchScript module that follows docs/model-protocol.md. Its attributes are read and checked
// once, and every result of encode() and step() is checked, so a module that breaks the
// protocol gives one line naming the file and the problem, never a wrong picture or an abort.
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

  const ScriptedModelAttributes& attributes() const { return attributes_; }
  int layers() const { return layers_; }
  int heads() const { return heads_; }
  int64_t parameter_count() const;

  std::vector<torch::Tensor> encode(const std::vector<int64_t>& source) const;
  /// One step of the decoder from `state`, which the step does not change.
  ScriptedStep step(const std::vector<torch::Tensor>& state, int64_t previous,
                    int64_t source_length) const;

 private:
  [[noreturn]] void fail(const std::string& problem) const;
  void read_attributes();
  torch::jit::IValue call(const char* method, std::vector<torch::jit::IValue> inputs) const;
  std::vector<torch::Tensor> state_of(const torch::jit::IValue& value, const char* method) const;

  std::string path_;
  mutable torch::jit::Module module_;  // calling a method is not const in torch's API
  ScriptedModelAttributes attributes_;
  int layers_ = 1, heads_ = 1;
  bool probed_ = false;  // layers_ and heads_ are known
};

/// What a loaded module says about itself; the file stem names a module without `name`.
ModelInfo model_info(const ScriptedModel& model, const std::string& path);

}  // namespace attnscope
