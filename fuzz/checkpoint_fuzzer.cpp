// libFuzzer target: the model file parser takes any bytes and either returns a checkpoint or
// throws std::runtime_error; never a crash, a hang or an absurd allocation. Built with
// FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION, which skips the CRC-32 checks so that mutations
// reach the JSON header, the tensor table and a subword model's embedded SentencePiece models.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "io/checkpoint.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  for (const bool header_only : {true, false}) {
    try {
      const attnscope::Checkpoint checkpoint =
          attnscope::parse_checkpoint("fuzz", bytes, header_only);
      // What the loader promises its callers.
      if (checkpoint.source_vocabulary.size() != checkpoint.config.source_vocab ||
          checkpoint.target_vocabulary.size() != checkpoint.config.target_vocab)
        __builtin_trap();
      // A subword model's SentencePiece models are whole and match the vocabularies, and
      // splitting a sentence with them works.
      if (!checkpoint.subwords.empty() && !header_only) {
        if (checkpoint.source_subwords.pieces() != checkpoint.source_vocabulary.tokens() ||
            checkpoint.target_subwords.pieces() != checkpoint.target_vocabulary.tokens())
          __builtin_trap();
        const std::vector<std::string> words = {"a", "dog", "runs", "über", "😀", "."};
        for (const auto* model : {&checkpoint.source_subwords, &checkpoint.target_subwords})
          model->decode(model->encode(words));
      }
    } catch (const std::runtime_error&) {
      // The expected outcome for almost every input: one line naming the problem.
    }
  }
  return 0;
}
