#pragma once
// Pieces every attention file parser shares: finding line N without splitting the whole file,
// tokens with a cap, numbers that are checked, and errors that name the file and the line.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "attnscope/attention_file.h"
#include "attnscope/errors.h"

namespace attnscope::attention_text {

/// Throws std::invalid_argument("'name' line N: problem").
template <typename... Parts>
[[noreturn]] void fail_at(const std::string& name, size_t line, const Parts&... parts) {
  ATTNSCOPE_THROW_INVALID_ARGUMENT("'", name, "' line ", line, ": ", parts...);
}

/// The first `bytes` of `text`, cut at a character boundary, with "…" when something was cut.
std::string shortened(std::string_view text, size_t bytes);
/// `text` quoted for a message: its first 40 bytes (cut at a character boundary) and "…".
std::string shown(std::string_view text);
/// The text without a UTF-8 byte order mark.
std::string_view without_bom(std::string_view text);
/// Lines in the text (a last line without newline counts; a final newline starts none).
size_t count_lines(std::string_view text);
/// Line `number` (1-based) without its line end; throws naming the file when there is no such
/// line (the message says what the line was wanted for, e.g. "the source sentence"), or when the
/// line is not UTF-8. Linear in the text, no allocation: files may hold millions of lines.
std::string_view line_at(const NamedText& file, size_t number, std::string_view wanted_for);
/// Throws naming the file and line when `line` is not UTF-8.
void check_utf8(const NamedText& file, size_t number, std::string_view line);

/// Calls `word(std::string_view)` for each piece between runs of spaces and tabs, in order.
template <typename Word>
void for_each_word(std::string_view line, Word&& word) {
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i == line.size()) return;
    size_t end = i;
    while (end < line.size() && line[end] != ' ' && line[end] != '\t') ++end;
    word(line.substr(i, end - i));
    i = end;
  }
}

/// Throws naming the line and column of the first byte of `text` (a whole file) that is not UTF-8.
void check_utf8_text(const NamedText& file, std::string_view text);

/// Splits on runs of spaces and tabs; throws when the line has more than kMaxAttentionTokens
/// tokens (found without collecting the rest of them).
std::vector<std::string> split_tokens(std::string_view line, const std::string& name,
                                      size_t number);
/// Calls `piece(std::string_view)` for each piece between `separator`s, empty ones included;
/// nothing is collected, so a line of a million separators costs no memory.
template <typename Piece>
void for_each_piece(std::string_view text, char separator, Piece&& piece) {
  for (size_t start = 0;;) {
    const size_t end = text.find(separator, start);
    piece(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) return;
    start = end + 1;
  }
}
std::string_view trim(std::string_view text);

/// A weight: a plain decimal number, finite, in [0, 1]. `text` is quoted in the message.
double parse_weight(std::string_view text, const std::string& name, size_t number);
/// A finite weight in [0, 1] (for numbers a JSON parser already read).
void check_weight(double value, std::string_view shown_as, const std::string& name, size_t number);
/// A non-negative integer that fits in 64 bits; throws naming what it is ("source index").
uint64_t parse_index(std::string_view text, std::string_view what, const std::string& name,
                     size_t number);

}  // namespace attnscope::attention_text
