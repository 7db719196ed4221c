#include "io/subword_model.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string_view>
#include <type_traits>
#include <utility>

#include "attnscope/errors.h"
#include "attnscope/text.h"
#include "attnscope/vocabulary.h"
#include "io/sentencepiece_shim.h"

namespace attnscope {
namespace {

// libattnscope_sentencepiece.so's functions, loaded once into a link namespace of their own
// (see sentencepiece_shim.h for why).
struct Shim {
  decltype(&attnscope_spm_learn) learn = nullptr;
  decltype(&attnscope_spm_load) load = nullptr;
  decltype(&attnscope_spm_release) release = nullptr;
  decltype(&attnscope_spm_piece_count) piece_count = nullptr;
  decltype(&attnscope_spm_piece) piece = nullptr;
  decltype(&attnscope_spm_is_unknown) is_unknown = nullptr;
  decltype(&attnscope_spm_encode) encode = nullptr;
  decltype(&attnscope_spm_decode) decode = nullptr;
};

// Installed beside the executables' lib folder, or in the build tree.
std::vector<std::string> shim_paths() {
  namespace fs = std::filesystem;
  std::vector<std::string> paths;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec)
    paths.push_back(
        (exe.parent_path() / ".." / ATTNSCOPE_SENTENCEPIECE_INSTALL_PATH).lexically_normal());
  paths.emplace_back(ATTNSCOPE_SENTENCEPIECE_BUILD_PATH);
  return paths;
}

Shim load_shim() {
  std::string tried;
  for (const auto& path : shim_paths()) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
      tried += (tried.empty() ? "'" : ", '") + path + "'";
      continue;
    }
    void* library = ::dlmopen(LM_ID_NEWLM, path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr)
      ATTNSCOPE_THROW_RUNTIME_ERROR("cannot load SentencePiece from '", path, "': ", ::dlerror());
    Shim shim;
    auto bind = [&](auto& function, const char* name) {
      function =
          reinterpret_cast<std::remove_reference_t<decltype(function)>>(::dlsym(library, name));
      if (function == nullptr)
        ATTNSCOPE_THROW_RUNTIME_ERROR("'", path, "' lacks ", name, ": another attnscope's file?");
    };
    bind(shim.learn, "attnscope_spm_learn");
    bind(shim.load, "attnscope_spm_load");
    bind(shim.release, "attnscope_spm_release");
    bind(shim.piece_count, "attnscope_spm_piece_count");
    bind(shim.piece, "attnscope_spm_piece");
    bind(shim.is_unknown, "attnscope_spm_is_unknown");
    bind(shim.encode, "attnscope_spm_encode");
    bind(shim.decode, "attnscope_spm_decode");
    return shim;
  }
  ATTNSCOPE_THROW_RUNTIME_ERROR("SentencePiece is missing: no libattnscope_sentencepiece.so at ",
                                tried);
}

const Shim& shim() {
  static const Shim loaded = load_shim();  // a failed load throws, and is tried again next time
  return loaded;
}

// Sinks for the shim's results. They do not throw (an exception must not cross into the shim's
// C++ runtime); a failed allocation ends the process, as it would anywhere else.
void assign(void* context, const char* bytes, size_t size) noexcept {
  static_cast<std::string*>(context)->assign(bytes, size);
}

// SentencePiece takes far more than linear time in a word's length (a 1 MB word: 25 s). No word
// comes near this length; a longer token is kept whole, one piece unknown to the model.
constexpr size_t kLongestSplitToken = 1000;

// Byte fallback adds 256 pieces, one per byte; from this size on they are at most a quarter of
// the vocabulary. Smaller models (tests, built-in tasks) keep <unk> for an unseen character.
constexpr int kSmallestByteFallbackModel = 1000;

// Strings as the shim takes them: pointers and sizes (no std::string crosses into its runtime).
struct Spans {
  explicit Spans(const std::vector<std::string>& strings) {
    for (const auto& s : strings) {
      data.push_back(s.data());
      sizes.push_back(s.size());
    }
  }
  std::vector<const char*> data;
  std::vector<size_t> sizes;
};

// SentencePiece's messages as one line.
std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return text;
}

// A minimal walk over protobuf's wire format, enough to look into a serialized ModelProto
// before SentencePiece does. SentencePiece reads a normaliser's precompiled character map as a
// trie without bounds checks when it encodes: a crafted map in a model file could make it read
// past its buffer. attnscope's models normalise nothing (tokenize() already did), so a model
// with a map is refused before SentencePiece sees it.
struct WireField {
  uint64_t number = 0;
  int type = 0;              // 0 varint, 1 fixed64, 2 length-delimited, 5 fixed32
  std::string_view payload;  // type 2 only
};

// Calls `visit` with each field of a protobuf message, in order; throws std::invalid_argument
// when the bytes are not protobuf.
template <typename Visit>
void for_each_field(std::string_view bytes, Visit visit) {
  size_t at = 0;
  auto fail = [] { ATTNSCOPE_THROW_INVALID_ARGUMENT("it is not a SentencePiece model"); };
  auto varint = [&] {
    uint64_t value = 0;
    for (int shift = 0; shift < 64 && at < bytes.size(); shift += 7) {
      const auto byte = static_cast<unsigned char>(bytes[at++]);
      value |= static_cast<uint64_t>(byte & 0x7F) << shift;
      if ((byte & 0x80) == 0) return value;
    }
    fail();
    return value;
  };
  auto skip = [&](uint64_t n) {
    if (n > bytes.size() - at) fail();
    at += n;
  };
  while (at < bytes.size()) {
    WireField field;
    const uint64_t key = varint();
    field.number = key >> 3;
    field.type = static_cast<int>(key & 7);
    if (field.type == 0) {
      varint();
    } else if (field.type == 1 || field.type == 5) {
      skip(field.type == 1 ? 8 : 4);
    } else if (field.type == 2) {
      const uint64_t length = varint();
      skip(length);
      field.payload = bytes.substr(at - length, length);
    } else {
      fail();  // groups (deprecated) and reserved types: no SentencePiece model has them
    }
    visit(field);
  }
}

// ModelProto's normalizer_spec (3) and denormalizer_spec (5): NormalizerSpec, whose field 2 is
// precompiled_charmap.
constexpr uint64_t kNormalizerSpec = 3, kDenormalizerSpec = 5, kPrecompiledCharmap = 2;

void check_wire_format(std::string_view bytes) {
  for_each_field(bytes, [](const WireField& field) {
    if ((field.number != kNormalizerSpec && field.number != kDenormalizerSpec) || field.type != 2)
      return;
    for_each_field(field.payload, [](const WireField& spec) {
      if (spec.number == kPrecompiledCharmap && !spec.payload.empty())
        ATTNSCOPE_THROW_INVALID_ARGUMENT(
            "it normalises text with a precompiled character map; attnscope's models use none");
    });
  });
}

}  // namespace

SubwordModel SubwordModel::learn(const std::vector<std::vector<std::string>>& sentences,
                                 int pieces) {
  // BPE over words: SentencePiece's defaults split at spaces, so no piece spans two tokens.
  // The ids 0-3 are attnscope's special tokens; no normalisation (tokenize() lowercased and
  // NFC-normalised already, and decoding must give those tokens back); every character is
  // kept; one thread and no sampling of sentences, so the result depends on nothing but the
  // corpus and the size. Byte fallback spells a character never seen in training ("ł") as the
  // pieces of its UTF-8 bytes instead of <unk>; every character of the corpus still has a piece
  // of its own (character coverage 1.0), so training text never needs the byte pieces.
  const auto& specials = Vocabulary::special_tokens();
  const bool byte_fallback = pieces >= kSmallestByteFallbackModel;
  const std::vector<std::pair<std::string, std::string>> flags = {
      {"model_type", "bpe"},
      {"vocab_size", std::to_string(pieces)},
      {"hard_vocab_limit", "false"},
      {"character_coverage", "1.0"},
      {"byte_fallback", byte_fallback ? "true" : "false"},
      {"normalization_rule_name", "identity"},
      {"add_dummy_prefix", "true"},
      {"remove_extra_whitespaces", "true"},
      {"split_by_whitespace", "true"},
      {"pad_id", "0"},
      {"unk_id", "1"},
      {"bos_id", "2"},
      {"eos_id", "3"},
      {"pad_piece", specials[0]},
      {"unk_piece", specials[1]},
      {"bos_piece", specials[2]},
      {"eos_piece", specials[3]},
      {"input_sentence_size", "0"},
      {"num_threads", "1"},
      {"minloglevel", "2"},  // its progress log would drown the trainer's own lines
  };
  std::vector<const char*> options;
  for (const auto& [key, value] : flags) {
    options.push_back(key.c_str());
    options.push_back(value.c_str());
  }
  std::vector<std::string> text;
  text.reserve(sentences.size());
  for (const auto& sentence : sentences) text.push_back(join_tokens(sentence));
  const Spans input(text);
  std::string result;
  if (shim().learn(input.data.data(), input.sizes.data(), text.size(), options.data(), flags.size(),
                   assign, &result) != 0)
    ATTNSCOPE_THROW_INVALID_ARGUMENT(one_line(result));
  return from_bytes(std::move(result));
}

SubwordModel SubwordModel::from_bytes(std::string bytes) {
  check_wire_format(bytes);
  const Shim& api = shim();
  std::string error;
  void* handle = api.load(bytes.data(), bytes.size(), assign, &error);
  if (handle == nullptr) ATTNSCOPE_THROW_INVALID_ARGUMENT(one_line(error));
  SubwordModel model;
  model.handle_ = std::shared_ptr<void>(handle, api.release);
  model.bytes_ = std::move(bytes);
  const int count = api.piece_count(handle);
  for (int id = 0; id < count; ++id) {
    std::string piece;
    if (api.piece(handle, id, assign, &piece) != 0)
      ATTNSCOPE_THROW_INVALID_ARGUMENT("its piece ", id, " cannot be read: ", one_line(piece));
    model.pieces_.push_back(std::move(piece));
  }
  const auto& specials = Vocabulary::special_tokens();
  const bool specials_first = model.pieces_.size() > specials.size() &&
                              std::equal(specials.begin(), specials.end(), model.pieces_.begin()) &&
                              api.is_unknown(handle, static_cast<int>(Vocabulary::kUnk)) == 1;
  if (!specials_first)
    ATTNSCOPE_THROW_INVALID_ARGUMENT(
        "its first pieces are not <pad> <unk> <s> </s> followed by others");
  return model;
}

std::vector<std::string> SubwordModel::encode(const std::vector<std::string>& tokens) const {
  struct Output {
    std::vector<std::string> pieces;
    std::string error;
  } output;
  if (empty()) return output.pieces;
  const auto piece = [](void* context, const char* bytes, size_t size) noexcept {
    static_cast<Output*>(context)->pieces.emplace_back(bytes, size);
  };
  const auto error = [](void* context, const char* bytes, size_t size) noexcept {
    static_cast<Output*>(context)->error.assign(bytes, size);
  };
  std::vector<std::string> run;  // tokens SentencePiece splits in one call
  auto encode_run = [&] {
    if (run.empty()) return;
    const std::string text = join_tokens(run);
    if (shim().encode(handle_.get(), text.data(), text.size(), piece, error, &output) != 0)
      ATTNSCOPE_THROW_RUNTIME_ERROR("SentencePiece: ", one_line(output.error));
    run.clear();
  };
  for (const auto& token : tokens) {
    if (token.size() <= kLongestSplitToken) {
      run.push_back(token);
      continue;
    }
    encode_run();
    output.pieces.push_back(kWordStart + token);
  }
  encode_run();
  return output.pieces;
}

std::string SubwordModel::decode(const std::vector<std::string>& pieces) const {
  std::string text;
  if (empty()) return text;
  const Spans input(pieces);
  if (shim().decode(handle_.get(), input.data.data(), input.sizes.data(), pieces.size(), assign,
                    &text) != 0)
    ATTNSCOPE_THROW_RUNTIME_ERROR("SentencePiece: ", one_line(text));
  return text;
}

}  // namespace attnscope
