#include "engine/test_models.h"

#include <attnscope/trainer.h>
#include <attnscope/translator.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>

#include "io/checkpoint.h"
#include "model/seq2seq.h"
#include "model/transformer.h"

namespace attnscope::testing {

namespace {
namespace fs = std::filesystem;

const fs::path& test_root() {
  static const fs::path root = [] {
    std::string pattern = (fs::temp_directory_path() / "attnscope-test-XXXXXX").string();
    return fs::path(mkdtemp(pattern.data()));
  }();
  return root;
}

// Training on `train` and validating on `valid` (prefixes of .src and .tgt files), a
// tiny_config(score) model, everything else at TrainOptions' defaults.
TrainOptions corpus_training(const std::string& train, const std::string& valid,
                             const std::string& output, const std::string& score) {
  TrainOptions options;
  options.source_path = train + ".src";
  options.target_path = train + ".tgt";
  options.validation_source_path = valid + ".src";
  options.validation_target_path = valid + ".tgt";
  options.output_path = output;
  options.model = tiny_config(score);
  return options;
}

}  // namespace

std::string model_load_error(const std::string& path) {
  try {
    Translator translator(path);
    return "";
  } catch (const std::runtime_error& e) {
    return e.what();
  }
}

std::string temporary_folder() {
  static const bool cleanup_registered = [] {
    std::atexit([] {
      std::error_code ec;
      fs::remove_all(test_root(), ec);
    });
    return true;
  }();
  (void)cleanup_registered;
  static int counter = 0;
  const fs::path folder = test_root() / std::to_string(counter++);
  fs::create_directories(folder);
  return folder.string();
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string with_header(const std::string& path, const std::function<void(nlohmann::json&)>& edit,
                        const std::function<void(std::string&)>& edit_data) {
  const std::string bytes = read_bytes(path);
  uint64_t header_bytes = 0;
  std::memcpy(&header_bytes, bytes.data() + 20, 8);
  nlohmann::json header = nlohmann::json::parse(bytes.substr(32, header_bytes));
  edit(header);
  const std::string text = header.dump();
  std::string out = bytes.substr(0, 16) + bytes.substr(16, 4);
  const uint64_t size = text.size();
  const uint32_t crc =
      static_cast<uint32_t>(crc32_z(0, reinterpret_cast<const Bytef*>(text.data()), text.size()));
  out.append(reinterpret_cast<const char*>(&size), 8);
  out.append(reinterpret_cast<const char*>(&crc), 4);
  std::string data = bytes.substr(32 + header_bytes);
  if (edit_data) edit_data(data);
  return out + text + data;
}

std::string gzip(const std::string& text) {
  const std::string path = temporary_folder() + "/text.gz";
  gzFile f = gzopen(path.c_str(), "wb");
  gzwrite(f, text.data(), static_cast<unsigned>(text.size()));
  gzclose(f);
  return read_bytes(path);
}

std::string repeat_words(const std::string& word, int count) {
  std::string out;
  for (int i = 0; i < count; ++i) out += (i ? " " : "") + word;
  return out;
}

std::string write_task_corpus(const std::string& folder, const std::string& name, Task task,
                              int count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> length(3, 8), word(0, 19);
  const std::string prefix = folder + "/" + name;
  std::ofstream source(prefix + ".src"), target(prefix + ".tgt");
  for (int i = 0; i < count; ++i) {
    std::vector<std::string> words(static_cast<size_t>(length(rng)));
    for (auto& w : words) w = std::string(1, static_cast<char>('a' + word(rng)));
    std::vector<std::string> output = words;
    if (task == Task::kReverse) std::reverse(output.begin(), output.end());
    for (size_t j = 0; j < words.size(); ++j) source << (j ? " " : "") << words[j];
    for (size_t j = 0; j < output.size(); ++j) target << (j ? " " : "") << output[j];
    source << '\n';
    target << '\n';
  }
  return prefix;
}

std::string write_syllable_corpus(const std::string& folder, const std::string& name, int count,
                                  unsigned seed) {
  static const std::vector<std::string> syllables = {"ka", "lo", "mi", "ne",
                                                     "ru", "ta", "so", "vi"};
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> length(3, 7), syllable_count(1, 3), syllable(0, 7);
  const std::string prefix = folder + "/" + name;
  std::ofstream source(prefix + ".src"), target(prefix + ".tgt");
  for (int i = 0; i < count; ++i) {
    std::vector<std::string> words(static_cast<size_t>(length(rng)));
    for (auto& w : words)
      for (int k = syllable_count(rng); k > 0; --k) w += syllables[syllable(rng)];
    std::string first = words.front();
    first[0] = static_cast<char>(first[0] - 'a' + 'A');
    source << first;
    for (size_t j = 1; j < words.size(); ++j) source << ' ' << words[j];
    for (size_t j = words.size(); j-- > 0;) target << words[j] << ' ';
    source << ".\n";
    target << ".\n";
  }
  return prefix;
}

TrainOptions subword_training(const std::string& folder, const std::string& score, int pieces,
                              const std::string& output_name) {
  TrainOptions options = corpus_training(write_syllable_corpus(folder, "train", 600, 11),
                                         write_syllable_corpus(folder, "valid", 40, 12),
                                         folder + "/" + output_name, score);
  options.model.max_source_length = 40;
  options.subwords = pieces;
  options.batch_size = 32;
  return options;
}

std::string subword_model() {
  static const std::string path = [] {
    TrainOptions options =
        subword_training(temporary_folder(), "additive", 100, "subwords.attnmodel");
    options.epochs = 3;
    options.label_smoothing = 0.0;
    options.learning_rate = 3e-3;
    attnscope::train(options);
    return options.output_path;
  }();
  return path;
}

TrainOptions task_training(const std::string& folder, Task task, const std::string& score,
                           int train_pairs, int valid_pairs, unsigned seed,
                           const std::string& output_name) {
  return corpus_training(write_task_corpus(folder, "train", task, train_pairs, seed),
                         write_task_corpus(folder, "valid", task, valid_pairs, seed + 1),
                         folder + "/" + output_name, score);
}

std::string copy_model(const std::string& score) {
  static std::map<std::string, std::string> cache;
  if (auto it = cache.find(score); it != cache.end()) return it->second;
  TrainOptions options =
      task_training(temporary_folder(), Task::kCopy, score, 1200, 50, 1, score + ".attnmodel");
  options.epochs = 4;
  options.batch_size = 32;
  options.label_smoothing = 0.0;
  options.min_frequency = 1;
  options.learning_rate = 3e-3;
  attnscope::train(options);
  return cache[score] = options.output_path;
}

std::string random_model_file(const std::string& score, const std::string& decoder) {
  std::vector<std::string> words = Vocabulary::special_tokens();
  for (char c = 'a'; c <= 'j'; ++c) words.emplace_back(1, c);
  Checkpoint checkpoint;
  checkpoint.source_vocabulary = Vocabulary::from_tokens(words);
  checkpoint.target_vocabulary = Vocabulary::from_tokens(words);
  checkpoint.config =
      tiny_config(score, checkpoint.source_vocabulary.size(), checkpoint.target_vocabulary.size());
  checkpoint.config.decoder = decoder;
  torch::manual_seed(5);
  Seq2Seq model(checkpoint.config);
  checkpoint.tensors = parameter_tensors(*model);
  const std::string path = temporary_folder() + "/random-" + score + "-" + decoder + ".attnmodel";
  save_checkpoint(path, checkpoint, StoredPrecision::kFloat32);
  return path;
}

std::string random_transformer_file(bool shared_embeddings) {
  std::vector<std::string> words = Vocabulary::special_tokens();
  for (char c = 'a'; c <= 'j'; ++c) words.emplace_back(1, c);
  Checkpoint checkpoint;
  checkpoint.source_vocabulary = Vocabulary::from_tokens(words);
  checkpoint.target_vocabulary = Vocabulary::from_tokens(words);
  checkpoint.config = tiny_transformer_config(checkpoint.source_vocabulary.size(),
                                              checkpoint.target_vocabulary.size());
  checkpoint.config.shared_embeddings = shared_embeddings;
  torch::manual_seed(5);
  Transformer model(checkpoint.config);
  checkpoint.tensors = parameter_tensors(*model);
  const std::string path = temporary_folder() + "/random-transformer" +
                           (shared_embeddings ? "-shared" : "") + ".attnmodel";
  save_checkpoint(path, checkpoint, StoredPrecision::kFloat32);
  return path;
}

ModelConfig tiny_transformer_config(int64_t source_vocab, int64_t target_vocab) {
  ModelConfig config = tiny_config(kTransformerScore, source_vocab, target_vocab);
  config.arch = kTransformerArch;
  config.hidden = config.embedding;
  config.layers = 2;
  config.heads = 4;
  config.feed_forward = 32;
  return config;
}

ModelConfig tiny_config(const std::string& score, int64_t source_vocab, int64_t target_vocab) {
  ModelConfig config;
  config.score = score;
  config.source_vocab = source_vocab;
  config.target_vocab = target_vocab;
  config.embedding = 16;
  config.hidden = 32;
  config.attention = 32;
  config.dropout = 0.0;
  config.max_source_length = 20;
  return config;
}

int check_without_root(const std::function<bool()>& check) {
  const pid_t child = ::fork();
  if (child < 0) return 2;
  if (child == 0) {
    constexpr uid_t kNobody = 65534;
    if (::setgid(kNobody) != 0 || ::setuid(kNobody) != 0) ::_exit(2);
    ::_exit(check() ? 0 : 3);
  }
  int status = 0;
  if (::waitpid(child, &status, 0) != child || !WIFEXITED(status)) return 3;
  return WEXITSTATUS(status);
}

}  // namespace attnscope::testing
