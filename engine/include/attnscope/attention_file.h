#pragma once
// Attention matrices written by other tools (and by attnscope's own export), read without a
// model: attnscope's JSON and CSV, a line of `attnscope-cli translate --json`, Pharaoh/Moses hard
// alignments with their sentence files, and Marian's `--alignment soft` output.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnscope {

enum class AttentionFileFormat {
  Json,        // attnscope's JSON export, or one line of `attnscope-cli translate --json`
  Csv,         // attnscope's CSV export of one heatmap
  Pharaoh,     // `i-j` links (possible links `i?j` or `ipj`), one line per sentence pair
  MarianSoft,  // `translation ||| w,w,... w,w,...` from `marian-decoder --alignment soft`
};

/// "json", "csv", "pharaoh", "marian" (the names --format takes).
std::string attention_format_name(AttentionFileFormat format);
/// The format for one of those names; std::nullopt for any other.
std::optional<AttentionFileFormat> attention_format_from_name(std::string_view name);

/// How to read an attention file; the sentence files matter only to formats that lack tokens.
struct AttentionFileOptions {
  std::optional<AttentionFileFormat> format;  // none: detected from the content (extension hints)
  std::string source_path;  // Pharaoh, Marian: one source sentence per line, tokens split by spaces
  std::string target_path;  // Pharaoh: one target sentence per line
  std::string source_text;  // Marian: the source sentence itself, instead of source_path
  size_t line = 1;          // 1-based: the sentence pair (Pharaoh, Marian, JSON Lines) or the
                            // heatmap of a multi-heatmap JSON export
  bool one_based = false;   // Pharaoh: indices start at 1
};

/// One attention matrix, as plain data.
struct AttentionFile {
  std::string format;  // what was read, for a title or a status line: "Pharaoh alignment", …
  std::string title;   // the JSON export's "model" field; empty for the other formats
  // attnscope's exports of a subword model: "words" (a word's pieces merged) or "pieces";
  // empty when the file does not say (a word model, another tool's file)
  std::string view;
  std::vector<std::string> source_tokens;
  std::vector<std::string> target_tokens;
  std::vector<bool> unknown_source;          // per source token; empty when the file has none
  std::vector<std::vector<double>> weights;  // [target][source], each in [0, 1]
  std::vector<std::vector<bool>> possible;   // [target][source]: a possible (not sure) gold link;
                                             // empty unless the file marks possible links
  bool has_possible_links() const { return !possible.empty(); }
};

/// The weight a possible link is drawn with; a sure link has weight 1.
inline constexpr double kPossibleLinkWeight = 0.5;
/// The most tokens a side may have: more cannot be told apart on a heatmap, and a crafted line
/// must not allocate a huge matrix.
inline constexpr size_t kMaxAttentionTokens = 1000;
/// Files larger than this are refused before they are read (a heatmap never needs more).
inline constexpr size_t kMaxAttentionFileBytes = 64u << 20;

/// A file's name (for messages) and its bytes.
struct NamedText {
  std::string name;
  std::string_view text;
};

/// One link of a word alignment, 0-based word indices.
struct AlignmentLink {
  size_t source = 0;
  size_t target = 0;
  bool sure = true;  // false: a possible link of a gold set ("i?j" or "ipj")
  bool operator==(const AlignmentLink& o) const {
    return source == o.source && target == o.target && sure == o.sure;
  }
};

/// The sentence pair a line of links belongs to, for range checks and messages.
struct SentencePairSizes {
  std::string source_name;  // the source sentence file, as messages name it
  size_t source_words = 0;
  std::string target_name;
  size_t target_words = 0;
};

/// Parses line `number` of Pharaoh links ("0-0 1-2 2?1") in file `name`: source index first,
/// 0-based unless `one_based`. A link listed both sure and possible is sure; each link appears
/// once. Throws std::invalid_argument naming the file, the line and the link at fault.
std::vector<AlignmentLink> parse_pharaoh_links(std::string_view links, const std::string& name,
                                               size_t number, const SentencePairSizes& pair,
                                               bool one_based);

/// Parses an attention file already in memory. `source` and `target` are the sentence files'
/// contents (Pharaoh, Marian); `options`' paths are ignored. Throws std::invalid_argument with one
/// line naming the file, the line and the problem.
AttentionFile parse_attention_file(const NamedText& file, const AttentionFileOptions& options,
                                   const std::optional<NamedText>& source = std::nullopt,
                                   const std::optional<NamedText>& target = std::nullopt);

/// Reads `path` (and the sentence files `options` names) and parses it. Throws
/// std::runtime_error for a file that cannot be read, std::invalid_argument for bad content; each
/// message is one line naming the file (and the line, for content).
AttentionFile read_attention_file(const std::string& path, const AttentionFileOptions& options);

}  // namespace attnscope
