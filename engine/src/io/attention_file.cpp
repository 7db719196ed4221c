#include "attnscope/attention_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "io/attention_formats.h"
#include "io/attention_text.h"

namespace attnscope {

using namespace attention_text;

namespace {

std::string lowercase(std::string_view text) {
  std::string s(text);
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

bool is_link(std::string_view word) {
  size_t at = 0;
  while (at < word.size() && word[at] >= '0' && word[at] <= '9') ++at;
  if (at == 0 || at + 1 >= word.size()) return false;
  if (word[at] != '-' && word[at] != '?' && word[at] != 'p') return false;
  for (size_t i = at + 1; i < word.size(); ++i)
    if (word[i] < '0' || word[i] > '9') return false;
  return true;
}

// The first line with something on it (Pharaoh leaves a line empty for an unaligned pair).
std::string_view first_nonblank_line(std::string_view text) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = trim(text.substr(start, end - start));
    if (!line.empty()) return line;
    start = end + 1;
  }
  return {};
}

// From the content; the extension decides only what the content leaves open.
AttentionFileFormat detect_format(const NamedText& file) {
  const std::string_view text = trim(without_bom(file.text));
  if (text.empty()) fail_at(file.name, 1, "the file is empty: there is no attention matrix in it");
  if (text.front() == '{' || text.front() == '[') return AttentionFileFormat::Json;
  const std::string_view first = first_nonblank_line(text);
  if (first.rfind("target\\source", 0) == 0 || first.rfind("\"target\\source\"", 0) == 0 ||
      first.rfind("model,target_index,", 0) == 0)
    return AttentionFileFormat::Csv;
  if (first.find("|||") != std::string_view::npos) return AttentionFileFormat::MarianSoft;
  // One link is enough: the parser then names the words that are not links.
  bool links = false;
  for_each_word(first, [&](std::string_view word) { links = links || is_link(word); });
  if (links) return AttentionFileFormat::Pharaoh;
  const std::string extension = lowercase(std::filesystem::path(file.name).extension().string());
  if (extension == ".json" || extension == ".jsonl") return AttentionFileFormat::Json;
  if (extension == ".csv") return AttentionFileFormat::Csv;
  fail_at(file.name, 1,
          "cannot tell the format: not attnscope JSON or CSV, Pharaoh links (0-0 1-2) or a Marian "
          "soft alignment (translation ||| weights); name the format (json, csv, pharaoh, marian)");
}

std::string read_bounded(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (!fs::exists(status)) ATTNSCOPE_THROW_RUNTIME_ERROR("file '", path, "' does not exist");
  if (fs::is_directory(status))
    ATTNSCOPE_THROW_RUNTIME_ERROR("'", path, "' is a directory, not a file");
  // A FIFO or a device could block or never end.
  if (!fs::is_regular_file(status))
    ATTNSCOPE_THROW_RUNTIME_ERROR("'", path, "' is not a regular file");
  const auto size = fs::file_size(path, ec);
  if (!ec && size > kMaxAttentionFileBytes)
    ATTNSCOPE_THROW_RUNTIME_ERROR("'", path, "' is ", size >> 20, " MB; attention files over ",
                                  kMaxAttentionFileBytes >> 20, " MB are not read");
  std::ifstream in(path, std::ios::binary);
  if (!in) ATTNSCOPE_THROW_RUNTIME_ERROR("cannot read '", path, "': ", std::strerror(errno));
  std::string data(static_cast<size_t>(ec ? 0 : size), '\0');
  in.read(data.data(), static_cast<std::streamsize>(data.size()));
  if (in.bad() || static_cast<size_t>(in.gcount()) != data.size())
    ATTNSCOPE_THROW_RUNTIME_ERROR("cannot read '", path, "': ", std::strerror(errno));
  return data;
}

}  // namespace

std::string attention_format_name(AttentionFileFormat format) {
  switch (format) {
    case AttentionFileFormat::Json:
      return "json";
    case AttentionFileFormat::Csv:
      return "csv";
    case AttentionFileFormat::Pharaoh:
      return "pharaoh";
    case AttentionFileFormat::MarianSoft:
      return "marian";
  }
  return "";
}

std::optional<AttentionFileFormat> attention_format_from_name(std::string_view name) {
  for (auto format : {AttentionFileFormat::Json, AttentionFileFormat::Csv,
                      AttentionFileFormat::Pharaoh, AttentionFileFormat::MarianSoft})
    if (attention_format_name(format) == name) return format;
  return std::nullopt;
}

AttentionFile parse_attention_file(const NamedText& file, const AttentionFileOptions& options,
                                   const std::optional<NamedText>& source,
                                   const std::optional<NamedText>& target) {
  if (options.line == 0) fail_at(file.name, 0, "there is no line 0: lines count from 1");
  if (trim(without_bom(file.text)).empty())
    fail_at(file.name, 1, "the file is empty: there is no attention matrix in it");
  const AttentionFileFormat format = options.format ? *options.format : detect_format(file);
  switch (format) {
    case AttentionFileFormat::Json:
      return attention_formats::parse_json(file, options.line);
    case AttentionFileFormat::Csv:
      return attention_formats::parse_csv(file);
    case AttentionFileFormat::Pharaoh:
      if (!source || !target)
        ATTNSCOPE_THROW_INVALID_ARGUMENT(
            "'", file.name,
            "' holds Pharaoh alignments (i-j links): give the source and target sentence files "
            "too (one sentence per line, tokens separated by spaces)");
      return attention_formats::parse_pharaoh(file, options, *source, *target);
    case AttentionFileFormat::MarianSoft:
      if (!source && options.source_text.empty())
        ATTNSCOPE_THROW_INVALID_ARGUMENT(
            "'", file.name,
            "' holds a Marian soft alignment: give the source sentence too (its file, or the "
            "sentence itself)");
      return attention_formats::parse_marian(file, options, source);
  }
  ATTNSCOPE_THROW_INVALID_ARGUMENT("unknown attention file format");
}

AttentionFile read_attention_file(const std::string& path, const AttentionFileOptions& options) {
  const std::string text = read_bounded(path);
  std::string source_text, target_text;
  std::optional<NamedText> source, target;
  if (!options.source_path.empty()) {
    source_text = read_bounded(options.source_path);
    source = NamedText{options.source_path, source_text};
  }
  if (!options.target_path.empty()) {
    target_text = read_bounded(options.target_path);
    target = NamedText{options.target_path, target_text};
  }
  return parse_attention_file({path, text}, options, source, target);
}

}  // namespace attnscope
