// attnscope's CSV export of one heatmap (ui/exporter.cpp, matricesToCsv):
//   target\source,A,dog,</s>
//   ein,0.91,0.05,0.04
// A subword model's export names its view in the corner: "target\\source (words)" or
// "(pieces)".
// Fields holding a comma, a quote or a line break are quoted, quotes doubled (RFC 4180).
#include "io/attention_formats.h"
#include "io/attention_text.h"

namespace attnscope::attention_formats {

using namespace attention_text;

namespace {

constexpr std::string_view kCorner = "target\\source";

// The view a corner names ("target\\source (words)" → "words"), or std::nullopt when the field
// is no corner at all.
std::optional<std::string> view_in_corner(std::string_view field) {
  if (field.substr(0, kCorner.size()) != kCorner) return std::nullopt;
  std::string_view rest = field.substr(kCorner.size());
  if (rest.empty()) return std::string();
  if (rest.size() < 4 || rest.substr(0, 2) != " (" || rest.back() != ')') return std::nullopt;
  return std::string(rest.substr(2, rest.size() - 3));
}

// Reads one record at a time, knowing the line each starts on.
class CsvRecords {
 public:
  explicit CsvRecords(const NamedText& file) : file_(file), text_(without_bom(file.text)) {}

  // The next record's fields; false at the end of the text.
  bool next(std::vector<std::string>& fields) {
    fields.clear();
    if (at_ >= text_.size()) return false;
    first_line_ = line_;
    std::string field;
    bool quoted = false, was_quoted = false;
    for (; at_ < text_.size(); ++at_) {
      const char c = text_[at_];
      if (quoted) {
        if (c == '"' && at_ + 1 < text_.size() && text_[at_ + 1] == '"') {
          field += '"';
          ++at_;
        } else if (c == '"') {
          quoted = false;
        } else {
          if (c == '\n') ++line_;
          field += c;
        }
      } else if (c == '"' && field.empty() && !was_quoted) {
        quoted = was_quoted = true;
      } else if (c == ',') {
        push(fields, field);
        was_quoted = false;
      } else if (c == '\n') {
        ++at_;
        ++line_;
        break;
      } else if (c == '\r' && at_ + 1 < text_.size() && text_[at_ + 1] == '\n') {
        continue;
      } else if (was_quoted) {
        fail_at(file_.name, line_, "text after a quoted field's closing quote");
      } else {
        field += c;
      }
    }
    if (quoted) fail_at(file_.name, first_line_, "a quoted field is never closed");
    push(fields, field);
    return true;
  }

  size_t line() const { return first_line_; }

 private:
  void push(std::vector<std::string>& fields, std::string& field) {
    // A source token per field, plus the row's target token.
    if (fields.size() > kMaxAttentionTokens)
      fail_at(file_.name, first_line_, "more than ", kMaxAttentionTokens,
              " fields; a heatmap shows at most that many tokens");
    fields.push_back(std::move(field));
    field.clear();
  }

  const NamedText& file_;
  std::string_view text_;
  size_t at_ = 0, line_ = 1, first_line_ = 1;
};

}  // namespace

AttentionFile parse_csv(const NamedText& file) {
  check_utf8_text(file, without_bom(file.text));
  CsvRecords records(file);
  std::vector<std::string> fields;
  if (!records.next(fields)) fail_at(file.name, 1, "the file is empty");
  if (fields.front() == "model")
    fail_at(file.name, 1,
            "this CSV holds several heatmaps (the compare grid's export); open the "
            "JSON export instead, or export one heatmap");
  const std::optional<std::string> view = view_in_corner(fields.front());
  if (!view)
    fail_at(file.name, 1, "not an attnscope CSV: it should start with '", kCorner,
            "' followed by the source tokens");
  AttentionFile result;
  result.format = "attnscope CSV";
  result.view = *view;
  result.source_tokens.assign(fields.begin() + 1, fields.end());
  if (result.source_tokens.empty()) fail_at(file.name, 1, "no source tokens in the header");
  while (records.next(fields)) {
    const size_t line = records.line();
    if (fields.size() == 1 && fields.front().empty()) continue;  // a blank line
    if (fields.size() != result.source_tokens.size() + 1)
      fail_at(file.name, line, "the row of ", shown(fields.front()), " has ", fields.size() - 1,
              " weights but the header has ", result.source_tokens.size(), " source tokens");
    if (result.target_tokens.size() == kMaxAttentionTokens)
      fail_at(file.name, line, "more than ", kMaxAttentionTokens,
              " rows; a heatmap shows at most that many tokens");
    result.target_tokens.push_back(fields.front());
    std::vector<double> row;
    row.reserve(fields.size() - 1);
    for (size_t i = 1; i < fields.size(); ++i)
      row.push_back(parse_weight(fields[i], file.name, line));
    result.weights.push_back(std::move(row));
  }
  if (result.target_tokens.empty()) fail_at(file.name, 2, "no rows: the header is all there is");
  return result;
}

}  // namespace attnscope::attention_formats
