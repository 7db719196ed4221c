#pragma once
// One parser per attention file format (attention_file.cpp detects the format and calls one).
// Each throws std::invalid_argument naming the file, the line and the problem.
#include <optional>

#include "attnscope/attention_file.h"

namespace attnscope::attention_formats {

/// attnscope's JSON export (one heatmap, or the compare grid's `heatmaps`: `line` picks one), or
/// JSON Lines from `attnscope-cli translate --json` (`line` picks the line).
AttentionFile parse_json(const NamedText& file, size_t line);
/// attnscope's CSV export of one heatmap.
AttentionFile parse_csv(const NamedText& file);
/// Pharaoh/Moses links for sentence pair `options.line`, tokens from `source` and `target`.
AttentionFile parse_pharaoh(const NamedText& file, const AttentionFileOptions& options,
                            const NamedText& source, const NamedText& target);
/// Marian's soft alignment on `options.line`; the source sentence is `options.source_text` or a
/// line of `source`.
AttentionFile parse_marian(const NamedText& file, const AttentionFileOptions& options,
                           const std::optional<NamedText>& source);

}  // namespace attnscope::attention_formats
