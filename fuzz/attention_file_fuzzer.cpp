// libFuzzer target: the attention file parser takes any bytes and either returns a matrix that
// keeps its contract (one row per target token, each as long as the source, weights finite in
// [0, 1], at most kMaxAttentionTokens a side) or throws std::invalid_argument with one line of
// UTF-8; never a crash, a hang or an absurd allocation.
//
// Input: byte 0 picks the format (automatic or one of four), byte 1 the line (1–4), byte 2 the
// flags (1-based indices; the source sentence as text); the rest is the attention file, the
// source sentences and the target sentences, separated by NUL bytes.
#include <attnscope/attention_file.h>
#include <attnscope/text.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string_view>

namespace {

using namespace attnscope;

void check(const AttentionFile& f) {
  if (f.weights.size() != f.target_tokens.size() || f.source_tokens.empty() ||
      f.source_tokens.size() > kMaxAttentionTokens + 1 ||
      f.target_tokens.size() > kMaxAttentionTokens + 1)
    __builtin_trap();
  for (const auto& row : f.weights) {
    if (row.size() != f.source_tokens.size()) __builtin_trap();
    for (double w : row)
      if (!std::isfinite(w) || w < 0.0 || w > 1.0 + 1e-6) __builtin_trap();
  }
  if (f.has_possible_links()) {
    if (f.possible.size() != f.weights.size()) __builtin_trap();
    for (const auto& row : f.possible)
      if (row.size() != f.source_tokens.size()) __builtin_trap();
  }
  if (!f.unknown_source.empty() && f.unknown_source.size() != f.source_tokens.size())
    __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 3) return 0;
  std::string_view rest(reinterpret_cast<const char*>(data) + 3, size - 3);
  std::string_view parts[3];
  for (auto& part : parts) {
    const size_t end = rest.find('\0');
    part = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
  }
  AttentionFileOptions options;
  constexpr AttentionFileFormat kFormats[] = {AttentionFileFormat::Json, AttentionFileFormat::Csv,
                                              AttentionFileFormat::Pharaoh,
                                              AttentionFileFormat::MarianSoft};
  if (data[0] % 5 != 0) options.format = kFormats[data[0] % 5 - 1];
  options.line = 1 + data[1] % 4;
  options.one_based = data[2] & 1;
  if (data[2] & 2) options.source_text = std::string(parts[1]);
  try {
    check(parse_attention_file({"fuzz", parts[0]}, options, NamedText{"src", parts[1]},
                               NamedText{"tgt", parts[2]}));
  } catch (const std::invalid_argument& e) {
    const std::string_view message = e.what();
    if (message.find('\n') != std::string_view::npos || !is_valid_utf8(message)) __builtin_trap();
  }
  return 0;
}
