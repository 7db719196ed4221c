#include "attnscope/text.h"

#include <unicode/locid.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "attnscope/errors.h"

namespace attnscope {
namespace {

icu::UnicodeString normalized(std::string_view utf8, bool lower) {
  // fromUTF8 replaces ill-formed sequences with U+FFFD, so any byte string is accepted.
  icu::UnicodeString text = icu::UnicodeString::fromUTF8(
      icu::StringPiece(utf8.data(), static_cast<int32_t>(utf8.size())));
  if (lower) text.toLower(icu::Locale::getRoot());
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(status);
  if (U_FAILURE(status)) ATTNSCOPE_THROW_RUNTIME_ERROR("ICU NFC normaliser unavailable");
  icu::UnicodeString normal = nfc->normalize(text, status);
  if (U_FAILURE(status)) return text;
  return normal;
}

bool is_word_char(UChar32 c) {
  if (c == '_') return true;
  const int8_t type = u_charType(c);
  return u_isalnum(c) || type == U_NON_SPACING_MARK || type == U_COMBINING_SPACING_MARK ||
         type == U_ENCLOSING_MARK;
}

bool is_separator(UChar32 c) {
  const int8_t type = u_charType(c);
  return u_isUWhiteSpace(c) || type == U_CONTROL_CHAR || type == U_FORMAT_CHAR ||
         type == U_UNASSIGNED || type == U_SURROGATE || type == U_PRIVATE_USE_CHAR;
}

std::string to_utf8(const icu::UnicodeString& text) {
  std::string out;
  text.toUTF8String(out);
  return out;
}

// Splits at separators. Punctuation and symbols are tokens of their own (tokenize()), or part
// of the word they touch when `as_written`. U+FFFD (an invalid byte) separates and is dropped.
std::vector<std::string> split_text(const icu::UnicodeString& text, bool as_written) {
  std::vector<std::string> tokens;
  icu::UnicodeString word;
  auto flush = [&] {
    if (!word.isEmpty()) tokens.push_back(to_utf8(word));
    word.remove();
  };
  for (int32_t i = 0; i < text.length();) {
    const UChar32 c = text.char32At(i);
    i += U16_LENGTH(c);
    // U+200D joins emoji sequences: as written it stays inside its word.
    const bool separates = c == 0xFFFD || (is_separator(c) && !(as_written && c == 0x200D));
    if (!separates && (as_written || is_word_char(c))) {
      word.append(c);
    } else {
      flush();
      if (!separates) tokens.push_back(to_utf8(icu::UnicodeString(c)));
    }
  }
  flush();
  return tokens;
}

}  // namespace

std::string to_lower(std::string_view utf8) { return to_utf8(normalized(utf8, true)); }

std::vector<std::string> tokenize(std::string_view utf8) {
  return split_text(normalized(utf8, true), false);
}

std::vector<std::string> tokenize_keeping_case(std::string_view utf8) {
  return split_text(normalized(utf8, false), false);
}

std::vector<std::string> split_as_written(std::string_view utf8) {
  return split_text(normalized(utf8, false), true);
}

std::vector<std::string> model_words(std::string_view utf8, bool cased) {
  return cased ? split_as_written(utf8) : tokenize(utf8);
}

std::vector<std::string> bleu_words(const std::vector<std::string>& words, bool keep_case) {
  const std::string text = join_tokens(words);
  return keep_case ? tokenize_keeping_case(text) : tokenize(text);
}

bool is_lowercase_word(std::string_view utf8) {
  const icu::UnicodeString text = icu::UnicodeString::fromUTF8(
      icu::StringPiece(utf8.data(), static_cast<int32_t>(utf8.size())));
  bool cased = false;
  for (int32_t i = 0; i < text.length();) {
    const UChar32 c = text.char32At(i);
    i += U16_LENGTH(c);
    if (u_isdigit(c) || u_isupper(c) || u_istitle(c)) return false;
    cased = cased || u_hasBinaryProperty(c, UCHAR_CASED);
  }
  return cased;
}

std::string join_tokens(const std::vector<std::string>& tokens) {
  std::string out;
  for (const auto& token : tokens) {
    if (!out.empty()) out += ' ';
    out += token;
  }
  return out;
}

bool is_valid_utf8(std::string_view bytes) {
  return first_invalid_utf8(bytes) == std::string_view::npos;
}

std::string replace_invalid_utf8(std::string_view bytes) {
  if (is_valid_utf8(bytes)) return std::string(bytes);
  // fromUTF8 replaces each ill-formed sequence with U+FFFD (see normalized()).
  return to_utf8(icu::UnicodeString::fromUTF8(
      icu::StringPiece(bytes.data(), static_cast<int32_t>(bytes.size()))));
}

std::string printable(std::string_view text) {
  const std::string valid = replace_invalid_utf8(text);
  const auto is_plain = [](unsigned char c) { return c >= 0x20 && c < 0x7F; };
  if (std::all_of(valid.begin(), valid.end(), is_plain)) return valid;
  const icu::UnicodeString unicode = icu::UnicodeString::fromUTF8(valid);
  icu::UnicodeString safe;
  for (int32_t i = 0; i < unicode.length(); i = unicode.moveIndex32(i, 1)) {
    const UChar32 c = unicode.char32At(i);
    if (c == '\n' || c == '\r' || c == '\t' || c == 0x2028 || c == 0x2029)
      safe.append(static_cast<UChar>(' '));
    else if (u_charType(c) == U_CONTROL_CHAR)  // C0, DEL and C1
      safe.append(static_cast<UChar32>(0xFFFD));
    else if ((c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069))
      continue;  // embeddings, overrides and isolates
    else
      safe.append(c);
  }
  return to_utf8(safe);
}

size_t first_invalid_utf8(std::string_view bytes) {
  size_t i = 0;
  const size_t n = bytes.size();
  while (i < n) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    int extra = 0;
    uint32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      extra = 1, cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      extra = 2, cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      extra = 3, cp = c & 0x07;
    } else {
      return i;
    }
    if (i + extra >= n) return i;  // sequence cut off at the end
    for (int k = 1; k <= extra; ++k) {
      const auto cc = static_cast<unsigned char>(bytes[i + k]);
      if ((cc & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (cc & 0x3F);
    }
    const bool overlong =
        (extra == 1 && cp < 0x80) || (extra == 2 && cp < 0x800) || (extra == 3 && cp < 0x10000);
    if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    i += extra + 1;
  }
  return std::string_view::npos;
}

std::vector<std::string> split_on_whitespace(std::string_view text) {
  std::vector<std::string> tokens;
  size_t start = 0;
  while (start < text.size()) {
    start = text.find_first_not_of(" \t\n\v\f\r", start);
    if (start == std::string_view::npos) break;
    size_t end = text.find_first_of(" \t\n\v\f\r", start);
    if (end == std::string_view::npos) end = text.size();
    tokens.emplace_back(text.substr(start, end - start));
    start = end;
  }
  return tokens;
}

std::optional<double> decimal_number(std::string_view text) {
  // from_chars, not strtod: it reads neither leading spaces nor hexadecimal, and it ignores the
  // locale (under a German one strtod would take "0,5" and refuse "0.5").
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty() || text.front() == '+') return std::nullopt;
  double value = 0.0;
  const auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), value, std::chars_format::general);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  if (!std::isfinite(value) || std::abs(value) > std::numeric_limits<float>::max())
    return std::nullopt;
  return value;
}

}  // namespace attnscope
