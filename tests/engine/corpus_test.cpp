#include <attnscope/corpus.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>

#include "engine/test_models.h"

namespace attnscope {
namespace {

using testing::gzip;

std::string write_file(const std::string& name, const std::string& bytes) {
  const std::string path = testing::temporary_folder() + "/" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

using Lines = std::vector<std::string>;

TEST(Corpus, ReadsPlainTextWithBomCrlfAndNoFinalNewline) {
  EXPECT_EQ(read_lines(write_file("a.txt", "\xEF\xBB\xBFone\r\ntwo\n\nthree")),
            (Lines{"one", "two", "", "three"}));
}

TEST(Corpus, ReadsGzipByContent) {
  EXPECT_EQ(read_lines(write_file("b.gz", gzip("eins\nzwei\n"))), (Lines{"eins", "zwei"}));
}

TEST(Corpus, TruncatedGzipIsAnErrorNamingTheFile) {
  const std::string whole = gzip(std::string(5000, 'x') + "\n");
  const std::string path = write_file("cut.gz", whole.substr(0, whole.size() / 2));
  try {
    read_lines(path);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
  }
}

TEST(Corpus, MissingFileAndDirectoryAreErrors) {
  EXPECT_THROW(read_lines("/nonexistent/file.txt"), std::runtime_error);
  EXPECT_THROW(read_lines(testing::temporary_folder()), std::runtime_error);
}

}  // namespace
}  // namespace attnscope
