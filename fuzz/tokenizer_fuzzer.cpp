// libFuzzer target: the tokenizer takes any bytes (what a user types, what a corpus holds) and
// gives tokens that are non-empty, well-formed UTF-8 and free of whitespace and control bytes.
#include <attnscope/text.h>

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const bool valid = attnscope::is_valid_utf8(text);
  if (valid != (attnscope::first_invalid_utf8(text) == std::string_view::npos)) std::abort();
  if (!attnscope::is_valid_utf8(attnscope::to_lower(text))) std::abort();
  for (const std::string& token : attnscope::tokenize(text)) {
    if (token.empty() || !attnscope::is_valid_utf8(token)) std::abort();
    for (unsigned char c : token)
      if (c <= 0x20 || c == 0x7F) std::abort();
  }
  return 0;
}
