// Pharaoh/Moses word alignments: "0-0 1-2 2-1" links source index to target index, one line per
// sentence pair, tokens in two sentence files. Gold sets write possible links as "1?2" or "1p2".
#include <map>

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
  const SentencePairSizes sizes{source.name, columns, target.name, rows};
  for (const AlignmentLink& link :
       parse_pharaoh_links(links, file.name, n, sizes, options.one_based)) {
    result.weights[link.target][link.source] = link.sure ? 1.0 : kPossibleLinkWeight;
    possible[link.target][link.source] = !link.sure;
    any_possible = any_possible || !link.sure;
  }
  if (any_possible) result.possible = std::move(possible);
  return result;
}

}  // namespace attnscope::attention_formats

namespace attnscope {

using namespace attention_text;

std::vector<AlignmentLink> parse_pharaoh_links(std::string_view links, const std::string& name,
                                               size_t number, const SentencePairSizes& pair,
                                               bool one_based) {
  std::vector<AlignmentLink> result;
  // (target, source) → index into result, so a repeated link is stored once and sure wins.
  std::map<std::pair<size_t, size_t>, size_t> seen;
  const uint64_t first = one_based ? 1 : 0;
  // Each link is kept once: however long the line, at most source × target links.
  for_each_word(links, [&](std::string_view link) {
    size_t at = 0;
    while (at < link.size() && link[at] >= '0' && link[at] <= '9') ++at;
    if (at == 0 || at == link.size() || (link[at] != '-' && link[at] != '?' && link[at] != 'p'))
      fail_at(name, number, shown(link),
              " is not a link (expected i-j, or i?j / ipj for a possible link)");
    const uint64_t i = parse_index(link.substr(0, at), "source index", name, number);
    const uint64_t j = parse_index(link.substr(at + 1), "target index", name, number);
    const auto check = [&](uint64_t index, size_t count, const char* side,
                           const std::string& sentences) {
      if (index < first || index - first >= count)
        fail_at(name, number, side, " index ", index, " in ", shown(link), " is out of range: '",
                sentences, "' line ", number, " has ", count, " tokens (indices ",
                one_based ? "1" : "0", "–", count - 1 + first,
                one_based ? ")" : "; 1-based indices need --one-based)");
    };
    check(i, pair.source_words, "source", pair.source_name);
    check(j, pair.target_words, "target", pair.target_name);
    const AlignmentLink parsed{i - first, j - first, link[at] == '-'};
    const auto [it, fresh] = seen.emplace(std::pair{parsed.target, parsed.source}, result.size());
    if (fresh)
      result.push_back(parsed);
    else
      result[it->second].sure = result[it->second].sure || parsed.sure;
  });
  return result;
}

}  // namespace attnscope
