#include "io/checkpoint.h"

#include <attnscope/translator.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "engine/test_models.h"

namespace attnscope {
namespace {

using testing::read_bytes;

std::string write_bytes(const std::string& bytes, const std::string& name = "bad.attnmodel") {
  const std::string path = testing::temporary_folder() + "/" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

void expect_error(const std::string& path, const std::string& problem) {
  const std::string message = testing::model_load_error(path);
  EXPECT_NE(message.find("'" + path + "'"), std::string::npos) << message;
  EXPECT_NE(message.find(problem), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << "one line: " << message;
}

TEST(Checkpoint, RoundTripIsExact) {
  const std::string path = testing::random_model_file("general");
  const Checkpoint first = load_checkpoint(path);
  const std::string copy = testing::temporary_folder() + "/copy.attnmodel";
  save_checkpoint(copy, first, StoredPrecision::kFloat32);
  const Checkpoint second = load_checkpoint(copy);
  EXPECT_EQ(read_bytes(path), read_bytes(copy));
  ASSERT_EQ(first.tensors.size(), second.tensors.size());
  for (size_t i = 0; i < first.tensors.size(); ++i) {
    EXPECT_EQ(first.tensors[i].first, second.tensors[i].first);
    EXPECT_TRUE(torch::equal(first.tensors[i].second, second.tensors[i].second));
  }
  EXPECT_EQ(first.source_vocabulary.tokens(), second.source_vocabulary.tokens());
  EXPECT_EQ(config_to_json(first.config), config_to_json(second.config));
}

TEST(Checkpoint, HalfPrecisionHalvesTheWeightsAndRoundsOnce) {
  const std::string path = testing::random_model_file("additive");
  const Checkpoint full = load_checkpoint(path);
  const std::string half_path = testing::temporary_folder() + "/half.attnmodel";
  save_checkpoint(half_path, full, StoredPrecision::kFloat16);
  const Checkpoint half = load_checkpoint(half_path);
  for (size_t i = 0; i < full.tensors.size(); ++i)
    EXPECT_TRUE(torch::equal(half.tensors[i].second,
                             full.tensors[i].second.to(torch::kHalf).to(torch::kFloat)));
  EXPECT_LT(half.file_bytes, full.file_bytes * 0.6 + 20000);
}

TEST(Checkpoint, SavedModelTranslatesLikeTheOriginal) {
  const std::string path = testing::random_model_file("cosine");
  const Translator a(path);
  const std::string copy = testing::temporary_folder() + "/same.attnmodel";
  save_checkpoint(copy, load_checkpoint(path), StoredPrecision::kFloat32);
  const Translator b(copy);
  const Translation x = a.translate("a b c"), y = b.translate("a b c");
  EXPECT_EQ(x.tokens, y.tokens);
  EXPECT_EQ(x.probabilities, y.probabilities);
  EXPECT_EQ(a.info().parameters, b.info().parameters);
}

// Checked before anything is written (a save that fails part-way is HostileOutput's case).
TEST(Checkpoint, UnsupportedTensorTypeIsRefusedBeforeWriting) {
  const std::string path = testing::random_model_file("dot");
  const std::string before = read_bytes(path);
  Checkpoint checkpoint = load_checkpoint(path);
  checkpoint.tensors.emplace_back("bad", torch::zeros({2}, torch::kInt));  // unsupported type
  EXPECT_THROW(save_checkpoint(path, checkpoint, StoredPrecision::kFloat32), std::invalid_argument);
  EXPECT_EQ(read_bytes(path), before);
  for (const auto& entry :
       std::filesystem::directory_iterator(std::filesystem::path(path).parent_path()))
    EXPECT_EQ(entry.path().string().find(".tmp."), std::string::npos) << entry.path();
}

// Found by the checkpoint fuzzer: an empty tensor has no storage, and reading it must not hand
// memcpy a null pointer (UBSan in the sanitize build). Such a file loads, and a model ignores a
// tensor it does not use (as it ignores a resume state's optimizer).
TEST(Checkpoint, EmptyTensorReadsBackEmpty) {
  const std::string path = testing::random_model_file("dot");
  Checkpoint checkpoint = load_checkpoint(path);
  checkpoint.tensors.emplace_back("empty", torch::zeros({0, 4}));
  save_checkpoint(path, checkpoint, StoredPrecision::kFloat16);
  const Checkpoint back = load_checkpoint(path);
  ASSERT_EQ(back.tensors.back().first, "empty");
  EXPECT_EQ(back.tensors.back().second.numel(), 0);
  EXPECT_EQ(back.tensors.back().second.sizes(), (std::vector<int64_t>{0, 4}));
  EXPECT_FALSE(Translator(path).translate("a b").tokens.empty());
}

TEST(Checkpoint, MissingFolderIsAnError) {
  Checkpoint checkpoint = load_checkpoint(testing::random_model_file("dot"));
  EXPECT_THROW(
      save_checkpoint("/nonexistent-folder/x.attnmodel", checkpoint, StoredPrecision::kFloat16),
      std::runtime_error);
}

TEST(BadCheckpoint, MissingEmptyDirectory) {
  expect_error("/nonexistent/model.attnmodel", "does not exist");
  expect_error(write_bytes(""), "is empty");
  expect_error(testing::temporary_folder(), "is a directory");
}

TEST(BadCheckpoint, OtherProgramsFiles) {
  expect_error(write_bytes("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", "image.png"),
               "not an attnscope model file");
  expect_error(write_bytes("\x80\x04\x95\x10\0\0\0\0\0\0\0}\x94.", "model.pkl"),
               "not an attnscope model file");
  expect_error(write_bytes("hello, I am a text file\n", "notes.txt"),
               "not an attnscope model file");
}

TEST(BadCheckpoint, TruncatedAtEveryPart) {
  const std::string whole = read_bytes(testing::random_model_file("location"));
  for (size_t size :
       {size_t{10}, size_t{20}, size_t{40}, size_t{400}, whole.size() / 2, whole.size() - 1}) {
    SCOPED_TRACE(size);
    expect_error(write_bytes(whole.substr(0, size)), "truncated");
  }
}

TEST(BadCheckpoint, BitFlipsAreCaughtByChecksums) {
  const std::string whole = read_bytes(testing::random_model_file("general"));
  for (size_t at : {size_t{40}, size_t{300}, whole.size() / 2, whole.size() - 3}) {
    SCOPED_TRACE(at);
    std::string flipped = whole;
    flipped[at] = static_cast<char>(flipped[at] ^ 0x10);
    expect_error(write_bytes(flipped), "corrupted");
  }
}

TEST(BadCheckpoint, FutureFormatVersion) {
  std::string bytes = read_bytes(testing::random_model_file("dot"));
  bytes[16] = 7;  // the version field follows the 16-byte magic
  expect_error(write_bytes(bytes), "format version 7");
}

TEST(BadCheckpoint, TrailingBytes) {
  expect_error(write_bytes(read_bytes(testing::random_model_file("dot")) + "xyz"),
               "unexpected bytes");
}

TEST(BadCheckpoint, NoReadPermission) {
  const std::string path = write_bytes(read_bytes(testing::random_model_file("dot")));
  ::chmod(path.c_str(), 0);
  if (::geteuid() != 0) {
    expect_error(path, "cannot be read");
    return;
  }
  // Root reads any file: the same load runs in a child process that gives up root first, and
  // its exit code says whether the message was right.
  const int result = testing::check_without_root([&] {
    const std::string message = testing::model_load_error(path);
    return message.find("'" + path + "'") != std::string::npos &&
           message.find("cannot be read") != std::string::npos &&
           message.find('\n') == std::string::npos;
  });
  EXPECT_EQ(result, 0) << "2: could not drop root; 3: wrong message";
}

}  // namespace
}  // namespace attnscope
