#include "attnscope/corpus.h"

#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

#include "attnscope/errors.h"
#include "attnscope/text.h"

namespace attnscope {
namespace {

// gzread reads plain files unchanged, so one path handles both; gzclose_r and gzerror tell a
// truncated or damaged gzip stream apart from a clean end.
std::string read_all(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(path, ec)) ATTNSCOPE_THROW_RUNTIME_ERROR("file '", path, "' does not exist");
  if (fs::is_directory(path, ec))
    ATTNSCOPE_THROW_RUNTIME_ERROR("'", path, "' is a directory, not a text file");
  gzFile file = gzopen(path.c_str(), "rb");
  if (file == nullptr)
    ATTNSCOPE_THROW_RUNTIME_ERROR("cannot read '", path, "': ", std::strerror(errno));
  std::unique_ptr<gzFile_s, int (*)(gzFile)> guard(file, gzclose_r);
  std::string data;
  char buffer[1 << 16];
  for (;;) {
    const int n = gzread(file, buffer, sizeof buffer);
    if (n < 0) {
      int code = 0;
      std::string what = gzerror(file, &code);
      if (code == Z_ERRNO)
        ATTNSCOPE_THROW_RUNTIME_ERROR("cannot read '", path, "': ", std::strerror(errno));
      // zlib's message starts with the path again: "x.gz: incorrect data check".
      if (what.rfind(path + ": ", 0) == 0) what.erase(0, path.size() + 2);
      ATTNSCOPE_THROW_RUNTIME_ERROR("'", path, "' is a damaged gzip file (", what, ")");
    }
    if (n == 0) break;
    data.append(buffer, static_cast<size_t>(n));
  }
  int code = 0;
  gzerror(file, &code);
  // Z_BUF_ERROR at the end means the compressed stream stopped before its trailer.
  if (code == Z_BUF_ERROR) ATTNSCOPE_THROW_RUNTIME_ERROR("'", path, "' is a truncated gzip file");
  if (code != Z_OK) ATTNSCOPE_THROW_RUNTIME_ERROR("'", path, "' is a damaged gzip file");
  return data;
}

}  // namespace

std::vector<std::string> read_lines(const std::string& path) {
  const std::string data = read_all(path);
  std::vector<std::string> lines;
  size_t start = data.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
  while (start < data.size()) {
    size_t end = data.find('\n', start);
    if (end == std::string::npos) end = data.size();
    size_t stop = end;
    if (stop > start && data[stop - 1] == '\r') --stop;
    lines.emplace_back(data, start, stop - start);
    start = end + 1;
  }
  return lines;
}

std::vector<std::string> read_utf8_lines(const std::string& path) {
  std::vector<std::string> lines = read_lines(path);
  for (size_t i = 0; i < lines.size(); ++i) {
    const size_t at = first_invalid_utf8(lines[i]);
    if (at == std::string::npos) continue;
    char byte[8];
    std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(lines[i][at]));
    ATTNSCOPE_THROW_INVALID_ARGUMENT("'", path, "' line ", i + 1, " is not UTF-8 (byte ", byte,
                                     " at column ", at + 1,
                                     "); convert the file, e.g. iconv -f latin1 -t utf-8");
  }
  return lines;
}

LinePairs read_line_pairs(const std::string& first_path, const std::string& second_path) {
  LinePairs pairs{read_utf8_lines(first_path), read_utf8_lines(second_path)};
  if (pairs.first.size() != pairs.second.size())
    ATTNSCOPE_THROW_INVALID_ARGUMENT("'", first_path, "' has ", pairs.first.size(), " lines but '",
                                     second_path, "' has ", pairs.second.size());
  return pairs;
}

}  // namespace attnscope
