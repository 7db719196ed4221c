// Hostile input at the engine's entry points: sentences, corpora, model files, output paths,
// and faults during training. Every case either works or throws one line naming the input.
#include <attnscope/corpus.h>
#include <attnscope/errors.h>
#include <attnscope/text.h>
#include <attnscope/trainer.h>
#include <attnscope/translator.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cmath>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>

#include "engine/test_models.h"
#include "io/checkpoint.h"
#include "train/parallel_corpus.h"

namespace attnscope {
namespace {

using testing::gzip;
using testing::read_bytes;
using testing::repeat_words;
using testing::with_header;

namespace fs = std::filesystem;

std::string write_bytes(const std::string& bytes, const std::string& name) {
  const std::string path = testing::temporary_folder() + "/" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

// Runs `f`, which must throw E; returns its message after checking it is one line that names
// `input` (when given).
template <typename E = std::exception, typename F>
std::string expect_error(F&& f, const std::string& input) {
  try {
    f();
  } catch (const E& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << "one line: " << message;
    if (!input.empty()) EXPECT_NE(message.find("'" + input + "'"), std::string::npos) << message;
    return message;
  }
  ADD_FAILURE() << "no error for '" << input << "'";
  return "";
}

#define EXPECT_CONTAINS(text, part) EXPECT_NE((text).find(part), std::string::npos) << (text)

// ---------------------------------------------------------------------------------------------
// Sentences

struct SentenceCase {
  const char* name;
  std::string text;
};

std::vector<SentenceCase> hostile_sentences() {
  return {
      {"empty", ""},
      {"spaces and tabs", "  \t  \t "},
      {"5000 words", repeat_words("a", 5000)},
      {"one 100000-letter word", std::string(100000, 'b')},
      {"a 1 MB word between others", "a " + std::string(1 << 20, 'k') + " b"},
      {"control characters", "a\x01\x02\x1b[31m b\x7f c\x08"},
      {"NUL bytes", std::string("a\0b\0\0c", 6)},
      {"only NUL bytes", std::string(5, '\0')},
      {"invalid UTF-8", "a \xFF\xFE b \xC3( c \xED\xA0\x80 \xF4\x90\x80\x80"},
      {"cut-off UTF-8 at the end", "a b \xE2\x82"},
      {"emoji", "a 😀 b 👩‍👩‍👧 c 🇩🇪"},
      {"CJK", "東京は雨です a b"},
      {"right-to-left", "שלום עולם مرحبا \u202Eabc\u202C"},
      {"only punctuation", "?!.,;:-- ... ''' \"\""},
      {"special-token lookalikes", "<unk> </s> <s> <pad> a"},
      {"format strings", "%s %n %x %99999999s {0} ${HOME} \\n"},
      {"carriage returns inside", "a\rb\r\nc"},
      {"zero-width and BOM",
       "\xEF\xBB\xBF"
       "a\u200Bb\u200D c"},
  };
}

class Sentences : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    translator_ = new Translator(testing::random_model_file("location"));
  }
  static void TearDownTestSuite() { delete translator_; }
  static Translator* translator_;
};
Translator* Sentences::translator_ = nullptr;

void expect_well_formed(const Translation& t, int64_t max_source_length) {
  ASSERT_FALSE(t.source.tokens.empty());
  EXPECT_EQ(t.source.tokens.back(), "</s>");
  EXPECT_LE(static_cast<int64_t>(t.source.tokens.size()), max_source_length);
  EXPECT_EQ(t.source.unknown.size(), t.source.tokens.size());
  // The attention contract: one row per output token, each as long as the source.
  ASSERT_EQ(t.attention.size(), t.tokens.size());
  EXPECT_EQ(t.probabilities.size(), t.tokens.size());
  for (const auto& row : t.attention) EXPECT_EQ(row.size(), t.source.tokens.size());
  const auto& specials = Vocabulary::special_tokens();
  for (size_t i = 0; i + 1 < t.source.tokens.size(); ++i) {
    const std::string& token = t.source.tokens[i];
    EXPECT_TRUE(is_valid_utf8(token)) << token;
    EXPECT_FALSE(token.empty());
    EXPECT_EQ(std::find(specials.begin(), specials.end(), token), specials.end())
        << "typed text became the special token " << token;
    for (unsigned char c : token)
      EXPECT_FALSE(c < 0x20 || c == 0x7F) << "control byte in " << token;
  }
}

// The same sentences through a word model and a subword model (SentencePiece splits them).
class HostileSentences : public ::testing::TestWithParam<std::string> {
 protected:
  static const Translator& translator() {
    static std::map<std::string, std::unique_ptr<Translator>> cache;
    auto& t = cache[GetParam()];
    if (!t)
      t = std::make_unique<Translator>(GetParam() == "subwords"
                                           ? testing::subword_model()
                                           : testing::random_model_file("location"));
    return *t;
  }
};

TEST_P(HostileSentences, EveryOneTranslatesToAWellFormedResult) {
  const Translator* translator_ = &translator();
  const int64_t max_length = translator_->info().config.max_source_length;
  std::vector<std::string> batch;
  for (const auto& c : hostile_sentences()) {
    SCOPED_TRACE(c.name);
    batch.push_back(c.text);
    Translation greedy, beam;
    ASSERT_NO_THROW(greedy = translator_->translate(c.text));
    expect_well_formed(greedy, max_length);
    TranslationOptions options;
    options.beam_size = 3;
    ASSERT_NO_THROW(beam = translator_->translate(c.text, options));
    expect_well_formed(beam, max_length);
    Translation forced;
    ASSERT_NO_THROW(forced = translator_->force_decode(c.text, c.text));
    expect_well_formed(forced, max_length);
    ASSERT_FALSE(forced.tokens.empty());
    EXPECT_EQ(forced.tokens.back(), "</s>");
    auto session = translator_->start(c.text, 3);
    while (!session->finished()) session->step();
    expect_well_formed(session->translation(), max_length);
  }
  // A batch gives exactly one result per sentence, in order, blank ones included.
  const std::vector<Translation> results = translator_->translate_batch(batch);
  ASSERT_EQ(results.size(), batch.size());
  for (size_t i = 0; i < batch.size(); ++i)
    EXPECT_EQ(results[i].source.tokens, translator_->prepare_source(batch[i]).tokens) << i;
}

INSTANTIATE_TEST_SUITE_P(WordsAndSubwords, HostileSentences,
                         ::testing::Values("words", "subwords"));

TEST_F(Sentences, LongSentencesAreTruncatedToTheModelsLimitAndSaySo) {
  const SourceText source = translator_->prepare_source(repeat_words("a", 5000));
  EXPECT_TRUE(source.truncated);
  EXPECT_EQ(source.original_length, 5000);
  EXPECT_EQ(static_cast<int64_t>(source.tokens.size()),
            translator_->info().config.max_source_length);
  EXPECT_FALSE(translator_->prepare_source(repeat_words("a", 5)).truncated);
}

TEST(Tokenizer, BlankAndJunkInputGivesNoTokens) {
  for (const std::string& text : {std::string(""), std::string(" \t\r\n\v\f"), std::string(7, '\0'),
                                  std::string("\x01\x02\x1f\x7f"), std::string("\xFF\xFE\xC0\x80"),
                                  std::string("\u200B\u200D\u202E")}) {
    EXPECT_TRUE(tokenize(text).empty()) << ::testing::PrintToString(text);
  }
}

TEST(Tokenizer, SpecialTokenLookalikesAndFormatStringsAreOrdinaryText) {
  EXPECT_EQ(tokenize("</s>"), (std::vector<std::string>{"<", "/", "s", ">"}));
  EXPECT_EQ(tokenize("%s%n"), (std::vector<std::string>{"%", "s", "%", "n"}));
}

TEST(Tokenizer, FirstInvalidUtf8ByteIsLocated) {
  EXPECT_EQ(first_invalid_utf8("abc"), std::string_view::npos);
  EXPECT_EQ(first_invalid_utf8("ab\xFF"), 2u);
  EXPECT_EQ(first_invalid_utf8("\xC3\xA4\xC3"), 2u);
  EXPECT_EQ(first_invalid_utf8("a\xED\xA0\x80"), 1u);
}

// ---------------------------------------------------------------------------------------------
// Corpora

struct CorpusCase {
  const char* name;
  std::string bytes;
  std::vector<std::string> lines;  // expected, when `error` is empty
  std::string error;               // a part of the expected message
};

TEST(HostileCorpus, EachFileReadsAsExpectedOrGivesOneLineNamingIt) {
  std::string numbers;  // varied text: a flipped bit in a run of one letter can go unnoticed
  for (int i = 0; i < 3000; ++i) numbers += std::to_string(i * 7919 % 10007) + "\n";
  const std::string gz = gzip(numbers);
  std::string damaged = gz;
  damaged[damaged.size() / 2] = static_cast<char>(damaged[damaged.size() / 2] ^ 0x55);
  const std::vector<CorpusCase> cases = {
      {"CRLF", "a b\r\nc\r\n", {"a b", "c"}, ""},
      {"BOM",
       "\xEF\xBB\xBF"
       "a\nb\n",
       {"a", "b"},
       ""},
      {"empty lines", "a\n\n\nb\n", {"a", "", "", "b"}, ""},
      {"no final newline", "a\nb", {"a", "b"}, ""},
      {"empty file", "", {}, ""},
      {"NUL bytes inside a line", std::string("a\0b\nc\n", 6), {std::string("a\0b", 3), "c"}, ""},
      {"a lone CR is not a line break", "a\rb\n", {"a\rb"}, ""},
      {"Latin-1",
       "ok\nstra\xDF"
       "e\n",
       {},
       "line 2 is not UTF-8 (byte 0xDF at column 5)"},
      {"cut-off UTF-8 on the last line", "ok\n\xE2\x82", {}, "line 2 is not UTF-8"},
      {"truncated gzip", gz.substr(0, gz.size() / 2), {}, "truncated gzip"},
      {"damaged gzip", damaged, {}, "gzip"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string path = write_bytes(c.bytes, "corpus.txt");
    if (c.error.empty()) {
      EXPECT_EQ(read_utf8_lines(path), c.lines);
    } else {
      EXPECT_CONTAINS(expect_error([&] { read_utf8_lines(path); }, path), c.error);
    }
  }
  const std::string folder = testing::temporary_folder();
  EXPECT_CONTAINS(expect_error([&] { read_utf8_lines(folder + "/missing"); }, folder + "/missing"),
                  "does not exist");
  EXPECT_CONTAINS(expect_error([&] { read_utf8_lines(folder); }, folder), "is a directory");
}

TEST(HostileCorpus, ParallelFilesMustAlignAndHoldSomething) {
  const std::string three = write_bytes("a\nb\nc\n", "three.txt");
  const std::string two = write_bytes("a\nb\n", "two.txt");
  const std::string blank = write_bytes("\n \n\t\n", "blank.txt");
  const std::string message =
      expect_error<std::invalid_argument>([&] { read_parallel(three, two, 50); }, three);
  EXPECT_CONTAINS(message, "'" + two + "' has 2");
  EXPECT_CONTAINS(
      expect_error<std::invalid_argument>([&] { read_parallel(blank, three, 50); }, blank),
      "no usable sentence pair");
  // Blank pairs and over-long sources are skipped and counted, not fatal.
  const std::string mixed_src = write_bytes("a\n\n" + repeat_words("w", 60) + "\nd\n", "mixed.src");
  const std::string mixed_tgt = write_bytes("a\nb\nc\n\n", "mixed.tgt");
  const TokenizedPairs pairs = read_parallel(mixed_src, mixed_tgt, 50);
  EXPECT_EQ(pairs.source.size(), 1u);
  EXPECT_EQ(pairs.skipped, 3);
}

// ---------------------------------------------------------------------------------------------
// Model files

// The error, which must be one line naming the file.
std::string one_line_load_error(const std::string& path) {
  return expect_error<std::runtime_error>([&] { Translator translator(path); }, path);
}

TEST(HostileModelFile, CraftedHeadersWithValidChecksumsAreRejected) {
  const std::string model = testing::random_model_file("additive");
  struct Case {
    const char* name;
    std::function<void(nlohmann::json&)> edit;
    const char* error;
  };
  const std::vector<Case> cases = {
      {"unknown score function", [](auto& h) { h["config"]["score"] = "magic"; },
       "unknown score function 'magic'"},
      {"config far larger than the weights",
       [](auto& h) {
         h["config"]["hidden"] = 60000;
         h["config"]["embedding"] = 60000;
       },
       "needs far more weights"},
      {"negative size", [](auto& h) { h["config"]["embedding"] = -3; }, "embedding = -3"},
      {"dropout 7.5", [](auto& h) { h["config"]["dropout"] = 7.5; }, "dropout = 7.5"},
      {"unknown decoder", [](auto& h) { h["config"]["decoder"] = "lstm"; },
       "invalid config: decoder 'lstm' (gru or cgru)"},
      // Each field named, in words: not the JSON library's "[json.exception.type_error.302]".
      {"decoder not a name", [](auto& h) { h["config"]["decoder"] = 3; },
       "invalid header: 'decoder' is a number, not a string"},
      // A plain GRU's weights under the conditional GRU's name: the shapes do not fit.
      {"decoder that is not the weights'", [](auto& h) { h["config"]["decoder"] = "cgru"; },
       "lacks tensor 'decoder.query_cell"},
      {"missing field", [](auto& h) { h["config"].erase("hidden"); }, "'hidden' is missing"},
      {"wrong type", [](auto& h) { h["training"]["seconds"] = "many"; },
       "'seconds' is a string, not a number"},
      {"list for a name",
       [](auto& h) {
         h["training"]["corpus"] = {1, 2};
       },
       "'corpus' is a list, not a string"},
      {"vocabulary of numbers", [](auto& h) { h["source_vocabulary"] = 7; },
       "'source_vocabulary' is a number, not a list"},
      // Floats where integers belong: a cast of these would be undefined behaviour (the
      // checkpoint fuzzer found the checksum case).
      {"float checksum", [](auto& h) { h["tensors"][0]["crc32"] = 1.02689e11; },
       "'crc32' is not an integer"},
      {"float epochs", [](auto& h) { h["training"]["epochs"] = 1e30; },
       "'epochs' is not an integer"},
      {"float size", [](auto& h) { h["config"]["hidden"] = 2.5; }, "'hidden' is not an integer"},
      {"float in a shape", [](auto& h) { h["tensors"][0]["shape"][0] = -1e300; },
       "'shape' is not an integer"},
      {"seed beyond 64 bits", [](auto& h) { h["training"]["seed"] = -1; },
       "'seed' is not an integer"},
      {"tensor past the end", [](auto& h) { h["tensors"][0]["offset"] = 1 << 30; },
       "size or place"},
      {"tensor with a huge shape",
       [](auto& h) {
         h["tensors"][0]["shape"] = {1 << 30, 1 << 30};
       },
       "corrupted"},
      {"unknown tensor type", [](auto& h) { h["tensors"][0]["dtype"] = "f64"; },
       "unknown tensor type"},
      {"duplicate vocabulary entry",
       [](auto& h) { h["source_vocabulary"][5] = h["source_vocabulary"][4]; }, "twice"},
      {"vocabulary without special tokens", [](auto& h) { h["target_vocabulary"][0] = "x"; },
       "special tokens"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string path = write_bytes(with_header(model, c.edit), "crafted.attnmodel");
    EXPECT_CONTAINS(one_line_load_error(path), c.error);
  }
  // Not JSON at all, with a matching checksum.
  std::string bytes = read_bytes(model);
  uint64_t header_bytes = 0;
  std::memcpy(&header_bytes, bytes.data() + 20, 8);
  std::string junk(header_bytes, '[');
  const uint32_t crc =
      static_cast<uint32_t>(crc32_z(0, reinterpret_cast<const Bytef*>(junk.data()), junk.size()));
  bytes.replace(32, header_bytes, junk);
  std::memcpy(bytes.data() + 28, &crc, 4);
  EXPECT_CONTAINS(one_line_load_error(write_bytes(bytes, "junk.attnmodel")), "not valid JSON");
}

// A model's texts reach terminals (models, Model info) and pictures: an escape sequence there
// could retitle or clear a terminal, a line break tear a table apart.
TEST(HostileModelFile, ItsTextsArriveWithoutControlCharacters) {
  const std::string model = testing::random_model_file("dot");
  const std::string hostile =
      "e\x1b]0;owned\x07n\nde\u202Eevil\r\xC2\x9B"
      "2J";
  const std::string path = write_bytes(with_header(model,
                                                   [&](auto& h) {
                                                     h["config"]["source_language"] = hostile;
                                                     h["training"]["corpus"] = hostile;
                                                     h["training"]["command"] = hostile;
                                                     h["training"]["examples"] = {hostile};
                                                   }),
                                       "hostile.attnmodel");
  const ModelInfo info = Translator(path).info();
  for (const std::string& text : {info.config.source_language, info.training.corpus,
                                  info.training.command, info.examples.at(0)}) {
    for (unsigned char c : text) EXPECT_TRUE(c >= 0x20 && c != 0x7F) << text;
    EXPECT_EQ(text.find("\u202E"), std::string::npos) << text;
    EXPECT_EQ(text.find("\u009B"), std::string::npos) << text;
    EXPECT_NE(text.find("owned"), std::string::npos) << "the readable part is kept: " << text;
  }
}

TEST(HostileModelFile, EveryTruncationAndBitFlipGivesOneLine) {
  const std::string model = testing::random_model_file("general");
  const std::string whole = read_bytes(model);
  std::vector<size_t> cuts;
  for (size_t n = 1; n < 64; ++n) cuts.push_back(n);
  for (size_t n = 64; n < whole.size(); n += whole.size() / 40) cuts.push_back(n);
  for (size_t n : cuts) {
    SCOPED_TRACE("truncated to " + std::to_string(n));
    const std::string path = write_bytes(whole.substr(0, n), "cut.attnmodel");
    const std::string message = one_line_load_error(path);
    EXPECT_TRUE(message.find("truncated") != std::string::npos ||
                message.find("corrupted") != std::string::npos)
        << message;
    EXPECT_EQ(
        expect_error<std::runtime_error>([&] { parse_checkpoint(path, whole.substr(0, n)); }, path),
        message);
  }
  for (size_t at = 0; at < whole.size(); at += 97) {
    SCOPED_TRACE("bit flip at " + std::to_string(at));
    std::string flipped = whole;
    flipped[at] = static_cast<char>(flipped[at] ^ 0x04);
    one_line_load_error(write_bytes(flipped, "flipped.attnmodel"));
  }
}

TEST(HostileModelFile, SpecialFilesNeverHang) {
  const std::string folder = testing::temporary_folder();
  const std::string fifo = folder + "/fifo.attnmodel";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  // Opening a FIFO would wait forever.
  EXPECT_CONTAINS(one_line_load_error(fifo), "not a regular file");
  EXPECT_CONTAINS(one_line_load_error("/dev/zero"), "not a regular file");
  const std::string loop = folder + "/loop.attnmodel";
  fs::create_symlink(loop, loop);
  EXPECT_CONTAINS(one_line_load_error(loop), "cannot be read");
  const std::string png =
      write_bytes(std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16), "model.attnmodel");
  EXPECT_CONTAINS(one_line_load_error(png), "not an attnscope model file");
}

// Simulates a full disk: writes past `bytes` fail with EFBIG instead of killing the process.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    previous_handler_ = std::signal(SIGXFSZ, SIG_IGN);
    ::getrlimit(RLIMIT_FSIZE, &previous_);
    rlimit limit = previous_;
    limit.rlim_cur = bytes;
    ::setrlimit(RLIMIT_FSIZE, &limit);
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &previous_);
    std::signal(SIGXFSZ, previous_handler_);
  }

 private:
  rlimit previous_{};
  void (*previous_handler_)(int) = nullptr;
};

void expect_no_temporary_files(const std::string& folder) {
  for (const auto& entry : fs::directory_iterator(folder))
    EXPECT_EQ(entry.path().string().find(".tmp."), std::string::npos) << entry.path();
}

TEST(HostileOutput, SavingNeverReplacesSpecialFilesOrLeavesHalfAFile) {
  const Checkpoint checkpoint = load_checkpoint(testing::random_model_file("dot"));
  const std::string folder = testing::temporary_folder();
  const std::string fifo = folder + "/fifo.attnmodel";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  EXPECT_CONTAINS(expect_error<std::runtime_error>(
                      [&] { save_checkpoint(fifo, checkpoint, StoredPrecision::kFloat32); }, fifo),
                  "not a regular file");
  EXPECT_TRUE(fs::is_fifo(fifo));
  EXPECT_CONTAINS(
      expect_error<std::runtime_error>(
          [&] { save_checkpoint(folder, checkpoint, StoredPrecision::kFloat32); }, folder),
      "directory");
  EXPECT_CONTAINS(expect_error<std::runtime_error>(
                      [&] {
                        save_checkpoint(folder + "/no/such/folder.attnmodel", checkpoint,
                                        StoredPrecision::kFloat32);
                      },
                      folder + "/no/such/folder.attnmodel"),
                  "No such file");

  // A full disk: the previous file stays whole, no temporary file is left behind.
  const std::string path = folder + "/model.attnmodel";
  save_checkpoint(path, checkpoint, StoredPrecision::kFloat16);
  const std::string before = read_bytes(path);
  {
    FileSizeLimit limit(4096);
    EXPECT_CONTAINS(
        expect_error<std::runtime_error>(
            [&] { save_checkpoint(path, checkpoint, StoredPrecision::kFloat32); }, path),
        "File too large");
  }
  EXPECT_EQ(read_bytes(path), before);
  expect_no_temporary_files(folder);
}

// ---------------------------------------------------------------------------------------------
// Training: bad options and outputs fail before the first epoch; divergence keeps the best model.

TrainOptions tiny_training(const std::string& folder) {
  TrainOptions options =
      testing::task_training(folder, testing::Task::kCopy, "additive", 200, 20, 1, "out.attnmodel");
  options.model.embedding = 8;
  options.model.hidden = 8;
  options.model.attention = 8;
  options.epochs = 1;
  options.batch_size = 16;
  options.min_frequency = 1;
  return options;
}

TEST(HostileTraining, BadOutputsFailBeforeAnyCorpusIsRead) {
  const std::string folder = testing::temporary_folder();
  TrainOptions options = tiny_training(folder);
  options.source_path = options.target_path = folder + "/not-read-yet";  // would fail later
  const std::string fifo = folder + "/fifo.attnmodel";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  struct Case {
    std::string out;
    const char* error;
  };
  std::vector<Case> cases = {
      {"", "the output path is empty"},
      {folder, "is a directory"},
      {folder + "/missing/model.attnmodel", "does not exist"},
      {fifo, "not a regular file"},
  };
  if (::geteuid() != 0) {
    const std::string locked = folder + "/locked";
    fs::create_directory(locked);
    ::chmod(locked.c_str(), 0555);
    cases.push_back({locked + "/model.attnmodel", "cannot write to output folder"});
  } else if (fs::is_directory("/proc")) {
    cases.push_back({"/proc/model.attnmodel", "cannot write to output folder"});  // even root can't
  }
  for (const auto& c : cases) {
    SCOPED_TRACE(c.out);
    options.output_path = c.out;
    bool epoch_started = false;
    TrainObserver observer;
    observer.progress = [&](const TrainProgress&) { epoch_started = true; };
    try {
      train(options, observer);
      ADD_FAILURE() << "no error";
    } catch (const SettingError& e) {
      EXPECT_EQ(e.setting(), "output_path");
      EXPECT_CONTAINS(std::string(e.what()), c.error);
    }
    EXPECT_FALSE(epoch_started);
  }
  EXPECT_TRUE(fs::is_fifo(fifo));
}

TEST(HostileTraining, BadOptionsAndTestSetsFailBeforeTheFirstEpoch) {
  const std::string folder = testing::temporary_folder();
  struct Case {
    const char* name;
    std::function<void(TrainOptions&)> edit;
    const char* error;
  };
  const std::string latin1 = write_bytes(
      "stra\xDF"
      "e\n",
      "latin1.txt");
  const std::vector<Case> cases = {
      {"dropout 1.5", [](auto& o) { o.model.dropout = 1.5; }, "the dropout must be"},
      {"NaN learning rate", [](auto& o) { o.learning_rate = std::nan(""); },
       "the learning rate must be"},
      {"negative learning rate", [](auto& o) { o.learning_rate = -1; },
       "the learning rate must be"},
      {"minimum frequency 0", [](auto& o) { o.min_frequency = 0; },
       "the minimum word frequency must be at least 1"},
      {"unknown score function", [](auto& o) { o.model.score = "magic"; },
       "unknown score function 'magic' (dot, general"},
      {"hidden 100000", [](auto& o) { o.model.hidden = 100000; }, "between 1 and"},
      {"missing test set",
       [&](auto& o) { o.test_source_path = o.test_target_path = folder + "/nope"; },
       "does not exist"},
      {"Latin-1 training corpus", [&](auto& o) { o.source_path = latin1; }, "is not UTF-8"},
      {"Latin-1 test reference",
       [&](auto& o) {
         o.test_source_path = o.source_path;
         o.test_target_path = latin1;
       },
       "is not UTF-8"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    TrainOptions options = tiny_training(folder);
    c.edit(options);
    bool epoch_started = false;
    TrainObserver observer;
    observer.progress = [&](const TrainProgress&) { epoch_started = true; };
    EXPECT_CONTAINS(expect_error([&] { train(options, observer); }, ""), c.error);
    EXPECT_FALSE(epoch_started);
    EXPECT_FALSE(fs::exists(options.output_path));
  }
}

TEST(HostileTraining, DivergenceIsReportedWithItsBatchAndKeepsThePreviousFile) {
  const std::string folder = testing::temporary_folder();
  TrainOptions options = tiny_training(folder);
  std::ofstream(options.output_path) << "the previous model";
  options.learning_rate = 1e30;  // the first step throws every weight to ~1e30
  options.epochs = 2;
  options.max_batches = 3;
  std::string message = expect_error<std::runtime_error>([&] { train(options); }, "");
  EXPECT_CONTAINS(message, "training diverged: the loss is nan at epoch 1, batch 2");
  EXPECT_CONTAINS(message, "no model was saved");
  EXPECT_EQ(read_bytes(options.output_path), "the previous model");

  // With one batch per epoch the damage shows first in validation: no NaN model is saved as best.
  options.max_batches = 1;
  message = expect_error<std::runtime_error>([&] { train(options); }, "");
  EXPECT_CONTAINS(message, "the validation loss is");
  EXPECT_CONTAINS(message, "after epoch 1");
  EXPECT_EQ(read_bytes(options.output_path), "the previous model");
}

TEST(HostileTraining, DivergenceAfterAGoodEpochKeepsThatEpochsModel) {
  const std::string folder = testing::temporary_folder();
  TrainOptions options = tiny_training(folder);
  options.learning_rate = 3e-3;
  train(options);
  const std::string best = read_bytes(options.output_path);
  // Resume with a learning rate that blows the weights up in the next epoch.
  const std::string state_path = options.output_path + ".state";
  Checkpoint state = load_checkpoint(state_path);
  state.extra["resume"]["learning_rate"] = 1e30;
  save_checkpoint(state_path, state, StoredPrecision::kFloat32);
  options.resume = true;
  options.epochs = 3;
  const std::string message = expect_error<std::runtime_error>([&] { train(options); }, "");
  EXPECT_CONTAINS(message, "training diverged");
  EXPECT_CONTAINS(message, "epoch 2");
  EXPECT_CONTAINS(message, "'" + options.output_path + "' keeps the best model, from epoch 1");
  EXPECT_EQ(read_bytes(options.output_path), best);
  expect_no_temporary_files(folder);
}

// Resuming with settings other than the state's is refused, each difference named; the stored
// settings are never used silently in place of the command's.
TEST(HostileTraining, ResumeWithOtherSettingsIsRefusedNamingEachDifference) {
  const std::string folder = testing::temporary_folder();
  TrainOptions options = tiny_training(folder);
  train(options);
  const std::string state_path = options.output_path + ".state";
  const std::string state_before = read_bytes(state_path);
  options.resume = true;
  options.epochs = 2;
  TrainOptions changed = options;
  changed.model.score = "dot";
  changed.model.hidden = 12;
  changed.model.dropout = 0.1;
  changed.source_path = changed.validation_source_path;  // another training corpus
  changed.target_path = changed.validation_target_path;
  try {
    train(changed);
    ADD_FAILURE() << "resumed with other settings";
  } catch (const SettingError& e) {
    const std::string message = e.what();
    EXPECT_EQ(e.setting(), "resume");
    EXPECT_CONTAINS(message, "cannot resume '" + state_path + "'");
    EXPECT_CONTAINS(message, "score function: \"additive\" in the state, \"dot\" now");
    EXPECT_CONTAINS(message, "hidden size: 8 in the state, 12 now");
    EXPECT_CONTAINS(message, "dropout: ");
    EXPECT_CONTAINS(message, "training corpus: ");
    EXPECT_EQ(message.find("embedding size"), std::string::npos) << "unchanged, yet listed";
  }
  EXPECT_EQ(read_bytes(state_path), state_before);
  // The same settings resume; more epochs are not a difference.
  std::vector<std::string> notes;
  TrainObserver observer;
  observer.message = [&](const std::string& note) { notes.push_back(note); };
  const TrainingRecord record = train(options, observer);
  EXPECT_EQ(record.epochs, 2);
  ASSERT_FALSE(notes.empty());
  EXPECT_CONTAINS(notes.back(), "resuming '" + state_path + "' after epoch 1");
}

}  // namespace
}  // namespace attnscope
