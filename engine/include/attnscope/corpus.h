#pragma once
#include <string>
#include <vector>

namespace attnscope {

/// Reads a text file, plain or gzip-compressed (detected from its content), one sentence per
/// line. Strips a UTF-8 BOM and CR before LF. Throws std::runtime_error naming the file when it
/// cannot be read or a gzip stream is truncated or damaged.
std::vector<std::string> read_lines(const std::string& path);

/// read_lines() for corpora: also throws std::invalid_argument naming the file, the line and the
/// byte when a line is not UTF-8 (a Latin-1 corpus would otherwise lose its accented letters
/// without a word).
std::vector<std::string> read_utf8_lines(const std::string& path);

/// Two files of one line per sentence each, line i of one belonging to line i of the other (a
/// source and its references or targets).
struct LinePairs {
  std::vector<std::string> first, second;
};
/// read_utf8_lines() of both; also throws std::invalid_argument naming both files and their line
/// counts when these differ.
LinePairs read_line_pairs(const std::string& first_path, const std::string& second_path);

}  // namespace attnscope
