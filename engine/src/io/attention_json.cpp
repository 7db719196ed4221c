// attnscope's JSON export (ui/exporter.cpp, matricesToJson): one heatmap
//   {"attention": [[...], ...], "model": "...", "source_tokens": [...], "target_tokens": [...],
//    "unknown_source": [...], "view": "words"}
// or the compare grid's {"heatmaps": [ {...}, ... ]}; and `attnscope-cli translate --json`, one
// object per line with "source_tokens", "tokens" and "attention".
//
// Read with a SAX handler rather than into a json value: it keeps only the chosen matrix, caps
// it while reading (a crafted file cannot make it allocate more than a heatmap needs), and knows
// the line of every value it checks.
#include <nlohmann/json.hpp>

#include "io/attention_formats.h"
#include "io/attention_text.h"

namespace attnscope::attention_formats {

using namespace attention_text;
using Json = nlohmann::json;

namespace {

// Where the parser is: the line of the last non-blank character it has read. nlohmann's
// lexer reads one character at a time through this iterator and looks at most one ahead, and the
// character after a number is a comma, a bracket or a blank: the number's own line either way.
struct LinePosition {
  size_t line = 1;
  size_t token_line = 1;
};

class CountingIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  CountingIterator(const char* at, LinePosition* position) : at_(at), position_(position) {}
  reference operator*() const { return *at_; }
  CountingIterator& operator++() {
    if (*at_ == '\n') {
      ++position_->line;
    } else if (*at_ != ' ' && *at_ != '\t' && *at_ != '\r') {
      position_->token_line = position_->line;
    }
    ++at_;
    return *this;
  }
  bool operator==(const CountingIterator& other) const { return at_ == other.at_; }
  bool operator!=(const CountingIterator& other) const { return at_ != other.at_; }

 private:
  const char* at_;
  LinePosition* position_;
};

// What a value is, by where it sits.
enum class Role {
  Root,          // the document: one matrix, or {"heatmaps": [...]}
  Heatmaps,      // the compare grid's list
  Matrix,        // the chosen heatmap's object
  Title,         // "model"
  View,          // "view"
  SourceTokens,  // and their elements, Token
  TargetTokens,
  Token,
  UnknownSource,
  Unknown,
  Attention,
  Row,
  Weight,
  Ignored,  // anything else, e.g. translate --json's "probabilities", other heatmaps
};

struct Frame {
  Role role;
  size_t count = 0;  // elements so far (arrays)
  std::string key;   // the key whose value comes next (objects)
};

// The chosen matrix as it is read, with the lines needed for later messages.
class MatrixReader : public nlohmann::json_sax<Json> {
 public:
  MatrixReader(const NamedText& file, size_t heatmap, size_t first_line,
               const LinePosition& position)
      : file_(file), heatmap_(heatmap), first_line_(first_line), position_(position) {}

  AttentionFile result;
  bool saw_heatmaps = false;
  bool from_translate = false;
  size_t heatmap_count = 0;
  bool saw_source = false, saw_target = false, saw_attention = false;
  size_t matrix_line = 1, heatmaps_line = 1, source_line = 1, target_line = 1, attention_line = 1,
         unknown_line = 1;
  std::vector<size_t> row_lines;

  size_t line() const { return first_line_ - 1 + position_.token_line; }

  bool null() override { return scalar("null"); }
  bool boolean(bool value) override {
    if (child_role() == Role::Unknown) {
      add(Role::Unknown);
      result.unknown_source.push_back(value);
      return true;
    }
    return scalar(value ? "true" : "false");
  }
  bool number_integer(number_integer_t value) override {
    return number(static_cast<double>(value), std::to_string(value));
  }
  bool number_unsigned(number_unsigned_t value) override {
    return number(static_cast<double>(value), std::to_string(value));
  }
  bool number_float(number_float_t value, const string_t& text) override {
    return number(value, text);
  }
  bool string(string_t& value) override {
    const Role role = child_role();
    if (role == Role::Token) {
      add(role);
      (stack_.back().role == Role::SourceTokens ? result.source_tokens : result.target_tokens)
          .push_back(std::move(value));
      return true;
    }
    if (role == Role::Title || role == Role::View) {
      add(role);
      (role == Role::Title ? result.title : result.view) = std::move(value);
      return true;
    }
    return scalar("a string");
  }
  bool binary(binary_t&) override { return scalar("binary data"); }
  bool start_object(std::size_t) override {
    const Role role = child_role();
    if (role != Role::Root && role != Role::Matrix && role != Role::Ignored)
      wrong_type(role, "an object");
    add(role);
    nest();
    if (role == Role::Matrix) matrix_line = line();
    stack_.push_back(Frame{role, 0, {}});
    return true;
  }
  bool key(string_t& value) override {
    stack_.back().key = std::move(value);
    return true;
  }
  bool end_object() override {
    stack_.pop_back();
    return true;
  }
  bool start_array(std::size_t) override {
    const Role role = child_role();
    switch (role) {
      case Role::Heatmaps:
        saw_heatmaps = true;
        heatmaps_line = line();
        break;
      case Role::SourceTokens:
        saw_source = true;
        source_line = line();
        result.source_tokens.clear();
        break;
      case Role::TargetTokens:
        saw_target = true;
        target_line = line();
        result.target_tokens.clear();
        break;
      case Role::UnknownSource:
        unknown_line = line();
        result.unknown_source.clear();
        break;
      case Role::Attention:
        saw_attention = true;
        attention_line = line();
        result.weights.clear();
        row_lines.clear();
        break;
      case Role::Row:
        result.weights.emplace_back();
        row_lines.push_back(line());
        break;
      case Role::Ignored:
        break;
      default:
        wrong_type(role, "a list");
    }
    add(role);
    nest();
    stack_.push_back(Frame{role, 0, {}});
    return true;
  }
  bool end_array() override {
    if (stack_.back().role == Role::Heatmaps) heatmap_count = stack_.back().count;
    stack_.pop_back();
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    // nlohmann's message: "[json.exception.parse_error.101] parse error at line 1, column 2:
    // syntax error while parsing value - ..."; the line is ours, the rest is the problem.
    // "; last read: '...'" may quote a whole megabyte: the line number locates it instead.
    std::string what = e.what();
    if (what.rfind("[json.exception.", 0) == 0) what.erase(0, what.find("] ") + 2);
    if (what.rfind("parse error at line", 0) == 0) what.erase(0, what.find(": ") + 2);
    what = shortened(what.substr(0, what.find("; last read")), 160);
    fail_at(file_.name, line(), "not valid JSON (", what, ")");
  }

 private:
  // The role of the value about to start, from its parent and its key or position.
  Role child_role() {
    if (stack_.empty()) return Role::Root;
    const Frame& parent = stack_.back();
    switch (parent.role) {
      case Role::Root:
        if (parent.key == "heatmaps") return Role::Heatmaps;
        return matrix_field(parent.key);
      case Role::Matrix:
        return matrix_field(parent.key);
      case Role::Heatmaps:
        return parent.count == heatmap_ ? Role::Matrix : Role::Ignored;
      case Role::SourceTokens:
      case Role::TargetTokens:
        return Role::Token;
      case Role::UnknownSource:
        return Role::Unknown;
      case Role::Attention:
        return Role::Row;
      case Role::Row:
        return Role::Weight;
      default:
        return Role::Ignored;
    }
  }

  Role matrix_field(const std::string& key) {
    if (key == "model") return Role::Title;
    if (key == "view") return Role::View;
    if (key == "source_tokens") return Role::SourceTokens;
    if (key == "target_tokens") return Role::TargetTokens;
    if (key == "tokens") {
      from_translate = true;  // translate --json's name for them
      return Role::TargetTokens;
    }
    if (key == "unknown_source") return Role::UnknownSource;
    if (key == "attention") return Role::Attention;
    return Role::Ignored;
  }

  // Exports nest four levels; a crafted file of a million '[' must not grow the stack with it.
  void nest() const {
    constexpr size_t kMaxDepth = 32;
    if (stack_.size() >= kMaxDepth)
      fail_at(file_.name, line(), "nested more than ", kMaxDepth, " levels deep");
  }

  // Counts an element of the parent array, capped so that no list outgrows a heatmap.
  void add(Role role) {
    if (stack_.empty()) return;
    Frame& parent = stack_.back();
    ++parent.count;
    if (role == Role::Ignored || role == Role::Matrix || parent.role == Role::Heatmaps ||
        parent.role == Role::Root || parent.role == Role::Matrix)
      return;
    if (parent.count > kMaxAttentionTokens)
      fail_at(file_.name, line(), "more than ", kMaxAttentionTokens, " ",
              parent.role == Role::Row ? "weights in a row" : "entries in a list",
              "; a heatmap shows at most that many tokens");
  }

  bool number(double value, const std::string& text) {
    const Role role = child_role();
    if (role != Role::Weight) return scalar("a number");
    add(role);
    check_weight(value, shown(text), file_.name, line());
    result.weights.back().push_back(value);
    return true;
  }

  bool scalar(const char* what) {
    const Role role = child_role();
    if (role != Role::Ignored) wrong_type(role, what);
    add(role);
    return true;
  }

  [[noreturn]] void wrong_type(Role role, const char* found) const {
    const char* expected = "";
    switch (role) {
      case Role::Root:
        expected = "an object (an attnscope JSON export)";
        break;
      case Role::Heatmaps:
        expected = "'heatmaps' to be a list of heatmaps";
        break;
      case Role::Matrix:
        expected = "each heatmap to be an object";
        break;
      case Role::Title:
        expected = "'model' to be a string";
        break;
      case Role::View:
        expected = "'view' to be a string";
        break;
      case Role::SourceTokens:
      case Role::TargetTokens:
        expected = "a list of tokens";
        break;
      case Role::Token:
        expected = "each token to be a string";
        break;
      case Role::UnknownSource:
      case Role::Unknown:
        expected = "'unknown_source' to be a list of true/false";
        break;
      case Role::Attention:
        expected = "'attention' to be a list of rows";
        break;
      case Role::Row:
        expected = "each attention row to be a list of weights";
        break;
      case Role::Weight:
        expected = "each weight to be a number";
        break;
      case Role::Ignored:
        break;
    }
    fail_at(file_.name, line(), "expected ", expected, ", found ", found);
  }

  const NamedText& file_;
  size_t heatmap_;     // 0-based: which heatmap of a compare grid export
  size_t first_line_;  // the line the parsed text starts on (JSON Lines)
  const LinePosition& position_;
  std::vector<Frame> stack_;
};

// A JSON Lines file has a whole object on each line; an export is indented over many lines.
bool is_json_lines(std::string_view text) {
  const size_t end = text.find('\n');
  if (end == std::string_view::npos || trim(text.substr(end)).empty()) return false;
  const std::string_view first = trim(text.substr(0, end));
  return first.size() >= 2 && first.front() == '{' && first.back() == '}';
}

void check_matrix(const MatrixReader& r, const std::string& name) {
  const AttentionFile& m = r.result;
  if (!r.saw_attention)
    fail_at(name, r.matrix_line, "no 'attention' field: not an attnscope JSON export");
  if (!r.saw_source) fail_at(name, r.matrix_line, "no 'source_tokens' field");
  if (!r.saw_target) fail_at(name, r.matrix_line, "no 'target_tokens' (or 'tokens') field");
  if (m.source_tokens.empty()) fail_at(name, r.source_line, "'source_tokens' is empty");
  if (m.target_tokens.empty()) fail_at(name, r.target_line, "there are no target tokens");
  if (m.weights.size() != m.target_tokens.size())
    fail_at(name, r.attention_line, "'attention' has ", m.weights.size(), " rows but there are ",
            m.target_tokens.size(), " target tokens");
  for (size_t i = 0; i < m.weights.size(); ++i)
    if (m.weights[i].size() != m.source_tokens.size())
      fail_at(name, r.row_lines[i], "attention row ", i + 1, " has ", m.weights[i].size(),
              " weights but there are ", m.source_tokens.size(), " source tokens");
  if (!m.unknown_source.empty() && m.unknown_source.size() != m.source_tokens.size())
    fail_at(name, r.unknown_line, "'unknown_source' has ", m.unknown_source.size(),
            " entries but there are ", m.source_tokens.size(), " source tokens");
}

}  // namespace

AttentionFile parse_json(const NamedText& file, size_t line) {
  const std::string_view whole = without_bom(file.text);
  const bool lines = is_json_lines(whole);
  // JSON Lines: `line` is the line; an export: `line` is the heatmap of a compare grid.
  const std::string_view text = lines ? line_at(file, line, "a JSON object") : whole;
  const size_t first_line = lines ? line : 1;
  const size_t heatmap = lines ? 0 : line - 1;
  if (!lines) check_utf8_text(file, text);
  LinePosition position;
  MatrixReader reader(file, heatmap, first_line, position);
  Json::sax_parse(CountingIterator(text.data(), &position),
                  CountingIterator(text.data() + text.size(), &position), &reader);
  if (reader.saw_heatmaps) {
    if (heatmap >= reader.heatmap_count)
      fail_at(file.name, reader.heatmaps_line, "there is no heatmap ", line, ": the file holds ",
              reader.heatmap_count);
  } else if (heatmap != 0) {
    fail_at(file.name, 1, "there is no heatmap ", line, ": the file holds one");
  }
  check_matrix(reader, file.name);
  AttentionFile result = std::move(reader.result);
  result.format = reader.from_translate ? "attnscope-cli translate --json" : "attnscope JSON";
  return result;
}

}  // namespace attnscope::attention_formats
