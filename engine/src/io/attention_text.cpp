#include "io/attention_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "attnscope/text.h"

namespace attnscope::attention_text {
std::string shortened(std::string_view text, size_t bytes) {
  std::string s(text.substr(0, bytes));
  // Cut at a character boundary: the message must stay UTF-8.
  while (!s.empty() && !is_valid_utf8(s) && (static_cast<unsigned char>(s.back()) & 0x80))
    s.pop_back();
  if (!is_valid_utf8(s)) return "(not UTF-8)";
  if (text.size() > s.size()) s += "…";
  return s;
}

std::string shown(std::string_view text) {
  // A quoted CSV field may hold line breaks: the message must stay one line.
  std::string visible;
  for (char c : shortened(text, 40)) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n') {
      visible += "\\n";
    } else if (c == '\r') {
      visible += "\\r";
    } else if (byte < 0x20 || byte == 0x7F) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02X", byte);
      visible += escaped;
    } else {
      visible += c;
    }
  }
  return "'" + visible + "'";
}

std::string_view without_bom(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  return text;
}

size_t count_lines(std::string_view text) {
  text = without_bom(text);
  if (text.empty()) return 0;
  size_t lines = 0;
  for (char c : text) lines += c == '\n';
  return lines + (text.back() == '\n' ? 0 : 1);
}

void check_utf8(const NamedText& file, size_t number, std::string_view line) {
  const size_t at = first_invalid_utf8(line);
  if (at == std::string_view::npos) return;
  char byte[8];
  std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(line[at]));
  fail_at(file.name, number, "not UTF-8 (byte ", byte, " at column ", at + 1, ")");
}

void check_utf8_text(const NamedText& file, std::string_view text) {
  const size_t at = first_invalid_utf8(text);
  if (at == std::string_view::npos) return;
  const size_t line_start =
      text.rfind('\n', at) == std::string_view::npos ? 0 : text.rfind('\n', at) + 1;
  size_t line = 1;
  for (size_t i = 0; i < line_start; ++i) line += text[i] == '\n';
  const size_t line_end = std::min(text.size(), text.find('\n', at));
  check_utf8(file, line, text.substr(line_start, line_end - line_start));
}

std::string_view line_at(const NamedText& file, size_t number, std::string_view wanted_for) {
  const std::string_view text = without_bom(file.text);
  size_t start = 0;
  for (size_t line = 1; line < number && start < text.size(); ++line) {
    const size_t end = text.find('\n', start);
    start = end == std::string_view::npos ? text.size() : end + 1;
  }
  if (number == 0 || start >= text.size()) {
    const size_t lines = count_lines(text);
    fail_at(file.name, number, "no such line: the file has ", lines,
            lines == 1 ? " line" : " lines", " (wanted: ", wanted_for, ")");
  }
  size_t end = text.find('\n', start);
  if (end == std::string_view::npos) end = text.size();
  std::string_view line = text.substr(start, end - start);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  check_utf8(file, number, line);
  return line;
}

std::vector<std::string> split_tokens(std::string_view line, const std::string& name,
                                      size_t number) {
  std::vector<std::string> tokens;
  for_each_word(line, [&](std::string_view token) {
    if (tokens.size() == kMaxAttentionTokens)
      fail_at(name, number, "more than ", kMaxAttentionTokens,
              " tokens; a heatmap shows at most that many");
    tokens.emplace_back(token);
  });
  return tokens;
}

std::string_view trim(std::string_view text) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!text.empty() && space(text.front())) text.remove_prefix(1);
  while (!text.empty() && space(text.back())) text.remove_suffix(1);
  return text;
}

void check_weight(double value, std::string_view shown_as, const std::string& name, size_t number) {
  if (!std::isfinite(value)) fail_at(name, number, "weight ", shown_as, " is not a finite number");
  if (value < 0.0) fail_at(name, number, "weight ", shown_as, " is negative");
  // Attention is a probability; a little rounding above 1 is still one.
  if (value > 1.0 + 1e-6) fail_at(name, number, "weight ", shown_as, " is larger than 1");
}

double parse_weight(std::string_view text, const std::string& name, size_t number) {
  const std::string_view t = trim(text);
  if (t.empty()) fail_at(name, number, "an empty field where a weight was expected");
  double value = 0.0;
  // from_chars: no locale (a German locale would read "0,5"), no leading '+' or spaces.
  const auto [end, error] = std::from_chars(t.data(), t.data() + t.size(), value);
  if (error == std::errc::result_out_of_range)
    fail_at(name, number, "weight ", shown(t), " is out of range");
  if (error != std::errc() || end != t.data() + t.size())
    fail_at(name, number, shown(t), " is not a number");
  check_weight(value, shown(t), name, number);
  return value;
}

uint64_t parse_index(std::string_view text, std::string_view what, const std::string& name,
                     size_t number) {
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error == std::errc::result_out_of_range)
    fail_at(name, number, what, " ", shown(text), " is too large");
  if (error != std::errc() || end != text.data() + text.size())
    fail_at(name, number, what, " ", shown(text), " is not a whole number");
  return value;
}

}  // namespace attnscope::attention_text
