// libattnscope_sentencepiece.so: see sentencepiece_shim.h for why it exists. Built without
// sanitizers: it runs in a link namespace that has no sanitizer runtime.
#include "io/sentencepiece_shim.h"

#include <sentencepiece_processor.h>
#include <sentencepiece_trainer.h>

#include <exception>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

namespace sp = sentencepiece;

void give(attnscope_spm_sink sink, void* context, const std::string& bytes) {
  sink(context, bytes.data(), bytes.size());
}

int fail(attnscope_spm_sink sink, void* context, const std::string& reason) {
  give(sink, context, reason);
  return 1;
}

// Runs `body` (which returns 0 or 1) with every exception turned into 1 and its reason given
// to `error`: no exception may cross into the engine's C++ runtime.
template <typename Body>
int guarded(attnscope_spm_sink error, void* context, Body&& body) {
  try {
    return body();
  } catch (const std::exception& e) {
    return fail(error, context, e.what());
  } catch (...) {
    return fail(error, context, "unknown error");
  }
}

const sp::SentencePieceProcessor& processor(const void* model) {
  return *static_cast<const sp::SentencePieceProcessor*>(model);
}

class Sentences : public sp::SentenceIterator {
 public:
  Sentences(const char* const* sentences, const size_t* sizes, size_t count)
      : sentences_(sentences), sizes_(sizes), count_(count) {
    load();
  }
  bool done() const override { return index_ >= count_; }
  void Next() override {
    ++index_;
    load();
  }
  const std::string& value() const override { return current_; }
  sp::util::Status status() const override { return {}; }

 private:
  void load() {
    if (!done()) current_.assign(sentences_[index_], sizes_[index_]);
  }
  const char* const* sentences_;
  const size_t* sizes_;
  size_t count_;
  size_t index_ = 0;
  std::string current_;
};

}  // namespace

extern "C" {

int attnscope_spm_learn(const char* const* sentences, const size_t* sizes, size_t count,
                        const char* const* options, size_t option_count, attnscope_spm_sink out,
                        void* context) {
  return guarded(out, context, [&] {
    std::unordered_map<std::string, std::string> flags;
    for (size_t i = 0; i < option_count; ++i) flags[options[2 * i]] = options[2 * i + 1];
    Sentences input(sentences, sizes, count);
    std::string model;
    const sp::util::Status status = sp::SentencePieceTrainer::Train(flags, &input, &model);
    if (!status.ok()) return fail(out, context, status.message());
    give(out, context, model);
    return 0;
  });
}

void* attnscope_spm_load(const char* bytes, size_t size, attnscope_spm_sink error, void* context) {
  sp::SentencePieceProcessor* loaded = nullptr;
  guarded(error, context, [&] {
    auto model = std::make_unique<sp::SentencePieceProcessor>();
    const sp::util::Status status = model->LoadFromSerializedProto(std::string(bytes, size));
    if (!status.ok()) return fail(error, context, status.message());
    loaded = model.release();
    return 0;
  });
  return loaded;
}

void attnscope_spm_release(void* model) { delete static_cast<sp::SentencePieceProcessor*>(model); }

int attnscope_spm_piece_count(const void* model) { return processor(model).GetPieceSize(); }

int attnscope_spm_piece(const void* model, int id, attnscope_spm_sink out, void* context) {
  if (id < 0 || id >= processor(model).GetPieceSize()) return 1;
  return guarded(out, context, [&] {
    give(out, context, processor(model).IdToPiece(id));
    return 0;
  });
}

int attnscope_spm_is_unknown(const void* model, int id) {
  if (id < 0 || id >= processor(model).GetPieceSize()) return 0;
  return processor(model).IsUnknown(id) ? 1 : 0;
}

int attnscope_spm_encode(const void* model, const char* text, size_t size, attnscope_spm_sink piece,
                         attnscope_spm_sink error, void* context) {
  return guarded(error, context, [&] {
    std::vector<std::string> pieces;
    const sp::util::Status status = processor(model).Encode(std::string(text, size), &pieces);
    if (!status.ok()) return fail(error, context, status.message());
    for (const auto& p : pieces) give(piece, context, p);
    return 0;
  });
}

int attnscope_spm_decode(const void* model, const char* const* pieces, const size_t* sizes,
                         size_t count, attnscope_spm_sink out, void* context) {
  return guarded(out, context, [&] {
    std::vector<std::string> input;
    for (size_t i = 0; i < count; ++i) input.emplace_back(pieces[i], sizes[i]);
    std::string text;
    const sp::util::Status status = processor(model).Decode(input, &text);
    if (!status.ok()) return fail(out, context, status.message());
    give(out, context, text);
    return 0;
  });
}

}  // extern "C"
