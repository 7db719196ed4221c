#include "io/checkpoint.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "attnscope/errors.h"
#include "attnscope/output_file.h"

namespace attnscope {
namespace {

constexpr char kMagic[] = "ATTNSCOPE-MODEL\n";
constexpr size_t kMagicBytes = 16;
constexpr size_t kPreambleBytes = kMagicBytes + 4 + 8 + 4;
// Bounds that keep a damaged header from asking for absurd allocations.
constexpr int64_t kMaxVocabulary = 10'000'000;
constexpr int64_t kMaxDimension = 65'536;
constexpr int64_t kMaxLayers = 256;
constexpr uint64_t kMaxHeaderBytes = 1ull << 30;
// The tensors that hold a subword model's SentencePiece models, last in the file.
constexpr char kSourceSubwords[] = "subwords.source";
constexpr char kTargetSubwords[] = "subwords.target";

[[noreturn]] void fail(const std::string& path, const std::string& problem) {
  ATTNSCOPE_THROW_RUNTIME_ERROR("model file '", path, "' ", problem);
}

template <typename T>
T read_le(const char* bytes) {
  T value = 0;
  for (size_t i = 0; i < sizeof(T); ++i)
    value |= static_cast<T>(static_cast<unsigned char>(bytes[i])) << (8 * i);
  return value;
}

template <typename T>
void append_le(std::string& out, T value) {
  for (size_t i = 0; i < sizeof(T); ++i)
    out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}

uint32_t crc(const char* data, size_t size) {
  return static_cast<uint32_t>(crc32_z(0L, reinterpret_cast<const Bytef*>(data), size));
}

nlohmann::json training_to_json(const TrainingRecord& t) {
  nlohmann::json json = {{"corpus", t.corpus},
                         {"epochs", t.epochs},
                         {"best_epoch", t.best_epoch},
                         {"seconds", t.seconds},
                         {"validation_loss", t.validation_loss},
                         {"validation_bleu", t.validation_bleu},
                         {"test_bleu", t.test_bleu},
                         {"test_bleu_beam5", t.test_bleu_beam5},
                         {"test_corpus", t.test_corpus},
                         {"command", t.command},
                         {"seed", t.seed}};
  if (t.validation_accuracy >= 0) json["validation_accuracy"] = t.validation_accuracy;
  if (!t.examples.empty()) json["examples"] = t.examples;
  return json;
}

TrainingRecord training_from_json(const nlohmann::json& j) {
  TrainingRecord t;
  t.corpus = field_at<std::string>(j, "corpus");
  t.epochs = integer_at<int>(j, "epochs");
  t.best_epoch = integer_at<int>(j, "best_epoch");
  t.seconds = field_at<double>(j, "seconds");
  t.validation_loss = field_at<double>(j, "validation_loss");
  t.validation_bleu = field_at<double>(j, "validation_bleu");
  t.test_bleu = field_at<double>(j, "test_bleu");
  t.test_bleu_beam5 = field_at<double>(j, "test_bleu_beam5");
  t.test_corpus = field_at<std::string>(j, "test_corpus");
  t.command = field_at<std::string>(j, "command");
  t.seed = integer_at<uint64_t>(j, "seed");
  if (j.contains("validation_accuracy"))  // written for models of built-in tasks only
    t.validation_accuracy = field_at<double>(j, "validation_accuracy");
  if (j.contains("examples"))  // written since issue 35, for models of built-in tasks
    t.examples = field_at<std::vector<std::string>>(j, "examples");
  return t;
}

void check_dimension(const std::string& path, const char* name, int64_t value, int64_t max) {
  if (value <= 0 || value > max)
    fail(path, error_message("has an invalid config: ", name, " = ", value));
}

// More weights than any architecture of ModelConfig builds (every weight matrix's sides are
// among E, H..3H+E, A, L and the vocabularies; fewer than twenty matrices are not embeddings).
double parameter_upper_bound(const ModelConfig& c) {
  const double E = c.embedding, H = c.hidden, A = c.attention, L = c.max_source_length;
  const double square = E + 3 * H + A + 1;
  const double output = c.tied_readout ? 1 : 3 * H + E + 1;
  const double rnn = (static_cast<double>(c.source_vocab) + c.target_vocab) * (E + 1) +
                     static_cast<double>(c.target_vocab) * output + 20 * square * square +
                     (L + 1) * (H + 1);
  if (!c.transformer()) return rnn;
  // A Transformer layer: at most three attentions of four E × E matrices, two E × F matrices
  // and their biases and norms.
  const double F = c.feed_forward;
  return rnn + static_cast<double>(c.layers) * 2 * (12 * E * E + 2 * E * F + 20 * E + F);
}

// The Transformer's keys (ModelConfig::arch): their bounds, and what its model needs of them.
void check_transformer_config(const std::string& path, const ModelConfig& c) {
  if (!is_arch(c.arch))
    fail(path, error_message("has an invalid config: arch '", c.arch, "' (", kRnnArch, " or ",
                             kTransformerArch, ")"));
  if (!c.transformer()) return;
  check_dimension(path, "layers", c.layers, kMaxLayers);
  check_dimension(path, "heads", c.heads, c.embedding);
  check_dimension(path, "feed_forward", c.feed_forward, kMaxDimension);
  if (c.hidden != c.embedding)
    fail(path, error_message("has an invalid config: a Transformer's hidden size is its model ",
                             "size, embedding ", c.embedding, ", not ", c.hidden));
  if (c.embedding % c.heads != 0)
    fail(path, error_message("has an invalid config: ", c.heads, " heads do not divide the model ",
                             "size (embedding) ", c.embedding));
  if (c.shared_embeddings && c.source_vocab != c.target_vocab)
    fail(path, "has an invalid config: shared embeddings, and vocabularies of different sizes");
}

std::string dtype_name(torch::ScalarType type) {
  switch (type) {
    case torch::kFloat:
      return "f32";
    case torch::kHalf:
      return "f16";
    case torch::kByte:
      return "u8";
    default:
      ATTNSCOPE_THROW_INVALID_ARGUMENT("checkpoint cannot store tensors of type ", type);
  }
}

torch::ScalarType dtype_from_name(const std::string& path, const std::string& name) {
  if (name == "f32") return torch::kFloat;
  if (name == "f16") return torch::kHalf;
  if (name == "u8") return torch::kByte;
  fail(path, "is corrupted: unknown tensor type '" + name + "'");
}

// One side's SentencePiece model from its tensor's bytes.
SubwordModel read_subwords(const std::string& path, const char* side, const char* bytes,
                           uint64_t size, const Vocabulary& vocabulary) {
  SubwordModel model;
  try {
    model = SubwordModel::from_bytes(std::string(bytes, size));
  } catch (const std::invalid_argument& e) {
    fail(path, error_message("is corrupted: its ", side, " SentencePiece model cannot be read (",
                             e.what(), ")"));
  } catch (const std::runtime_error& e) {  // SentencePiece itself is missing
    fail(path, std::string("is a subword model: ") + e.what());
  }
  if (model.pieces() != vocabulary.tokens())
    fail(path, error_message("is corrupted: the pieces of its ", side,
                             " SentencePiece model differ from its ", side, " vocabulary"));
  return model;
}

// Parses and validates everything in the header; `data` holds the bytes after it (possibly
// fewer than the header promises, which is reported as truncation).
Checkpoint parse(const std::string& path, const std::string& header, const char* data,
                 uint64_t data_bytes, bool header_only) {
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(header);
  } catch (const nlohmann::json::exception& e) {
    fail(path, "is corrupted: its header is not valid JSON");
  }
  Checkpoint checkpoint;
  try {
    checkpoint.config = config_from_json(json.at("config"));
    checkpoint.training = training_from_json(json.at("training"));
    checkpoint.extra = json.at("extra");
    const ModelConfig& c = checkpoint.config;
    check_dimension(path, "source_vocab", c.source_vocab, kMaxVocabulary);
    check_dimension(path, "target_vocab", c.target_vocab, kMaxVocabulary);
    check_dimension(path, "embedding", c.embedding, kMaxDimension);
    check_dimension(path, "hidden", c.hidden, kMaxDimension);
    check_dimension(path, "attention", c.attention, kMaxDimension);
    check_dimension(path, "max_source_length", c.max_source_length, kMaxDimension);
    if (!(c.dropout >= 0.0 && c.dropout < 1.0))
      fail(path, error_message("has an invalid config: dropout = ", c.dropout));
    check_transformer_config(path, c);
    if (!is_decoder_kind(c.decoder))
      fail(path, error_message("has an invalid config: decoder '", c.decoder, "' (", kGruDecoder,
                               " or ", kConditionalGruDecoder, ")"));
    checkpoint.source_vocabulary =
        Vocabulary::from_tokens(field_at<std::vector<std::string>>(json, "source_vocabulary"));
    checkpoint.target_vocabulary =
        Vocabulary::from_tokens(field_at<std::vector<std::string>>(json, "target_vocabulary"));
    if (checkpoint.source_vocabulary.size() != c.source_vocab ||
        checkpoint.target_vocabulary.size() != c.target_vocab)
      fail(path, "is corrupted: vocabulary sizes differ from its config");
    if (json.contains("subwords")) {
      checkpoint.subwords = field_at<std::string>(json, "subwords");
      if (checkpoint.subwords != kSentencePiece && checkpoint.subwords != kCharacters)
        fail(path, "has an invalid header: unknown kind of subwords '" + checkpoint.subwords + "'");
    }
    if (c.cased && checkpoint.subwords != kSentencePiece)
      fail(path,
           "has an invalid config: a cased model reads text with SentencePiece, and it has "
           "no SentencePiece models");

    uint64_t expected_data = 0;
    for (const auto& entry : json.at("tensors")) {
      const auto name = field_at<std::string>(entry, "name");
      const auto type = dtype_from_name(path, field_at<std::string>(entry, "dtype"));
      std::vector<int64_t> shape;
      for (const auto& size : field_at<std::vector<nlohmann::json>>(entry, "shape"))
        shape.push_back(integer_value<int64_t>(size, "shape"));
      const auto offset = integer_at<uint64_t>(entry, "offset");
      const auto bytes = integer_at<uint64_t>(entry, "bytes");
      const auto checksum = integer_at<uint32_t>(entry, "crc32");
      uint64_t elements = 1;
      for (int64_t d : shape) {
        if (d < 0 || d > kMaxVocabulary * 16)
          fail(path, "is corrupted: tensor '" + name + "' has a bad shape");
        elements *= static_cast<uint64_t>(d);
        if (elements > (1ull << 34)) fail(path, "is corrupted: tensor '" + name + "' is too large");
      }
      if (bytes != elements * torch::elementSize(type) || offset != expected_data)
        fail(path, "is corrupted: the size or place of tensor '" + name + "' is wrong");
      expected_data = offset + bytes;
      if (type != torch::kByte) checkpoint.float_elements += static_cast<int64_t>(elements);
      if (header_only) continue;
      if (offset + bytes > data_bytes)
        fail(path, error_message("is truncated: expected ", bytes, " bytes of tensor '", name,
                                 "', found ", data_bytes > offset ? data_bytes - offset : 0));
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
      if (crc(data + offset, bytes) != checksum)
        fail(path, "is corrupted: checksum mismatch in tensor '" + name + "'");
#else
      (void)checksum;
#endif
      const bool source_subwords = name == kSourceSubwords,
                 target_subwords = name == kTargetSubwords;
      if (checkpoint.subwords == kSentencePiece && (source_subwords || target_subwords)) {
        if (type != torch::kByte) fail(path, "is corrupted: tensor '" + name + "' is not bytes");
        (source_subwords ? checkpoint.source_subwords : checkpoint.target_subwords) = read_subwords(
            path, source_subwords ? "source" : "target", data + offset, bytes,
            source_subwords ? checkpoint.source_vocabulary : checkpoint.target_vocabulary);
        continue;
      }
      torch::Tensor tensor = torch::empty(shape, torch::TensorOptions().dtype(type));
      // An empty tensor has no storage: memcpy's pointers must not be null even for 0 bytes.
      if (bytes > 0) std::memcpy(tensor.data_ptr(), data + offset, bytes);
      if (type == torch::kHalf) tensor = tensor.to(torch::kFloat);
      checkpoint.tensors.emplace_back(name, tensor);
    }
    if (expected_data < data_bytes)
      fail(path, error_message("is corrupted: ", data_bytes - expected_data,
                               " unexpected bytes after the last tensor"));
    if (!header_only && checkpoint.subwords == kSentencePiece) {
      if (checkpoint.source_subwords.empty())
        fail(path, std::string("lacks its source SentencePiece model (tensor '") + kSourceSubwords +
                       "')");
      if (checkpoint.target_subwords.empty())
        fail(path, std::string("lacks its target SentencePiece model (tensor '") + kTargetSubwords +
                       "')");
    }
    if (header_only && expected_data > data_bytes)
      fail(path, error_message("is truncated: expected ", expected_data,
                               " bytes of weights, found ", data_bytes));
    // The model is built from the config before the weights are copied in: a config far larger
    // than the weights the file holds (a crafted header) would allocate gigabytes first. A real
    // file stays ~20x below this bound; the slack keeps tiny test models clear of it.
    if (!header_only &&
        parameter_upper_bound(c) > 64.0 * static_cast<double>(checkpoint.float_elements) + 1e6)
      fail(path, error_message("is corrupted: its config needs far more weights than the ",
                               checkpoint.float_elements, " it holds"));
  } catch (const nlohmann::json::exception& e) {
    fail(path, std::string("has an invalid header: ") + e.what());
  } catch (const std::invalid_argument& e) {
    fail(path, std::string("has an invalid header: ") + e.what());
  }
  return checkpoint;
}

}  // namespace

std::string json_kind(const nlohmann::json& value) {
  if (value.is_string()) return "a string";
  if (value.is_number()) return "a number";
  if (value.is_array()) return "a list";
  if (value.is_boolean()) return "true or false";
  if (value.is_object()) return "an object";
  return "null";
}

nlohmann::json config_to_json(const ModelConfig& c) {
  nlohmann::json j = {{"score", c.score},
                      {"source_language", c.source_language},
                      {"target_language", c.target_language},
                      {"source_vocab", c.source_vocab},
                      {"target_vocab", c.target_vocab},
                      {"embedding", c.embedding},
                      {"hidden", c.hidden},
                      {"attention", c.attention},
                      {"tied_readout", c.tied_readout},
                      {"decoder", c.decoder},
                      {"dropout", c.dropout},
                      {"max_source_length", c.max_source_length}};
  if (c.cased) j["cased"] = true;  // files from before cased models stay as they were
  if (c.transformer()) {           // an RNN's file stays as it was, byte for byte
    j["arch"] = c.arch;
    j["layers"] = c.layers;
    j["heads"] = c.heads;
    j["feed_forward"] = c.feed_forward;
    j["shared_embeddings"] = c.shared_embeddings;
  }
  return j;
}

ModelConfig config_from_json(const nlohmann::json& j) {
  ModelConfig c;
  c.score = field_at<std::string>(j, "score");
  c.source_language = field_at<std::string>(j, "source_language");
  c.target_language = field_at<std::string>(j, "target_language");
  c.source_vocab = integer_at<int64_t>(j, "source_vocab");
  c.target_vocab = integer_at<int64_t>(j, "target_vocab");
  c.embedding = integer_at<int64_t>(j, "embedding");
  c.hidden = integer_at<int64_t>(j, "hidden");
  c.attention = integer_at<int64_t>(j, "attention");
  c.tied_readout = field_at<bool>(j, "tied_readout");
  c.decoder = field_or(j, "decoder", std::string(kGruDecoder));
  c.dropout = field_at<double>(j, "dropout");
  c.cased = field_or(j, "cased", false);
  c.max_source_length = integer_at<int64_t>(j, "max_source_length");
  c.arch = field_or(j, "arch", std::string(kRnnArch));
  if (c.transformer()) {
    c.layers = integer_at<int64_t>(j, "layers");
    c.heads = integer_at<int64_t>(j, "heads");
    c.feed_forward = integer_at<int64_t>(j, "feed_forward");
    c.shared_embeddings = field_at<bool>(j, "shared_embeddings");
  }
  return c;
}

void save_checkpoint(const std::string& path, const Checkpoint& checkpoint,
                     StoredPrecision precision) {
  const bool subwords = !checkpoint.subwords.empty();
  const bool sentencepiece = checkpoint.subwords == kSentencePiece;
  if (subwords &&
      !(sentencepiece ? !checkpoint.source_subwords.empty() && !checkpoint.target_subwords.empty()
                      : checkpoint.subwords == kCharacters))
    ATTNSCOPE_THROW_INVALID_ARGUMENT("checkpoint: subwords '", checkpoint.subwords,
                                     "' need both SentencePiece models");
  auto tensors = checkpoint.tensors;
  if (sentencepiece) {
    for (const auto& [name, model] : {std::pair{kSourceSubwords, &checkpoint.source_subwords},
                                      std::pair{kTargetSubwords, &checkpoint.target_subwords}}) {
      const std::string& bytes = model->bytes();
      torch::Tensor blob = torch::empty({static_cast<int64_t>(bytes.size())}, torch::kByte);
      if (!bytes.empty()) std::memcpy(blob.data_ptr(), bytes.data(), bytes.size());
      tensors.emplace_back(name, blob);
    }
  }
  std::string data;
  nlohmann::json table = nlohmann::json::array();
  for (const auto& [name, original] : tensors) {
    torch::Tensor tensor = original.detach().to(torch::kCPU);
    if (tensor.is_floating_point())
      tensor = tensor.to(precision == StoredPrecision::kFloat16 ? torch::kHalf : torch::kFloat);
    tensor = tensor.contiguous();
    const size_t bytes = tensor.numel() * tensor.element_size();
    const char* raw = static_cast<const char*>(tensor.data_ptr());
    table.push_back({{"name", name},
                     {"dtype", dtype_name(tensor.scalar_type())},
                     {"shape", tensor.sizes().vec()},
                     {"offset", data.size()},
                     {"bytes", bytes},
                     {"crc32", crc(raw, bytes)}});
    data.append(raw, bytes);
  }
  nlohmann::json header = {{"config", config_to_json(checkpoint.config)},
                           {"source_vocabulary", checkpoint.source_vocabulary.tokens()},
                           {"target_vocabulary", checkpoint.target_vocabulary.tokens()},
                           {"training", training_to_json(checkpoint.training)},
                           {"extra", checkpoint.extra},
                           {"tensors", table}};
  if (subwords) header["subwords"] = checkpoint.subwords;
  const std::string header_text = header.dump();
  std::string preamble(kMagic, kMagicBytes);
  // A word model needs nothing of version 2, nor a lowercase subword model of version 3: older
  // attnscope builds keep reading them, and refuse a cased model rather than lowercase its text.
  append_le<uint32_t>(preamble, checkpoint.config.cased ? 3u : subwords ? 2u : 1u);
  append_le<uint64_t>(preamble, header_text.size());
  append_le<uint32_t>(preamble, crc(header_text.data(), header_text.size()));

  // rename() would replace whatever is there: as root, even /dev/null. Only a regular file (or
  // nothing) may be replaced.
  struct stat existing {};
  if (::stat(path.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode))
    ATTNSCOPE_THROW_RUNTIME_ERROR(
        "cannot write model file '", path, "': ",
        S_ISDIR(existing.st_mode) ? "it is a directory" : "it exists and is not a regular file");
  OutputFile file("model file", path);
  file.write(preamble);
  file.write(header_text);
  file.write(data);
  file.commit();
}

namespace {

struct Preamble {
  uint64_t header_bytes = 0;
  uint32_t header_crc = 0;
};

// Checks the fixed-size start of a file of `file_bytes` bytes; `preamble` holds its first
// min(file_bytes, kPreambleBytes) bytes.
Preamble check_preamble(const std::string& path, std::string_view preamble, uint64_t file_bytes) {
  if (file_bytes == 0) fail(path, "is empty");
  const size_t magic_seen = std::min(preamble.size(), kMagicBytes);
  if (std::memcmp(preamble.data(), kMagic, magic_seen) != 0)
    fail(path, "is not an attnscope model file, nor a TorchScript module (a zip archive)");
  if (preamble.size() < kPreambleBytes)
    fail(path, error_message("is truncated: ", file_bytes, " bytes, not even a header"));
  const auto version = read_le<uint32_t>(preamble.data() + kMagicBytes);
  Preamble p;
  p.header_bytes = read_le<uint64_t>(preamble.data() + kMagicBytes + 4);
  p.header_crc = read_le<uint32_t>(preamble.data() + kMagicBytes + 12);
  if (version > kCheckpointVersion)
    fail(path, error_message("has format version ", version, "; this attnscope reads version ",
                             kCheckpointVersion, " (a newer attnscope wrote it)"));
  if (version == 0) fail(path, "is corrupted: format version 0");
  if (p.header_bytes > kMaxHeaderBytes) fail(path, "is corrupted: impossible header size");
  if (kPreambleBytes + p.header_bytes > file_bytes)
    fail(path, error_message("is truncated: expected a header of ", p.header_bytes,
                             " bytes, found ", file_bytes - kPreambleBytes));
  return p;
}

void check_header_crc(const std::string& path, std::string_view header, uint32_t expected) {
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION  // let the fuzzer past the checksum
  if (crc(header.data(), header.size()) != expected)
    fail(path, "is corrupted: header checksum mismatch");
#else
  (void)path, (void)header, (void)expected;
#endif
}

}  // namespace

Checkpoint load_checkpoint(const std::string& path, bool header_only) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (ec && ec != std::errc::no_such_file_or_directory)  // a symlink loop, a locked folder
    fail(path, "cannot be read: " + ec.message());
  if (!fs::exists(status)) fail(path, "does not exist");
  if (fs::is_directory(status)) fail(path, "is a directory");
  // Opening a FIFO would wait for a writer forever; a device has no size to check.
  if (!fs::is_regular_file(status)) fail(path, "is not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, std::string("cannot be read: ") + std::strerror(errno));
  in.seekg(0, std::ios::end);
  const auto file_bytes = static_cast<uint64_t>(std::max<std::streamoff>(0, in.tellg()));
  in.seekg(0);

  std::string preamble(std::min<uint64_t>(file_bytes, kPreambleBytes), '\0');
  in.read(preamble.data(), static_cast<std::streamsize>(preamble.size()));
  const Preamble p = check_preamble(path, preamble, file_bytes);
  std::string header(p.header_bytes, '\0');
  in.read(header.data(), static_cast<std::streamsize>(p.header_bytes));
  if (!in) fail(path, std::string("cannot be read: ") + std::strerror(errno));
  check_header_crc(path, header, p.header_crc);

  const uint64_t data_bytes = file_bytes - kPreambleBytes - p.header_bytes;
  std::string data;
  if (!header_only) {
    data.resize(data_bytes);
    in.read(data.data(), static_cast<std::streamsize>(data_bytes));
    if (!in) fail(path, std::string("cannot be read: ") + std::strerror(errno));
  }
  Checkpoint checkpoint = parse(path, header, data.data(), data_bytes, header_only);
  checkpoint.file_bytes = static_cast<int64_t>(file_bytes);
  return checkpoint;
}

Checkpoint parse_checkpoint(const std::string& name, std::string_view bytes, bool header_only) {
  const Preamble p = check_preamble(name, bytes.substr(0, kPreambleBytes), bytes.size());
  const std::string header(bytes.substr(kPreambleBytes, p.header_bytes));
  check_header_crc(name, header, p.header_crc);
  const std::string_view data = bytes.substr(kPreambleBytes + p.header_bytes);
  Checkpoint checkpoint = parse(name, header, data.data(), data.size(), header_only);
  checkpoint.file_bytes = static_cast<int64_t>(bytes.size());
  return checkpoint;
}

void load_parameters(torch::nn::Module& module, const Checkpoint& checkpoint,
                     const std::string& path) {
  std::unordered_map<std::string, const torch::Tensor*> stored;
  for (const auto& [name, tensor] : checkpoint.tensors) stored.emplace(name, &tensor);
  torch::NoGradGuard no_grad;
  for (auto& item : module.named_parameters()) {
    const auto it = stored.find(item.key());
    if (it == stored.end()) fail(path, "lacks tensor '" + item.key() + "'");
    const torch::Tensor& source = *it->second;
    if (source.sizes() != item.value().sizes())
      fail(path, error_message("has tensor '", item.key(), "' of shape ", source.sizes(),
                               ", the model needs ", item.value().sizes()));
    item.value().copy_(source);
  }
}

std::vector<std::pair<std::string, torch::Tensor>> parameter_tensors(
    const torch::nn::Module& module) {
  std::vector<std::pair<std::string, torch::Tensor>> tensors;
  for (const auto& item : module.named_parameters()) tensors.emplace_back(item.key(), item.value());
  return tensors;
}

}  // namespace attnscope
