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

}  // namespace attnscope
