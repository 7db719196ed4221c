// Pharaoh/Moses word alignments: "0-0 1-2 2-1" links source index to target index, one line per
// sentence pair, tokens in two sentence files. Gold sets write possible links as "1?2" or "1p2".
#include "io/attention_formats.h"
#include "io/attention_text.h"

namespace attnscope::attention_formats {

using namespace attention_text;

AttentionFile parse_pharaoh(const NamedText& file, const AttentionFileOptions& options,
                            const NamedText& source, const NamedText& target) {
  const size_t n = options.line;
  const std::string_view links =
      line_at(file, n, "the alignment of sentence pair " + std::to_string(n));
  AttentionFile result;
  result.format = "Pharaoh alignment";
  result.source_tokens = split_tokens(line_at(source, n, "the source sentence"), source.name, n);
  result.target_tokens = split_tokens(line_at(target, n, "the target sentence"), target.name, n);
  if (result.source_tokens.empty()) fail_at(source.name, n, "the source sentence is empty");
  if (result.target_tokens.empty()) fail_at(target.name, n, "the target sentence is empty");
  const size_t rows = result.target_tokens.size(), columns = result.source_tokens.size();
  // Both sides are capped, so the matrix is at most kMaxAttentionTokens² whatever the indices say.
  result.weights.assign(rows, std::vector<double>(columns, 0.0));
  std::vector<std::vector<bool>> possible(rows, std::vector<bool>(columns, false));
  bool any_possible = false;
  const uint64_t first = options.one_based ? 1 : 0;
  // Visited, not collected: a line may hold any number of links.
  for_each_word(links, [&](std::string_view link) {
    size_t at = 0;
    while (at < link.size() && link[at] >= '0' && link[at] <= '9') ++at;
    if (at == 0 || at == link.size() || (link[at] != '-' && link[at] != '?' && link[at] != 'p'))
      fail_at(file.name, n, shown(link),
              " is not a link (expected i-j, or i?j / ipj for a possible link)");
    const uint64_t i = parse_index(link.substr(0, at), "source index", file.name, n);
    const uint64_t j = parse_index(link.substr(at + 1), "target index", file.name, n);
    const auto check = [&](uint64_t index, size_t count, const char* side, const NamedText& text) {
      if (index < first || index - first >= count)
        fail_at(file.name, n, side, " index ", index, " in ", shown(link), " is out of range: '",
                text.name, "' line ", n, " has ", count, " tokens (indices ",
                options.one_based ? "1" : "0", "–", count - 1 + first,
                options.one_based ? ")" : "; 1-based indices need --one-based)");
    };
    check(i, columns, "source", source);
    check(j, rows, "target", target);
    const size_t r = j - first, c = i - first;
    const bool sure = link[at] == '-';
    // A link listed as both sure and possible is sure.
    if (sure || result.weights[r][c] == 0.0) {
      result.weights[r][c] = sure ? 1.0 : kPossibleLinkWeight;
      possible[r][c] = !sure;
    }
    any_possible = any_possible || !sure;
  });
  if (any_possible) result.possible = std::move(possible);
  return result;
}

}  // namespace attnscope::attention_formats
