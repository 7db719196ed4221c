#pragma once
// Text normalisation and tokenisation, the Multi30k convention: Unicode lowercase, words and
// numbers kept together, every other visible character its own token.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnscope {

/// Lowercases UTF-8 text with Unicode rules (Ä→ä, É→é; ß stays ß). Invalid UTF-8 bytes become
/// U+FFFD; the result is NFC-normalised.
std::string to_lower(std::string_view utf8);

/// Lowercases and NFC-normalises any UTF-8 text as to_lower() does, then splits it into tokens:
/// runs of letters, digits, marks and '_' form one token; any other visible character is a
/// token of its own; whitespace and control characters (including NUL) separate tokens and are
/// dropped, and so are invalid UTF-8 bytes.
std::vector<std::string> tokenize(std::string_view utf8);

/// Splits like tokenize() but keeps the case: the words as typed (NFC-normalised), for copying a
/// source word into a translation. Almost always one token per token of tokenize(); callers
/// check, since lowercasing may change a word's letters in rare scripts.
std::vector<std::string> tokenize_keeping_case(std::string_view utf8);

/// Splits NFC-normalised text at whitespace and invisible characters only, keeping case and
/// punctuation attached ("Strand." stays one word): how a cased subword model
/// (ModelConfig::cased) reads text, so that its pieces join back into text as a reader writes
/// it. Invalid UTF-8 bytes are dropped, as tokenize() drops them.
std::vector<std::string> split_as_written(std::string_view utf8);

/// The words a model of attnscope's own reads: split_as_written() for a cased model,
/// tokenize() (lowercase, punctuation split off) otherwise.
std::vector<std::string> model_words(std::string_view utf8, bool cased);

/// The words BLEU compares for a translation or reference of attnscope's tokenizer: tokenize()
/// of the text the words spell, so a cased model's "Strand." and a reference's "strand ." are
/// alike (case-insensitive BLEU); with `keep_case` the case stays (cased BLEU).
std::vector<std::string> bleu_words(const std::vector<std::string>& words, bool keep_case = false);

/// True for a word written in lowercase letters: at least one letter that has case, none in
/// upper- or titlecase, and no digit ("bluish", "café"; not "Zürich", "FedEx", "B2", "東京",
/// which has no case). How a source word tells a common word from a name or a number.
bool is_lowercase_word(std::string_view utf8);

/// Splits text on ASCII whitespace, keeping everything else as it is (case, punctuation): the
/// "whitespace" tokenizer of TorchScript models and of pre-tokenised files.
std::vector<std::string> split_on_whitespace(std::string_view text);

/// Joins tokens with single spaces.
std::string join_tokens(const std::vector<std::string>& tokens);

/// True when `bytes` is well-formed UTF-8.
bool is_valid_utf8(std::string_view bytes);
/// The offset of the first byte that starts an ill-formed sequence; npos when there is none.
size_t first_invalid_utf8(std::string_view bytes);
/// `bytes` with each ill-formed UTF-8 sequence replaced by U+FFFD; well-formed text unchanged
/// (not lowercased or normalised).
std::string replace_invalid_utf8(std::string_view bytes);

/// Text from a file made safe to print on a terminal or draw on one line: ill-formed UTF-8 and
/// control characters (an escape sequence can retitle or clear a terminal) become U+FFFD, line
/// breaks and tabs a space, and the direction overrides that reorder what follows are dropped.
std::string printable(std::string_view text);

/// A number as a person writes one: decimal digits with an optional sign, point and exponent
/// ("0.5", "-2", "1e-3"), nothing before or after it, finite and within a float's range (the
/// values it gives are stored as floats: 1e308 is finite as a double but inf once stored).
/// nullopt for anything else: "", " 0.5", "0.5 ", "0x10", "nan", "inf", "1e39", "1,5".
std::optional<double> decimal_number(std::string_view text);

}  // namespace attnscope
