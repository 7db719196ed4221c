#include "attnscope/model_averaging.h"

#include "attnscope/errors.h"
#include "attnscope/output_file.h"
#include "io/checkpoint.h"

namespace attnscope {
namespace {

// A training state (OUT.state) holds the optimizer's bytes beside float32 weights: it belongs to
// a run, not a model, and its weights are in the model files already.
bool is_training_state(const Checkpoint& c) {
  if (c.extra.contains("resume")) return true;
  for (const auto& [name, tensor] : c.tensors)
    if (!tensor.is_floating_point()) return true;
  return false;
}

// Why `candidate` cannot be averaged with `first` (the first input), or "".
std::string difference(const Checkpoint& first, const Checkpoint& candidate) {
  const nlohmann::json a = config_to_json(first.config), b = config_to_json(candidate.config);
  for (const auto& [key, value] : a.items())
    if (!b.contains(key) || b.at(key) != value)
      return "its config differs (" + key + ": " + (b.contains(key) ? b.at(key).dump() : "none") +
             ", not " + value.dump() + ")";
  if (first.source_vocabulary.tokens() != candidate.source_vocabulary.tokens() ||
      first.target_vocabulary.tokens() != candidate.target_vocabulary.tokens())
    return "its vocabularies differ";
  if (first.subwords != candidate.subwords ||
      first.source_subwords.bytes() != candidate.source_subwords.bytes() ||
      first.target_subwords.bytes() != candidate.target_subwords.bytes())
    return "its subword models differ";
  if (is_training_state(candidate)) return "it is a training state, not a model file";
  // Runs that started from other random weights learn the same function in differently arranged
  // units: their mean is no model. The seed says where a run started.
  if (first.training.seed != candidate.training.seed)
    return "it comes from another training run (seed " + std::to_string(candidate.training.seed) +
           ", not " + std::to_string(first.training.seed) +
           "), and the mean of runs that started apart is a broken model: average the epochs of "
           "one run (train --save-epochs)";
  if (first.tensors.size() != candidate.tensors.size()) return "it holds other tensors";
  for (size_t i = 0; i < first.tensors.size(); ++i) {
    const auto& [name, tensor] = first.tensors[i];
    if (candidate.tensors[i].first != name || candidate.tensors[i].second.sizes() != tensor.sizes())
      return "its tensor '" + name + "' differs in name or shape";
  }
  return "";
}

}  // namespace

void average_models(const std::vector<std::string>& inputs, const std::string& output,
                    const std::string& command) {
  if (inputs.size() < 2)
    ATTNSCOPE_THROW_INVALID_ARGUMENT("averaging needs two or more model files, not ",
                                     inputs.size());
  // Before hundreds of megabytes are read: the output must be writable and none of the inputs.
  check_regular_output_file("output", output, inputs);
  // The same file twice would weigh one epoch double without a word.
  for (size_t i = 1; i < inputs.size(); ++i) try {
      check_not_an_input("model", inputs[i], {inputs.begin(), inputs.begin() + i});
    } catch (const std::invalid_argument&) {
      ATTNSCOPE_THROW_INVALID_ARGUMENT(
          "'", inputs[i], "' is a model file given before: ", "average each model once");
    }
  Checkpoint average = load_checkpoint(inputs.front());
  if (is_training_state(average))
    ATTNSCOPE_THROW_INVALID_ARGUMENT("'", inputs.front(),
                                     "' is a training state, not a model file: average the model "
                                     "files of the epochs (train --save-epochs)");
  // Sums in double: twenty half-precision values add up without rounding on the way.
  for (auto& [name, tensor] : average.tensors) tensor = tensor.to(torch::kDouble);
  Checkpoint last;
  for (size_t i = 1; i < inputs.size(); ++i) {
    last = load_checkpoint(inputs[i]);
    if (const std::string why = difference(average, last); !why.empty())
      ATTNSCOPE_THROW_INVALID_ARGUMENT("'", inputs[i], "' cannot be averaged with '",
                                       inputs.front(), "': ", why);
    for (size_t t = 0; t < average.tensors.size(); ++t)
      average.tensors[t].second.add_(last.tensors[t].second.to(torch::kDouble));
  }
  const auto count = static_cast<double>(inputs.size());
  for (auto& [name, tensor] : average.tensors) tensor = (tensor / count).to(torch::kFloat);
  average.training = last.training;
  average.training.validation_loss = 0.0;
  average.training.validation_bleu = -1.0;
  average.training.test_bleu = -1.0;
  average.training.test_bleu_beam5 = -1.0;
  average.training.test_corpus.clear();
  // What made the weights, then the mean: a shipped mean says how to train it again.
  average.training.command =
      last.training.command.empty() ? command : last.training.command + "; then " + command;
  save_checkpoint(output, average, StoredPrecision::kFloat16);
}

}  // namespace attnscope
