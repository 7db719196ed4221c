#pragma once
// The model file format. One file holds the config, both vocabularies, the training record
// and the weights:
//
//   "ATTNSCOPE-MODEL\n"   16 bytes, identifies the file
//   version               u32 little-endian: 1, 2 for a subword model, 3 for a cased one
//   header_bytes          u64 little-endian
//   header_crc32          u32 little-endian
//   header                JSON: config, vocabularies, training, extra, subwords, tensor table
//   data                  the tensors back to back; the table gives offset, size, dtype, CRC-32
//
// Version 2 adds subword models: the header's "subwords" is "sentencepiece" and two uint8
// tensors, "subwords.source" and "subwords.target", hold the serialized SentencePiece models
// whose pieces are the vocabularies. A word model is still written as version 1, which every
// attnscope reads; an older attnscope refuses a subword model by its version instead of reading
// its pieces as words. A character model is version 2 too, with "subwords": "characters" and no
// stored models.
//
// Version 3 adds cased models (config "cased": true): text is read as written, case and
// punctuation kept, before SentencePiece splits it. Only they are written as version 3.
//
// Every length and checksum is verified before anything is used, so a damaged file gives a
// one-line error instead of a crash. The score function's name is the one thing left to the
// model layer, which knows the names (model/model_file.h): this layer sits below it.
#include <torch/torch.h>

#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "attnscope/model_info.h"
#include "attnscope/vocabulary.h"
#include "io/subword_model.h"

namespace attnscope {

constexpr uint32_t kCheckpointVersion = 3;  // the newest version this attnscope reads
constexpr char kSentencePiece[] = "sentencepiece";
// A character model (the `dates` task): its vocabularies are single characters, "▁" before a
// word's first; it needs no stored segmentation model.
constexpr char kCharacters[] = "characters";

enum class StoredPrecision { kFloat32, kFloat16 };

struct Checkpoint {
  ModelConfig config;
  Vocabulary source_vocabulary;
  Vocabulary target_vocabulary;
  TrainingRecord training;
  // "" for a word model; kSentencePiece when text is split into pieces by the two models below
  // (read from the header, so also known with header_only; the models are not loaded then).
  std::string subwords;
  SubwordModel source_subwords, target_subwords;
  nlohmann::json extra = nlohmann::json::object();             // e.g. the trainer's resume state
  std::vector<std::pair<std::string, torch::Tensor>> tensors;  // float tensors, or uint8 blobs
  int64_t file_bytes = 0;                                      // set by load_checkpoint
  int64_t float_elements = 0;  // set by load_checkpoint: the parameter count of a model file
};

/// Writes atomically: a temporary file in the same folder, fsync, then rename over `path`.
/// Float tensors are stored with `precision` and read back as float32.
void save_checkpoint(const std::string& path, const Checkpoint& checkpoint,
                     StoredPrecision precision);

/// Throws std::runtime_error "model file 'path' ...: problem". header_only skips the weights
/// and the subword models.
Checkpoint load_checkpoint(const std::string& path, bool header_only = false);
/// The same checks on a whole file held in memory (`name` is used in messages; the fuzzer).
Checkpoint parse_checkpoint(const std::string& name, std::string_view bytes,
                            bool header_only = false);

/// Copies checkpoint tensors into a module's parameters, checking names and shapes.
void load_parameters(torch::nn::Module& module, const Checkpoint& checkpoint,
                     const std::string& path);
/// The module's parameters as checkpoint tensors.
std::vector<std::pair<std::string, torch::Tensor>> parameter_tensors(
    const torch::nn::Module& module);

/// `value` as an integer of type T. nlohmann's get<int>() casts a float such as 1e30 with
/// undefined behaviour; this throws std::invalid_argument naming `what` for anything that is
/// not an integer within T's range (the parser turns it into "has an invalid header").
template <typename T>
T integer_value(const nlohmann::json& value, const std::string& what) {
  if (value.is_number_unsigned()) {
    const auto v = value.get<uint64_t>();
    if (v <= static_cast<uint64_t>(std::numeric_limits<T>::max())) return static_cast<T>(v);
  } else if (value.is_number_integer()) {
    const auto v = value.get<int64_t>();
    const bool fits = v < 0 ? v >= static_cast<int64_t>(std::numeric_limits<T>::min())
                            : static_cast<uint64_t>(v) <= std::numeric_limits<T>::max();
    if (fits) return static_cast<T>(v);
  }
  throw std::invalid_argument("'" + what + "' is not an integer in range");
}

/// "a string", "a number", "a list", "true or false", "an object" or "null", for messages.
std::string json_kind(const nlohmann::json& value);

/// json[key] as a T, or std::invalid_argument naming the key: "'hidden' is missing",
/// "'seconds' is a string, not a number" (not the JSON library's own words, which name no key).
template <typename T>
T field_at(const nlohmann::json& json, const char* key) {
  if (!json.is_object() || !json.contains(key))
    throw std::invalid_argument("'" + std::string(key) + "' is missing");
  try {
    return json.at(key).get<T>();
  } catch (const nlohmann::json::exception&) {
    throw std::invalid_argument("'" + std::string(key) + "' is " + json_kind(json.at(key)) +
                                ", not " + json_kind(nlohmann::json(T{})));
  }
}

/// field_at(), or `fallback` when json has no `key` (a field later versions added).
template <typename T>
T field_or(const nlohmann::json& json, const char* key, T fallback) {
  return json.is_object() && json.contains(key) ? field_at<T>(json, key) : fallback;
}

/// integer_value() of json[key].
template <typename T>
T integer_at(const nlohmann::json& json, const char* key) {
  if (!json.is_object() || !json.contains(key))
    throw std::invalid_argument("'" + std::string(key) + "' is missing");
  return integer_value<T>(json.at(key), key);
}

nlohmann::json config_to_json(const ModelConfig& config);
ModelConfig config_from_json(const nlohmann::json& json);

}  // namespace attnscope
