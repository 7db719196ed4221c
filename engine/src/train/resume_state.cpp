#include "train/resume_state.h"

#include <sstream>

#include "io/checkpoint.h"

namespace attnscope {
namespace {

// A corpus by its content: the same sentences give the same fingerprint wherever the files are.
std::string fingerprint(const TokenizedPairs& pairs) {
  uint64_t hash = 1469598103934665603ull;  // FNV-1a, 64 bits
  auto mix = [&hash](const std::string& text) {
    for (unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
    hash = (hash ^ 0xffu) * 1099511628211ull;  // a separator no UTF-8 text contains
  };
  for (size_t i = 0; i < pairs.source.size(); ++i) {
    for (const auto& token : pairs.source[i]) mix(token);
    mix("\t");
    for (const auto& token : pairs.target[i]) mix(token);
    mix("\n");
  }
  std::ostringstream text;
  text << pairs.source.size() << " pairs, fingerprint " << std::hex << hash;
  return text.str();
}

// The settings in the order messages list them, with the words they use.
const std::vector<std::pair<const char*, const char*>>& labels() {
  static const std::vector<std::pair<const char*, const char*>> list = {
      {"arch", "architecture"},
      {"score", "score function"},
      {"embedding", "embedding size"},
      {"hidden", "hidden size"},
      {"attention", "attention size"},
      {"tied_readout", "tied readout"},
      {"decoder", "decoder"},
      {"dropout", "dropout"},
      {"cased", "cased text"},
      {"max_source_length", "maximum source length"},
      {"layers", "layers"},
      {"heads", "attention heads"},
      {"feed_forward", "feed-forward size"},
      {"training_corpus", "training corpus"},
      {"validation_corpus", "validation corpus"},
      {"min_frequency", "minimum word frequency"},
      {"subwords", "subword pieces"},
      {"joint_subwords", "joint subword model"},
      {"batch_size", "batch size"},
      {"learning_rate", "learning rate"},
      {"warmup_steps", "warm-up batches"},
      {"label_smoothing", "label smoothing"},
      {"gradient_clip", "gradient clip"},
      {"seed", "seed"},
  };
  return list;
}

}  // namespace

nlohmann::json ResumeState::to_json() const {
  return {
      {"epochs_done", epochs_done}, {"best_epoch", best_epoch}, {"best_bleu", best_bleu},
      {"best_loss", best_loss},     {"bad_epochs", bad_epochs}, {"learning_rate", learning_rate},
      {"seconds", seconds},         {"stopped", stopped},       {"batches", batches}};
}

ResumeState ResumeState::from_json(const nlohmann::json& j) {
  ResumeState s;
  s.epochs_done = integer_at<int>(j, "epochs_done");
  s.best_epoch = integer_at<int>(j, "best_epoch");
  s.best_bleu = field_at<double>(j, "best_bleu");
  s.best_loss = field_at<double>(j, "best_loss");
  s.bad_epochs = integer_at<int>(j, "bad_epochs");
  s.learning_rate = field_at<double>(j, "learning_rate");
  s.seconds = field_at<double>(j, "seconds");
  s.stopped = field_at<bool>(j, "stopped");
  if (j.contains("batches")) s.batches = integer_at<int64_t>(j, "batches");
  return s;
}

nlohmann::json model_settings(const ModelConfig& config) {
  // The config as the model file stores it, less what the corpus decides.
  nlohmann::json settings = config_to_json(config);
  for (const char* key : {"source_vocab", "target_vocab", "source_language", "target_language"})
    settings.erase(key);
  return settings;
}

nlohmann::json training_settings(const TrainOptions& o, const TokenizedPairs& training,
                                 const TokenizedPairs& validation) {
  nlohmann::json settings = model_settings(o.model);
  settings["training_corpus"] = fingerprint(training);
  settings["validation_corpus"] = fingerprint(validation);
  // A subword model's vocabulary is its pieces: the word frequency changes nothing.
  if (o.subwords == 0) settings["min_frequency"] = o.min_frequency;
  settings["subwords"] = o.subwords;
  settings["joint_subwords"] = o.joint_subwords;
  settings["batch_size"] = o.batch_size;
  settings["learning_rate"] = o.learning_rate;
  settings["label_smoothing"] = o.label_smoothing;
  settings["gradient_clip"] = o.gradient_clip;
  settings["seed"] = o.seed;
  // Written always (a state file is no shipped model), so that either side of a resume names
  // its architecture and warm-up.
  settings["arch"] = o.model.arch;
  settings["warmup_steps"] = o.warmup_steps;
  return settings;
}

std::vector<std::string> settings_differences(const nlohmann::json& stored,
                                              const nlohmann::json& now) {
  // Every state written before subword models existed is a word model's.
  nlohmann::json old = stored;
  if (!old.contains("subwords")) old["subwords"] = 0;
  // ... and every one written before the conditional GRU a plain GRU's.
  if (!old.contains("decoder")) old["decoder"] = kGruDecoder;
  if (!old.contains("joint_subwords")) old["joint_subwords"] = false;
  // ... and every one written before Transformers an RNN's, without warm-up.
  if (!old.contains("arch")) old["arch"] = kRnnArch;
  if (!old.contains("warmup_steps")) old["warmup_steps"] = 0;
  std::vector<std::string> differences;
  for (const auto& [key, label] : labels()) {
    if (!old.contains(key) || !now.contains(key) || old.at(key) == now.at(key)) continue;
    differences.push_back(std::string(label) + ": " + old.at(key).dump() + " in the state, " +
                          now.at(key).dump() + " now");
  }
  return differences;
}

std::string optimizer_bytes(torch::optim::Optimizer& optimizer) {
  std::ostringstream out;
  torch::serialize::OutputArchive archive;
  optimizer.save(archive);
  archive.save_to(out);
  return out.str();
}

void load_optimizer(torch::optim::Optimizer& optimizer, const torch::Tensor& bytes) {
  std::istringstream in(
      std::string(static_cast<const char*>(bytes.data_ptr()), static_cast<size_t>(bytes.numel())));
  torch::serialize::InputArchive archive;
  archive.load_from(in);
  optimizer.load(archive);
}

}  // namespace attnscope
