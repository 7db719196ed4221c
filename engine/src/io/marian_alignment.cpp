// Marian's soft alignments (`marian-decoder --alignment soft`). Marian prints, per sentence,
//   translation ||| a,b,c d,e,f ...                 (best translation; maybe ||| WordScores=...)
//   id ||| translation ||| a,b,c d,e,f ... ||| F0=... ||| score   (with --n-best)
// The alignment has one space-separated row per target step, the final </s> step included, and
// in each row one comma-separated weight per source position, the source's </s> included.
#include <charconv>

#include "io/attention_formats.h"
#include "io/attention_text.h"

namespace attnscope::attention_formats {

using namespace attention_text;

namespace {

// The fields of a Marian output line, split at " ||| " (trimmed).
std::vector<std::string_view> fields_of(std::string_view line) {
  std::vector<std::string_view> fields;
  size_t start = 0;
  for (;;) {
    const size_t bar = line.find("|||", start);
    fields.push_back(trim(line.substr(start, bar == std::string_view::npos ? bar : bar - start)));
    if (bar == std::string_view::npos) return fields;
    start = bar + 3;
  }
}

bool is_number(std::string_view text) {
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return !text.empty() && error == std::errc() && end == text.data() + text.size();
}

// Marian's rows include the </s> step and its columns the source's </s>; a tool that strips
// them is read too. Appends "</s>" to `tokens` when the file has that extra position.
void match_eos(std::vector<std::string>& tokens, size_t positions, const char* side,
               const std::string& name, size_t n) {
  if (positions == tokens.size() + 1) {
    tokens.push_back("</s>");
  } else if (positions != tokens.size()) {
    fail_at(name, n, "the alignment has ", positions, " ", side, " positions but the ", side,
            " sentence has ", tokens.size(), " tokens (expected ", tokens.size() + 1,
            " with </s>); Marian aligns subword units, so give the sentences as the model's "
            "pieces");
  }
}

}  // namespace

AttentionFile parse_marian(const NamedText& file, const AttentionFileOptions& options,
                           const std::optional<NamedText>& source) {
  const size_t n = options.line;
  const std::vector<std::string_view> fields = fields_of(line_at(file, n, "a translation"));
  // An n-best line starts with the sentence's 0-based number, and that picks the source line.
  const bool nbest = fields.size() >= 4 && is_number(fields[0]);
  const size_t translation_field = nbest ? 1 : 0;
  if (fields.size() < translation_field + 2)
    fail_at(file.name, n,
            "no ' ||| ' before an alignment (was marian-decoder run with "
            "--alignment soft?)");
  const std::string_view alignment = fields[translation_field + 1];
  if (alignment.find('-') != std::string_view::npos &&
      alignment.find(',') == std::string_view::npos)
    fail_at(file.name, n,
            "this is a hard alignment (i-j pairs); open it as Pharaoh with the "
            "sentence files, or run marian-decoder with --alignment soft");

  AttentionFile result;
  result.format = "Marian soft alignment";
  result.target_tokens = split_tokens(fields[translation_field], file.name, n);
  if (!options.source_text.empty()) {
    result.source_tokens = split_tokens(options.source_text, "the source sentence", 1);
  } else if (source) {
    const size_t source_line =
        nbest ? parse_index(fields[0], "sentence number", file.name, n) + 1 : n;
    result.source_tokens = split_tokens(line_at(*source, source_line, "the source sentence"),
                                        source->name, source_line);
  } else {
    fail_at(file.name, n,
            "a Marian alignment needs the source sentence (a source file, or the "
            "sentence itself)");
  }
  // Rows are read one at a time and checked against the first: a ragged row stops the parse.
  std::vector<std::vector<double>> weights;
  for_each_word(alignment, [&](std::string_view row_text) {
    if (weights.size() > kMaxAttentionTokens)
      fail_at(file.name, n, "more than ", kMaxAttentionTokens, " alignment rows");
    std::vector<double> row;
    for_each_piece(row_text, ',', [&](std::string_view cell) {
      if (row.size() > kMaxAttentionTokens)
        fail_at(file.name, n, "alignment row ", weights.size() + 1, " has more than ",
                kMaxAttentionTokens + 1, " weights");
      row.push_back(parse_weight(cell, file.name, n));
    });
    if (!weights.empty() && row.size() != weights.front().size())
      fail_at(file.name, n, "alignment row ", weights.size() + 1, " has ", row.size(),
              " weights but row 1 has ", weights.front().size());
    weights.push_back(std::move(row));
  });
  if (weights.empty()) fail_at(file.name, n, "the alignment part is empty");
  match_eos(result.target_tokens, weights.size(), "target", file.name, n);
  match_eos(result.source_tokens, weights.front().size(), "source", file.name, n);
  result.weights = std::move(weights);
  return result;
}

}  // namespace attnscope::attention_formats
