#include "model/scripted_model.h"

#include <torch/csrc/jit/runtime/graph_executor.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "attnscope/errors.h"
#include "model/model_file.h"

namespace attnscope {
namespace {

using torch::jit::IValue;

constexpr double kSumTolerance = 1e-3;  // how far a probability or attention sum may be from 1

std::string shape_text(const torch::Tensor& t) {
  std::ostringstream out;
  out << '[';
  for (int64_t d = 0; d < t.dim(); ++d) out << (d ? ", " : "") << t.size(d);
  out << ']';
  return out.str();
}

std::string type_of(const IValue& value) { return value.type()->repr_str(); }

c10::List<torch::Tensor> list_of(const std::vector<torch::Tensor>& state) {
  c10::List<torch::Tensor> list;
  for (const auto& t : state) list.push_back(t);
  return list;
}

}  // namespace

// TorchScript errors carry the interpreter's traceback; the user needs its last "…Error: …"
// line (or the first line when there is none), kept short.
std::string short_message(const std::string& what) {
  std::istringstream lines(what);
  std::string line, first, error;
  while (std::getline(lines, line)) {
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    if (first.empty()) first = line;
    const size_t colon = line.find("Error: ");
    if (colon != std::string::npos && line.find(' ') > colon) error = line;
  }
  std::string message = error.empty() ? first : error;
  // PyTorch's plea under its own checks is addressed to its developers, not to this user.
  const size_t plea = message.find("(Could this error message be improved?");
  if (plea != std::string::npos)
    message.erase(message.find_last_not_of(' ', plea == 0 ? 0 : plea - 1) + 1);
  if (message.size() > 300) message = message.substr(0, 300) + "…";
  return message;
}

bool ScriptedModel::is_scripted_file(const std::string& path) {
  // Opening a FIFO or a device to look would block or consume it; those are left to the
  // checkpoint reader, which refuses them with its own message.
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return false;
  std::ifstream in(path, std::ios::binary);
  char magic[4] = {};
  return in.read(magic, 4) && magic[0] == 'P' && magic[1] == 'K' && magic[2] == 3 && magic[3] == 4;
}

void ScriptedModel::fail(const std::string& problem) const {
  ATTNSCOPE_THROW_RUNTIME_ERROR("model '", path_, "': ", problem);
}

// Why torch::jit::load refused a file, in a user's words where torch's name its own classes
// ("PytorchStreamReader failed reading zip archive", "Expected hasRecord(\"version\")").
std::string load_failure(const std::string& what) {
  const std::string torch_says = short_message(what);
  if (torch_says.find("not a ZIP archive") != std::string::npos)
    return "is not a TorchScript file (those are ZIP archives, written by torch.jit.save)";
  if (torch_says.find("zip archive") != std::string::npos)
    return "is a damaged or cut-off ZIP archive, not a whole TorchScript file";
  if (torch_says.find("hasRecord") != std::string::npos ||
      torch_says.find(".pkl") != std::string::npos)
    return "is a ZIP archive without a TorchScript module's parts (write it with "
           "torch.jit.save)";
  return "is not a TorchScript module torch can load (torch says: " + torch_says + ")";
}

ScriptedModel::ScriptedModel(const std::string& path) : path_(path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) fail("is a directory");
  try {
    module_ = torch::jit::load(path, torch::kCPU);
  } catch (const c10::Error& e) {
    fail(load_failure(e.what_without_backtrace()));
  } catch (const std::exception& e) {
    fail(load_failure(e.what()));
  }
  module_.eval();
  read_attributes();
  for (const char* method : {"encode", "step"})
    if (!module_.find_method(method))
      fail(error_message("has no method ", method,
                         "() (mark it @torch.jit.export; see docs/model-protocol.md)"));
  // One step on a one-word sentence finds the attention's layers and heads, and most broken
  // modules, before the user types anything.
  std::vector<int64_t> probe = {attributes_.unk};
  if (attributes_.append_eos) probe.push_back(attributes_.eos);
  const std::vector<torch::Tensor> state = encode(probe);
  const ScriptedStep first = step(state, attributes_.bos, static_cast<int64_t>(probe.size()));
  layers_ = static_cast<int>(first.attention.size(0));
  heads_ = static_cast<int>(first.attention.size(1));
  probed_ = true;
  probe_optional_methods(probe, state);
}

// A module without the optional methods, or with ones that fail on the probe sentence, still
// translates; what is missing is kept as the note attribution and editing give.
void ScriptedModel::probe_optional_methods(const std::vector<int64_t>& probe,
                                           const std::vector<torch::Tensor>& probe_state) {
  const std::string file = "model '" + path_ + "': ";
  const bool embed_found = module_.find_method("embed").has_value();
  const bool encode_found = module_.find_method("encode_embedded").has_value();
  const std::string without =
      "gradient attributions (grad, gradxinput, ig) need; leave one out (loo) works without ";
  if (!embed_found && !encode_found)
    gradient_methods_missing_ = file + "has no methods embed() and encode_embedded(), which " +
                                without + "them (see docs/model-protocol.md)";
  else if (!embed_found || !encode_found)
    gradient_methods_missing_ = file + "has no method " +
                                (embed_found ? "encode_embedded()" : "embed()") + ", which " +
                                without + "it (see docs/model-protocol.md)";
  if (!module_.find_method("step_with_attention"))
    edit_method_missing_ = file +
                           "has no method step_with_attention(), so its attention cannot be edited "
                           "(see docs/model-protocol.md)";

  if (has_gradient_methods()) {
    try {
      const std::vector<torch::Tensor> state = encode_embedded(embed(probe));
      if (state.size() != probe_state.size())
        fail(error_message("encode_embedded() returned a state of ", state.size(),
                           " tensors; encode() one of ", probe_state.size()));
      for (size_t i = 0; i < state.size(); ++i) {
        const torch::Tensor got = state[i].detach(), want = probe_state[i];
        bool same = got.sizes() == want.sizes() && got.dtype() == want.dtype();
        if (same && want.is_floating_point() && want.numel() > 0) {
          // Loose: the two may compute the state in another order (a fused encoder path, say).
          const double scale = 1.0 + want.abs().max().item<double>();
          same = (got - want).abs().max().item<double>() <= 1e-4 * scale;
        } else if (same) {
          same = torch::equal(got, want);
        }
        if (!same)
          fail(error_message("encode_embedded(embed(src)) is not encode(src): their state tensor ",
                             i, " differs"));
      }
    } catch (const std::runtime_error& e) {
      gradient_methods_missing_ =
          std::string(e.what()) +
          ", so gradient attributions (grad, gradxinput, ig) are off; leave one out (loo) works "
          "without them";
    }
  }
  if (has_edit_method()) {
    try {
      const auto length = static_cast<int64_t>(probe.size());
      step_with_attention(probe_state, attributes_.bos,
                          torch::full({length}, 1.0 / static_cast<double>(length)), length);
    } catch (const std::runtime_error& e) {
      edit_method_missing_ = std::string(e.what()) + ", so its attention cannot be edited";
    }
  }
}

void ScriptedModel::read_attributes() {
  auto value_of = [&](const char* name, bool required) -> std::optional<IValue> {
    if (module_.hasattr(name)) return module_.attr(name);
    if (required) fail(error_message("has no attribute '", name, "' (see docs/model-protocol.md)"));
    return std::nullopt;
  };
  auto wrong_type = [&](const char* name, const IValue& value, const char* expected) {
    fail(error_message("attribute '", name, "' is a ", type_of(value), "; expected ", expected));
  };
  auto strings = [&](const char* name, bool required) {
    std::vector<std::string> items;
    const auto value = value_of(name, required);
    if (!value) return items;
    if (!value->isList()) wrong_type(name, *value, "List[str]");
    for (const IValue& item : value->toListRef()) {
      if (!item.isString()) wrong_type(name, *value, "List[str]");
      items.push_back(item.toStringRef());
    }
    return items;
  };
  auto vocabulary = [&](const char* name) {
    std::vector<std::string> tokens = strings(name, true);
    if (tokens.empty()) fail(error_message("attribute '", name, "' is an empty vocabulary"));
    return tokens;
  };
  auto integer = [&](const char* name, bool required, int64_t fallback) {
    const auto value = value_of(name, required);
    if (!value) return fallback;
    if (!value->isInt()) wrong_type(name, *value, "int");
    return value->toInt();
  };
  auto text = [&](const char* name, bool required) {
    const auto value = value_of(name, required);
    if (!value) return std::string();
    if (!value->isString()) wrong_type(name, *value, "str");
    return value->toStringRef();
  };

  const int64_t protocol = integer("attnscope_protocol", false, kProtocolVersion);
  if (protocol > kProtocolVersion)
    fail(error_message("follows protocol version ", protocol, "; this attnscope reads version ",
                       kProtocolVersion, " (a newer attnscope wrote it)"));
  if (protocol < 1) fail(error_message("attribute 'attnscope_protocol' is ", protocol));
  ScriptedModelAttributes& a = attributes_;
  a.source_vocabulary = vocabulary("src_vocab");
  a.target_vocabulary = vocabulary("tgt_vocab");
  a.bos = integer("bos_id", true, 0);
  a.eos = integer("eos_id", true, 0);
  a.unk = integer("unk_id", true, 0);
  const auto append = value_of("src_append_eos", true);
  if (!append->isBool()) wrong_type("src_append_eos", *append, "bool");
  a.append_eos = append->toBool();
  a.tokenizer = text("tokenizer", true);
  if (a.tokenizer != "attnscope" && a.tokenizer != "whitespace")
    fail("attribute 'tokenizer' is '" + a.tokenizer + "'; expected 'attnscope' or 'whitespace'");
  a.name = text("name", false);
  a.source_language = text("src_lang", false);
  a.target_language = text("tgt_lang", false);
  a.subword_marker = text("subword_marker", false);
  a.examples = strings("examples", false);
  if (!a.subword_marker.empty() && a.subword_marker != "\u2581" && a.subword_marker != "@@")
    fail("attribute 'subword_marker' is '" + a.subword_marker + "'; expected '\u2581' or '@@'");

  const auto target_size = static_cast<int64_t>(a.target_vocabulary.size());
  const auto source_size = static_cast<int64_t>(a.source_vocabulary.size());
  auto check_id = [&](const char* name, int64_t id, bool in_source) {
    if (id < 0 || id >= target_size)
      fail(error_message("attribute '", name, "' is ", id, ", outside tgt_vocab (", target_size,
                         " tokens)"));
    if (in_source && id >= source_size)
      fail(error_message("attribute '", name, "' is ", id, ", outside src_vocab (", source_size,
                         " tokens)"));
  };
  check_id("bos_id", a.bos, false);
  check_id("eos_id", a.eos, a.append_eos);
  check_id("unk_id", a.unk, true);
}

int64_t ScriptedModel::parameter_count() const {
  int64_t count = 0;
  for (const auto& p : module_.parameters()) count += p.numel();
  return count;
}

IValue ScriptedModel::call(const char* method, std::vector<IValue> inputs) const {
  // With autograd on (gradient attributions), TorchScript's unoptimised plan: the plan it
  // optimises after a few calls may fold constants made under InferenceMode (the positions of a
  // length it saw), which autograd then refuses to save for backward. The switch is per thread.
  std::optional<torch::jit::GraphOptimizerEnabledGuard> unoptimised;
  if (torch::GradMode::is_enabled()) unoptimised.emplace(false);
  try {
    return module_.get_method(method)(std::move(inputs));
  } catch (const c10::Error& e) {
    fail(error_message(method, "() failed: ", short_message(e.what_without_backtrace())));
  } catch (const std::exception& e) {
    fail(error_message(method, "() failed: ", short_message(e.what())));
  }
}

std::vector<torch::Tensor> ScriptedModel::state_of(const IValue& value, const char* method) const {
  if (value.isTensorList()) return value.toTensorVector();
  if (!value.isList())
    fail(error_message(method, "() returned a ", type_of(value),
                       " as the decoder state; expected List[Tensor]"));
  std::vector<torch::Tensor> state;
  for (const IValue& element : value.toListRef()) {
    if (!element.isTensor())
      fail(error_message(method, "() returned a ", type_of(value),
                         " as the decoder state; expected List[Tensor]"));
    state.push_back(element.toTensor());
  }
  return state;
}

std::vector<torch::Tensor> ScriptedModel::encode(const std::vector<int64_t>& source) const {
  return state_of(call("encode", {torch::tensor(source, torch::kLong)}), "encode");
}

ScriptedStep ScriptedModel::step(const std::vector<torch::Tensor>& state, int64_t previous,
                                 int64_t source_length) const {
  return step_result(call("step", {list_of(state), torch::full({1}, previous, torch::kLong)}),
                     "step", source_length);
}

torch::Tensor ScriptedModel::embed(const std::vector<int64_t>& source) const {
  if (!has_gradient_methods()) throw std::runtime_error(gradient_methods_missing_);
  const IValue out = call("embed", {torch::tensor(source, torch::kLong)});
  if (!out.isTensor() || !out.toTensor().is_floating_point())
    fail(error_message("embed() returned embeddings of type ",
                       out.isTensor() ? std::string(out.toTensor().dtype().name()) : type_of(out),
                       "; expected a float Tensor"));
  const torch::Tensor embeddings = out.toTensor();
  const auto length = static_cast<int64_t>(source.size());
  if (embeddings.dim() != 2 || embeddings.size(0) != length || embeddings.size(1) == 0)
    fail(error_message("embed() returned embeddings of shape ", shape_text(embeddings),
                       " for a source of ", length, " tokens; expected [", length, ", E]"));
  if (!torch::isfinite(embeddings.detach()).all().item<bool>())
    fail("embed() returned NaN or inf embeddings");
  return embeddings.to(torch::kFloat);
}

std::vector<torch::Tensor> ScriptedModel::encode_embedded(const torch::Tensor& embeddings) const {
  if (!has_gradient_methods()) throw std::runtime_error(gradient_methods_missing_);
  return state_of(call("encode_embedded", {embeddings}), "encode_embedded");
}

ScriptedStep ScriptedModel::step_with_attention(const std::vector<torch::Tensor>& state,
                                                int64_t previous, const torch::Tensor& attention,
                                                int64_t source_length) const {
  if (!has_edit_method()) throw std::runtime_error(edit_method_missing_);
  const torch::Tensor row = attention.to(torch::kFloat).contiguous();
  ScriptedStep result = step_result(
      call("step_with_attention", {list_of(state), torch::full({1}, previous, torch::kLong), row}),
      "step_with_attention", source_length);
  // A module that ignores the row it is given would make every edit look ineffective.
  const double off = (result.attention[-1].mean(0) - row).abs().max().item<double>();
  const char* problem = "step_with_attention() returned attention that is not the row it was given";
  if (off > kSumTolerance) fail(error_message(problem, " (one weight is ", off, " off)"));
  return result;
}

// The checks of step()'s result, for step() and step_with_attention(). Under autograd (gradient
// attributions) the tensors kept stay in the graph: to() and contiguous() are differentiable,
// and the checks read detached copies.
ScriptedStep ScriptedModel::step_result(const IValue& out, const char* method,
                                        int64_t source_length) const {
  if (!out.isTuple() || out.toTupleRef().elements().size() != 3)
    fail(error_message(
        method, "() returned a ", type_of(out),
        "; expected Tuple[Tensor, Tensor, List[Tensor]] (log-probabilities, attention, state)"));
  const auto& parts = out.toTupleRef().elements();
  auto tensor = [&](const IValue& value, const char* what) {
    if (!value.isTensor() || !value.toTensor().is_floating_point())
      fail(error_message(
          method, "() returned ", what, " of type ",
          value.isTensor() ? std::string(value.toTensor().dtype().name()) : type_of(value),
          "; expected a float Tensor"));
    return value.toTensor().to(torch::kFloat).contiguous();
  };

  ScriptedStep result;
  result.log_probs = tensor(parts[0], "log-probabilities");
  const torch::Tensor log_probs = result.log_probs.detach();
  const auto vocabulary = static_cast<int64_t>(attributes_.target_vocabulary.size());
  if (log_probs.dim() != 1 || log_probs.size(0) != vocabulary)
    fail(error_message(method, "() returned log-probabilities of shape ", shape_text(log_probs),
                       "; expected [", vocabulary, "] (the size of tgt_vocab)"));
  if (torch::isnan(log_probs).any().item<bool>() || torch::isposinf(log_probs).any().item<bool>())
    fail(error_message(method, "() returned NaN or +inf log-probabilities"));
  const double total = log_probs.exp().sum().item<double>();
  if (std::abs(total - 1.0) > kSumTolerance)
    fail(error_message(method, "() returned log-probabilities whose probabilities sum to ", total,
                       ", not 1 (return log_softmax of the scores)"));

  torch::Tensor attention = tensor(parts[1], "attention").detach();
  if (attention.dim() < 1 || attention.dim() > 3 || attention.size(-1) != source_length)
    fail(error_message(method, "() returned attention of shape ", shape_text(attention),
                       " for a source of ", source_length, " tokens"));
  while (attention.dim() < 3) attention = attention.unsqueeze(0);
  if (probed_ && (attention.size(0) != layers_ || attention.size(1) != heads_))
    fail(error_message(method, "() returned attention of shape ", shape_text(attention), " after [",
                       layers_, ", ", heads_, ", S] at its first step"));
  if (!torch::isfinite(attention).all().item<bool>())
    fail(error_message(method, "() returned NaN or inf attention"));
  const double lowest = attention.min().item<double>();
  if (lowest < -1e-6)
    fail(error_message(method, "() returned a negative attention weight (", lowest, ")"));
  const double off = (attention.sum(-1) - 1.0).abs().max().item<double>();
  if (off > kSumTolerance)
    fail(error_message(method, "() returned attention rows that do not sum to 1 (one is ", off,
                       " off)"));
  result.attention = attention.contiguous();
  result.state = state_of(parts[2], method);
  return result;
}

ModelInfo model_info(const ScriptedModel& model, const std::string& path) {
  const ScriptedModelAttributes& a = model.attributes();
  ModelInfo info;
  info.path = path;
  info.format = "torchscript";
  info.name = a.name.empty() ? std::filesystem::path(path).stem().string() : a.name;
  info.attention_layers = model.layers();
  info.attention_heads = model.heads();
  info.subword_marker = a.subword_marker;
  info.tokenizer = a.tokenizer;
  info.examples = a.examples;
  info.config.score.clear();
  info.config.source_language = a.source_language;
  info.config.target_language = a.target_language;
  info.config.source_vocab = static_cast<int64_t>(a.source_vocabulary.size());
  info.config.target_vocab = static_cast<int64_t>(a.target_vocabulary.size());
  info.parameters = model.parameter_count();
  std::error_code error;
  const auto bytes = std::filesystem::file_size(path, error);
  info.file_bytes = error ? 0 : static_cast<int64_t>(bytes);
  make_printable(info);
  return info;
}

}  // namespace attnscope
