// Subword models: the SentencePiece models the trainer learns, how the model file keeps them,
// and every decoding path on a model that reads and writes pieces.
#include <attnscope/corpus.h>
#include <attnscope/errors.h>
#include <attnscope/model_folders.h>
#include <attnscope/text.h>
#include <attnscope/trainer.h>
#include <attnscope/translator.h>
#include <attnscope/word_view.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <numeric>
#include <sstream>

#include "engine/test_models.h"
#include "engine/translation_checks.h"
#include "io/checkpoint.h"
#include "io/subword_model.h"

namespace attnscope {
namespace {

const std::string kWordStart = "\u2581";

#define EXPECT_CONTAINS(text, part) EXPECT_NE((text).find(part), std::string::npos) << (text)

std::vector<std::vector<std::string>> tokenized_lines(const std::string& path) {
  std::vector<std::vector<std::string>> lines;
  for (const auto& line : read_utf8_lines(path)) lines.push_back(tokenize(line));
  return lines;
}

std::vector<std::string> merged(const std::vector<std::string>& pieces) {
  std::vector<std::string> words;
  for (const auto& group : word_groups(pieces, kWordStart, "</s>"))
    words.push_back(word_text(pieces, group, kWordStart));
  return words;
}

// The word view of a translation's attention, and the source words it should show for `sentence`.
WordView word_view_of(const Translation& t) {
  return word_view(t.source.tokens, t.tokens, t.attention, t.subword_marker, t.end_token);
}

std::vector<std::string> source_words_with_end(const std::string& sentence) {
  std::vector<std::string> words = tokenize(sentence);
  words.push_back("</s>");
  return words;
}

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

uint32_t file_version(const std::string& path) {
  const std::string bytes = testing::read_bytes(path);
  uint32_t version = 0;
  std::memcpy(&version, bytes.data() + 16, 4);
  return version;
}

// ---------------------------------------------------------------------------------------------
// SentencePiece models

TEST(SubwordModel, EncodingThenDecodingGivesTheTrainingTextBack) {
  const std::string corpus =
      testing::write_syllable_corpus(testing::temporary_folder(), "text", 300, 3);
  const auto sentences = tokenized_lines(corpus + ".src");
  const SubwordModel model = SubwordModel::learn(sentences, 100);
  ASSERT_EQ(model.pieces().size(), 100u);
  size_t split_words = 0;
  for (const auto& tokens : sentences) {
    const std::vector<std::string> pieces = model.encode(tokens);
    EXPECT_EQ(model.decode(pieces), join_tokens(tokens));
    // Each token begins a piece of its own with the marker: joining pieces gives the tokens.
    EXPECT_EQ(merged(pieces), tokens);
    for (const auto& piece : pieces) EXPECT_TRUE(contains(model.pieces(), piece)) << piece;
    split_words += pieces.size() - tokens.size();
  }
  EXPECT_GT(split_words, 100u) << "hardly a word was split: the test would not test pieces";
}

TEST(SubwordModel, AnOverlongTokenStaysOnePiece) {
  const std::string corpus =
      testing::write_syllable_corpus(testing::temporary_folder(), "text", 100, 6);
  const SubwordModel model = SubwordModel::learn(tokenized_lines(corpus + ".src"), 100);
  const std::string huge(1 << 20, 'k');  // SentencePiece would take ~25 s over it
  const std::vector<std::string> tokens = {"kalo", huge, "mi"};
  const std::vector<std::string> pieces = model.encode(tokens);
  EXPECT_TRUE(contains(pieces, kWordStart + huge));
  EXPECT_FALSE(contains(model.pieces(), kWordStart + huge));
  EXPECT_EQ(merged(pieces), tokens);     // how attnscope makes words of pieces
  const std::string longest(1000, 'k');  // still split
  EXPECT_GT(model.encode({longest}).size(), 1u);
}

TEST(SubwordModel, FromAThousandPiecesAnUnseenCharacterIsSpelledByItsBytes) {
  const std::string corpus =
      testing::write_syllable_corpus(testing::temporary_folder(), "text", 300, 7);
  const auto sentences = tokenized_lines(corpus + ".src");
  // "ł" (C5 82) and "ü" (C3 BC) never occur in the syllable corpus.
  const std::vector<std::string> tokens = {"kalo", "\u0142\u00fcmi", "ne"};
  const SubwordModel large = SubwordModel::learn(sentences, 1000);
  const std::vector<std::string> pieces = large.encode(tokens);
  EXPECT_TRUE(contains(pieces, "<0xC5>"));
  EXPECT_TRUE(contains(pieces, "<0x82>"));
  for (const auto& piece : pieces) EXPECT_TRUE(contains(large.pieces(), piece)) << piece;
  EXPECT_EQ(merged(pieces), tokens);  // the word view's words: the bytes back as characters
  EXPECT_EQ(large.decode(pieces), join_tokens(tokens));
  // The training text itself never needs a byte: every character it has is a piece.
  for (const auto& sentence : sentences)
    for (const auto& piece : large.encode(sentence)) EXPECT_NE(piece.rfind("<0x", 0), 0u) << piece;
  // Below a thousand pieces the 256 byte pieces would crowd the vocabulary: an unknown piece as
  // before (SentencePiece gives its text, "łü", which the vocabulary reads as <unk>).
  const SubwordModel small = SubwordModel::learn(sentences, 100);
  const std::vector<std::string> small_pieces = small.encode(tokens);
  EXPECT_TRUE(std::any_of(small_pieces.begin(), small_pieces.end(), [&](const auto& piece) {
    return !contains(small.pieces(), piece);
  })) << join_tokens(small_pieces);
  EXPECT_FALSE(contains(small.pieces(), "<0xC5>"));
}

TEST(WordView, BytePiecesContinueTheirWordAndStrayBytesBecomeReplacementCharacters) {
  const std::vector<std::string> pieces = {"\u2581", "<0xC5>", "<0x82>",   "\u2581ka", "<0xC5>",
                                           "<unk>",  "<0xZZ>", "\u2581mi", "</s>"};
  const auto groups = word_groups(pieces, kWordStart, "</s>");
  const std::vector<std::vector<int>> expected = {{0, 1, 2}, {3, 4}, {5}, {6}, {7}, {8}};
  EXPECT_EQ(groups, expected);
  EXPECT_EQ(word_text(pieces, groups[0], kWordStart), "\u0142");
  // A lead byte without its continuation (a model may emit one): U+FFFD, still UTF-8.
  EXPECT_EQ(word_text(pieces, groups[1], kWordStart), "ka\uFFFD");
  EXPECT_EQ(word_text(pieces, groups[3], kWordStart), "<0xZZ>");
  // Without SentencePiece's marker "<0xC5>" is a token like any other "<…>": alone, as written.
  EXPECT_EQ(word_groups({"a@@", "<0xC5>"}, "@@", "</s>").size(), 2u);
  EXPECT_EQ(word_text({"<0xC5>"}, {0}, ""), "<0xC5>");
}

TEST(SubwordModel, LearningIsDeterministicAndTheIdsAreAttnscopesVocabulary) {
  const std::string corpus =
      testing::write_syllable_corpus(testing::temporary_folder(), "text", 200, 4);
  const auto sentences = tokenized_lines(corpus + ".tgt");
  const SubwordModel a = SubwordModel::learn(sentences, 120);
  const SubwordModel b = SubwordModel::learn(sentences, 120);
  EXPECT_EQ(a.bytes(), b.bytes());
  EXPECT_NE(SubwordModel::learn(sentences, 110).bytes(), a.bytes());
  const Vocabulary vocabulary = Vocabulary::from_tokens(a.pieces());
  EXPECT_EQ(vocabulary.token(Vocabulary::kUnk), "<unk>");
  EXPECT_EQ(vocabulary.token(Vocabulary::kEos), "</s>");
  // No piece stands for <s> or </s> inside a sentence: SentencePiece adds neither.
  for (const auto& tokens : sentences)
    for (const auto& piece : a.encode(tokens)) EXPECT_GE(vocabulary.id(piece), 4) << piece;
  EXPECT_EQ(SubwordModel::from_bytes(a.bytes()).pieces(), a.pieces());
}

TEST(SubwordModel, BytesThatAreNoUsableModelAreRefusedWithAReason) {
  const std::string corpus =
      testing::write_syllable_corpus(testing::temporary_folder(), "text", 100, 5);
  const std::string good = SubwordModel::learn(tokenized_lines(corpus + ".src"), 100).bytes();
  // A normaliser map is read unchecked by SentencePiece: refused before it sees the bytes.
  const std::string map =
      "\x12\x04"
      "abcd";  // NormalizerSpec.precompiled_charmap = "abcd"
  const std::string with_map = good + "\x1a" + static_cast<char>(map.size()) + map;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", ""},
      {"garbage", "not a SentencePiece model"},
      {std::string(64, '\xff'), "not a SentencePiece model"},
      {good.substr(0, good.size() / 2), ""},
      {with_map, "precompiled character map"},
  };
  for (const auto& [bytes, reason] : cases) {
    SCOPED_TRACE(bytes.size());
    try {
      SubwordModel::from_bytes(bytes);
      ADD_FAILURE() << "read";
    } catch (const std::invalid_argument& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
      EXPECT_FALSE(message.empty());
      EXPECT_CONTAINS(message, reason);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Training

TEST(SubwordTraining, TheModelFileHoldsBothModelsAndItsInfoSaysSo) {
  const std::string path = testing::subword_model();
  EXPECT_EQ(file_version(path), 2u);  // version 3 is for cased models only
  const Checkpoint checkpoint = load_checkpoint(path);
  EXPECT_EQ(checkpoint.subwords, kSentencePiece);
  EXPECT_EQ(checkpoint.source_subwords.pieces(), checkpoint.source_vocabulary.tokens());
  EXPECT_EQ(checkpoint.target_subwords.pieces(), checkpoint.target_vocabulary.tokens());
  const Translator translator(path);
  EXPECT_EQ(translator.info().subwords, "sentencepiece");
  EXPECT_EQ(translator.info().subword_marker, kWordStart);
  EXPECT_EQ(translator.info().config.source_vocab, 100);
  EXPECT_EQ(translator.info().config.target_vocab, 100);
  // Header only (the model list): it is known to be a subword model without the weights.
  EXPECT_EQ(load_checkpoint(path, /*header_only=*/true).subwords, kSentencePiece);
}

TEST(SubwordTraining, AModelWithByteFallbackReadsAndForcesUnseenCharactersWithoutUnk) {
  const std::string folder = testing::temporary_folder();
  TrainOptions options = testing::subword_training(folder, "additive", 1000, "bytes.attnmodel");
  options.epochs = 1;
  options.max_batches = 4;
  train(options);
  const Translator translator(options.output_path);
  // "Łódź" has three characters the corpus never has (ł, ó, ź): spelled by bytes on both sides.
  const std::string sentence = "Kalo \u0141\u00f3d\u017a mi .";
  const Translation t = translator.translate(sentence);
  const Checkpoint checkpoint = load_checkpoint(options.output_path);
  for (const auto& piece : t.source.tokens)
    EXPECT_TRUE(checkpoint.source_vocabulary.contains(piece)) << piece;  // no <unk>
  EXPECT_TRUE(contains(t.source.tokens, "<0xC5>"));
  EXPECT_EQ(word_view_of(t).source_words, source_words_with_end(sentence));
  const std::string reference = "mi \u0142\u00f3d\u017a kalo .";
  const Translation forced = translator.force_decode(sentence, reference);
  for (const auto& piece : forced.tokens)
    EXPECT_TRUE(checkpoint.target_vocabulary.contains(piece)) << piece;
  EXPECT_EQ(forced.words(), tokenize(reference));
  testing::expect_attention_contract(forced);
}

// A joint model is one SentencePiece model for both sides; by default each side has its own.
// The target side here writes every word with a "pu" in front, a letter the source never has.
TEST(SubwordTraining, AJointModelSplitsBothSidesWithOneSentencePieceModel) {
  const std::string folder = testing::temporary_folder();
  auto has_p = [](const Vocabulary& vocabulary) {
    for (const std::string& piece : vocabulary.tokens())
      if (piece.front() != '<' && piece.find('p') != std::string::npos) return true;  // <pad>
    return false;
  };
  for (const bool joint : {false, true}) {
    TrainOptions options = testing::subword_training(
        folder, "additive", 120, joint ? "joint.attnmodel" : "separate.attnmodel");
    std::istringstream lines(testing::read_bytes(options.target_path));
    std::ofstream target(options.target_path);
    for (std::string line; std::getline(lines, line);) {
      std::istringstream words(line);
      for (std::string word; words >> word;) target << (word == "." ? word : "pu" + word) << ' ';
      target << '\n';
    }
    target.close();
    options.joint_subwords = joint;
    options.epochs = 1;
    options.max_batches = 2;
    train(options);
    const Checkpoint checkpoint = load_checkpoint(options.output_path);
    EXPECT_EQ(checkpoint.source_subwords.bytes() == checkpoint.target_subwords.bytes(), joint);
    EXPECT_TRUE(has_p(checkpoint.target_vocabulary));
    EXPECT_EQ(has_p(checkpoint.source_vocabulary), joint);  // the other side's pieces
  }
  TrainOptions words = testing::subword_training(folder, "additive", 0, "words.attnmodel");
  words.joint_subwords = true;
  try {
    train(words);
    ADD_FAILURE() << "a joint model of words";
  } catch (const SettingError& e) {
    EXPECT_EQ(e.setting(), "joint_subwords");
  }
}

// A cased model reads text as written ("Kalo" and "Kalo." as typed) and writes text a reader
// expects: its words keep case and punctuation, so joined by spaces they are the text.
TEST(SubwordTraining, ACasedModelReadsAndWritesTextAsWritten) {
  const std::string folder = testing::temporary_folder();
  TrainOptions options = testing::subword_training(folder, "additive", 120, "cased.attnmodel");
  options.model.cased = true;
  options.joint_subwords = true;
  options.epochs = 1;
  options.max_batches = 4;
  train(options);
  EXPECT_EQ(file_version(options.output_path), 3u);  // older builds refuse it, not lowercase it
  const Translator translator(options.output_path);
  EXPECT_EQ(translator.info().tokenizer, kCasedTokenizer);
  EXPECT_TRUE(translator.info().config.cased);
  const std::string sentence = "Kalo mine Rusota.";
  const Translation t = translator.translate(sentence);
  std::vector<std::string> expected = split_as_written(sentence);
  expected.push_back("</s>");
  EXPECT_EQ(word_view_of(t).source_words, expected);
  ASSERT_FALSE(t.source.tokens.empty());
  EXPECT_EQ(t.source.tokens.front().rfind(kWordStart + "K", 0), 0u)
      << t.source.tokens.front() << ": the capital is read as typed";
  const std::string reference = "Rusota mine kalo.";
  const Translation forced = translator.force_decode(sentence, reference);
  EXPECT_EQ(forced.words(), split_as_written(reference));
  EXPECT_EQ(join_tokens(forced.words()), reference);
  testing::expect_attention_contract(forced);
  // A word model cannot be cased: its vocabulary is lowercase words.
  TrainOptions words = testing::subword_training(folder, "additive", 0, "words.attnmodel");
  words.model.cased = true;
  try {
    train(words);
    ADD_FAILURE() << "a cased word model";
  } catch (const SettingError& e) {
    EXPECT_EQ(e.setting(), "model.cased");
  }
}

// Report sets are validated every epoch like the validation set, and choose nothing: the
// validation set itself given as a report set scores exactly its BLEU.
TEST(SubwordTraining, ReportSetsAreScoredEachEpochLikeTheValidationSet) {
  const std::string folder = testing::temporary_folder();
  TrainOptions options = testing::subword_training(folder, "additive", 120, "report.attnmodel");
  options.model.cased = true;
  options.epochs = 2;
  options.max_batches = 3;
  options.report_sets = {{options.validation_source_path, options.validation_target_path}};
  std::vector<EpochSummary> epochs;
  TrainObserver observer;
  observer.epoch_done = [&](const EpochSummary& s) { epochs.push_back(s); };
  train(options, observer);
  ASSERT_EQ(epochs.size(), 2u);
  for (const EpochSummary& s : epochs) {
    ASSERT_EQ(s.reported.size(), 1u);
    EXPECT_EQ(s.reported[0].first, report_set_name(options.validation_source_path));
    EXPECT_DOUBLE_EQ(s.reported[0].second, s.validation_bleu);
  }
  EXPECT_EQ(report_set_name("../data/tatoeba/en-de/val.en.gz"), "en-de/val");
  EXPECT_EQ(report_set_name("corpus.txt"), "corpus.txt");
  options.report_sets = {{folder + "/missing.en", folder + "/missing.de"}};
  options.output_path = folder + "/missing.attnmodel";
  try {
    train(options);
    ADD_FAILURE() << "a missing report set";
  } catch (const std::exception& e) {
    EXPECT_CONTAINS(std::string(e.what()), "missing.en");
  }
}

// Every model of a language pair shares one vocabulary: a run takes another model's
// SentencePiece models instead of learning its own, and refuses one that reads text otherwise.
TEST(SubwordTraining, ARunTakesTheSubwordModelsOfAnotherModel) {
  const std::string folder = testing::temporary_folder();
  TrainOptions options = testing::subword_training(folder, "dot", 0, "shared.attnmodel");
  options.subwords_from = testing::subword_model();
  options.epochs = 1;
  options.max_batches = 2;
  train(options);
  const Checkpoint donor = load_checkpoint(options.subwords_from);
  const Checkpoint taker = load_checkpoint(options.output_path);
  EXPECT_EQ(taker.source_subwords.bytes(), donor.source_subwords.bytes());
  EXPECT_EQ(taker.target_subwords.bytes(), donor.target_subwords.bytes());
  EXPECT_EQ(taker.target_vocabulary.tokens(), donor.target_vocabulary.tokens());
  struct Case {
    std::string from;
    bool cased;
    int pieces;
    std::string error;
  };
  const std::vector<Case> cases = {
      {testing::subword_model(), true, 0, "reads text lowercased and this run cased"},
      {testing::subword_model(), false, 100, "not both"},
      {testing::random_model_file("general"), false, 0, "is no subword model"},
      {folder + "/missing.attnmodel", false, 0, "missing.attnmodel"},
  };
  for (const Case& c : cases) {
    TrainOptions bad = testing::subword_training(folder, "dot", c.pieces, "bad.attnmodel");
    bad.subwords_from = c.from;
    bad.model.cased = c.cased;
    bad.epochs = 1;
    bad.max_batches = 1;
    try {
      train(bad);
      ADD_FAILURE() << c.error;
    } catch (const SettingError& e) {
      EXPECT_EQ(e.setting(), "subwords_from");
      EXPECT_CONTAINS(std::string(e.what()), c.error);
    }
  }
}

// The largest difference between the parameters of two model files of one shape.
float largest_weight_difference(const Checkpoint& a, const Checkpoint& b) {
  float largest = 0.0f;
  for (const auto& [name, tensor] : a.tensors) {
    if (!tensor.is_floating_point()) continue;
    for (const auto& [other_name, other] : b.tensors)
      if (other_name == name)
        largest = std::max(largest, (tensor - other).abs().max().item<float>());
  }
  return largest;
}

// A run can start from a finished model's weights and vocabulary (a shipped model trained
// further): with a learning rate too small to move them, it ends where the model was, and a
// fresh run with the same seed does not; the record adds the model's epochs and command.
TEST(SubwordTraining, ARunStartsFromAnotherModelsWeights) {
  const std::string folder = testing::temporary_folder();
  const Checkpoint initial = load_checkpoint(testing::subword_model());
  auto run = [&](const std::string& name, const std::string& init_from,
                 const std::string& command) {
    TrainOptions options =
        testing::subword_training(folder, "additive", init_from.empty() ? 100 : 0, name);
    options.init_from = init_from;
    options.epochs = 1;
    options.max_batches = 2;
    options.learning_rate = 1e-12;
    options.command = command;
    train(options);
    return load_checkpoint(options.output_path);
  };
  // The test model records no command: its record gives this run's alone.
  const Checkpoint continued =
      run("continued.attnmodel", testing::subword_model(), "attnscope-cli train --more");
  const Checkpoint fresh = run("fresh.attnmodel", "", "attnscope-cli train --fresh");
  EXPECT_EQ(continued.source_subwords.bytes(), initial.source_subwords.bytes());
  EXPECT_EQ(continued.target_vocabulary.tokens(), initial.target_vocabulary.tokens());
  EXPECT_LT(largest_weight_difference(continued, initial), 1e-3f);  // both stored as float16
  EXPECT_GT(largest_weight_difference(fresh, initial), 0.05f);
  EXPECT_EQ(continued.training.epochs, initial.training.epochs + 1);
  EXPECT_EQ(continued.training.best_epoch, initial.training.epochs + 1);
  EXPECT_GE(continued.training.seconds, initial.training.seconds);
  EXPECT_EQ(continued.training.command, "attnscope-cli train --more");
  const Checkpoint again =
      run("again.attnmodel", folder + "/continued.attnmodel", "attnscope-cli train --again");
  EXPECT_EQ(again.training.epochs, initial.training.epochs + 2);
  EXPECT_EQ(again.training.command, "attnscope-cli train --more; then attnscope-cli train --again");
}

TEST(SubwordTraining, AnInitialModelOfAnotherShapeOrWithAVocabularyIsRefused) {
  const std::string folder = testing::temporary_folder();
  struct Case {
    std::function<void(TrainOptions&)> change;
    std::string error;
  };
  const std::vector<Case> cases = {
      {[](TrainOptions& o) { o.model.hidden *= 2; }, "hidden 32 there, 64 here"},
      {[](TrainOptions& o) { o.model.score = "dot"; }, "score \"additive\" there, \"dot\" here"},
      {[](TrainOptions& o) { o.model.cased = true; }, "cased unset there, true here"},
      {[](TrainOptions& o) { o.subwords = 100; }, "not both"},
      {[](TrainOptions& o) { o.subwords_from = testing::subword_model(); }, "not both"},
      {[&](TrainOptions& o) { o.init_from = folder + "/missing.attnmodel"; }, "missing.attnmodel"},
      {[](TrainOptions& o) { o.init_from = testing::random_model_file("general"); },
       "another shape"},
  };
  for (const Case& c : cases) {
    TrainOptions bad = testing::subword_training(folder, "additive", 0, "bad.attnmodel");
    bad.init_from = testing::subword_model();
    bad.epochs = 1;
    bad.max_batches = 1;
    c.change(bad);
    try {
      train(bad);
      ADD_FAILURE() << c.error;
    } catch (const SettingError& e) {
      EXPECT_EQ(e.setting(), "init_from");
      EXPECT_CONTAINS(std::string(e.what()), c.error);
    }
  }
}

TEST(SubwordTraining, BadPieceCountsAreRefusedNamingTheSetting) {
  const std::string folder = testing::temporary_folder();
  TrainOptions options = testing::subword_training(folder, "dot", 50, "m.attnmodel");
  try {
    train(options);
    ADD_FAILURE() << "trained with 50 pieces";
  } catch (const SettingError& e) {
    EXPECT_EQ(e.setting(), "subwords");
    EXPECT_CONTAINS(std::string(e.what()), "between 100 and 64000");
  }
  // More distinct characters than pieces: SentencePiece's reason, and the corpus named.
  std::ofstream text(folder + "/many.txt");
  for (int i = 0; i < 300; ++i) {  // U+4E00 + i: 300 ideographs, each a token of its own
    const int c = 0x4E00 + i;
    text << "a " << char(0xE0 | (c >> 12)) << char(0x80 | ((c >> 6) & 0x3F))
         << char(0x80 | (c & 0x3F)) << "\n";
  }
  text.close();
  options.source_path = folder + "/many.txt";
  options.target_path = folder + "/many.txt";
  options.subwords = 100;
  try {
    train(options);
    ADD_FAILURE() << "trained";
  } catch (const SettingError& e) {
    EXPECT_EQ(e.setting(), "subwords");
    const std::string message = e.what();
    EXPECT_CONTAINS(message, "cannot learn 100 subword pieces from '" + options.source_path + "'");
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
  EXPECT_FALSE(std::filesystem::exists(options.output_path));
}

// --resume of a subword run ends with the model an uninterrupted run makes; the state keeps the
// SentencePiece models. Another piece count, or words, is refused.
TEST(SubwordTraining, ResumeEndsWithTheSameModelAndOtherPieceCountsAreRefused) {
  const std::string folder = testing::temporary_folder();
  TrainOptions whole = testing::subword_training(folder, "additive", 100, "whole.attnmodel");
  whole.epochs = 2;
  whole.max_batches = 4;
  train(whole);
  TrainOptions part = whole;
  part.output_path = folder + "/part.attnmodel";
  part.epochs = 1;
  train(part);
  const Checkpoint state = load_checkpoint(part.output_path + ".state");
  EXPECT_EQ(state.subwords, kSentencePiece);
  part.resume = true;
  for (int pieces : {120, 0}) {
    TrainOptions other = part;
    other.subwords = pieces;
    other.epochs = 2;
    try {
      train(other);
      ADD_FAILURE() << "resumed with " << pieces << " pieces";
    } catch (const SettingError& e) {
      EXPECT_EQ(e.setting(), "resume");
      EXPECT_CONTAINS(std::string(e.what()),
                      "subword pieces: 100 in the state, " + std::to_string(pieces) + " now");
    }
  }
  part.epochs = 2;
  train(part);
  const Checkpoint a = load_checkpoint(whole.output_path), b = load_checkpoint(part.output_path);
  EXPECT_EQ(a.training.best_epoch, b.training.best_epoch);
  EXPECT_EQ(a.source_subwords.bytes(), b.source_subwords.bytes());
  EXPECT_EQ(a.target_subwords.bytes(), b.target_subwords.bytes());
  ASSERT_EQ(a.tensors.size(), b.tensors.size());
  for (size_t i = 0; i < a.tensors.size(); ++i)
    EXPECT_TRUE(torch::equal(a.tensors[i].second, b.tensors[i].second)) << a.tensors[i].first;
}

// A state written before subword models existed is a word model's: resuming it with pieces is a
// difference, not a setting missing on one side.
TEST(SubwordTraining, AnOlderWordStateIsNotResumedWithPieces) {
  const std::string folder = testing::temporary_folder();
  TrainOptions options = testing::subword_training(folder, "dot", 0, "words.attnmodel");
  options.max_batches = 2;
  train(options);
  const std::string state_path = options.output_path + ".state";
  Checkpoint state = load_checkpoint(state_path);
  ASSERT_TRUE(state.extra["settings"].contains("subwords"));
  state.extra["settings"].erase("subwords");
  save_checkpoint(state_path, state, StoredPrecision::kFloat32);
  options.resume = true;
  options.subwords = 100;
  options.epochs = 2;
  try {
    train(options);
    ADD_FAILURE() << "resumed a word model's state with pieces";
  } catch (const SettingError& e) {
    EXPECT_CONTAINS(std::string(e.what()), "subword pieces: 0 in the state, 100 now");
  }
}

// ---------------------------------------------------------------------------------------------
// Decoding

class SubwordDecoding : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const std::string path = testing::subword_model();
    translator_ = new Translator(path);
    checkpoint_ = new Checkpoint(load_checkpoint(path));
    const std::string corpus =
        testing::write_syllable_corpus(testing::temporary_folder(), "test", 12, 99);
    sentences_ = new std::vector<std::string>(read_utf8_lines(corpus + ".src"));
    references_ = new std::vector<std::string>(read_utf8_lines(corpus + ".tgt"));
  }
  static void TearDownTestSuite() {
    delete translator_;
    delete checkpoint_;
    delete sentences_;
    delete references_;
  }
  static const Translator& translator() { return *translator_; }
  static const Checkpoint& checkpoint() { return *checkpoint_; }
  static Translator* translator_;
  static Checkpoint* checkpoint_;
  static std::vector<std::string>*sentences_, *references_;
};
Translator* SubwordDecoding::translator_ = nullptr;
Checkpoint* SubwordDecoding::checkpoint_ = nullptr;
std::vector<std::string>* SubwordDecoding::sentences_ = nullptr;
std::vector<std::string>* SubwordDecoding::references_ = nullptr;

TEST_F(SubwordDecoding, TranslationsArePiecesAndTheirWordsJoinThem) {
  const Vocabulary& target = checkpoint().target_vocabulary;
  for (const auto& sentence : *sentences_) {
    const Translation t = translator().translate(sentence);
    std::vector<std::string> source = checkpoint().source_subwords.encode(tokenize(sentence));
    source.push_back("</s>");
    EXPECT_EQ(t.source.tokens, source);
    EXPECT_EQ(t.subword_marker, kWordStart);
    for (const auto& token : t.tokens) EXPECT_TRUE(target.contains(token)) << token;
    std::vector<std::string> pieces = t.tokens;
    if (!pieces.empty() && pieces.back() == "</s>") pieces.pop_back();
    EXPECT_EQ(t.words(), merged(pieces));
    for (const auto& word : t.words()) EXPECT_EQ(word.find(kWordStart), std::string::npos);
    testing::expect_attention_contract(t);
  }
}

TEST_F(SubwordDecoding, WordViewRowsSumToOneAndAreTheMeansOfTheirPiecesRows) {
  int merged_source_words = 0;
  for (const auto& sentence : *sentences_) {
    const Translation t = translator().translate(sentence);
    const WordView view = word_view_of(t);
    EXPECT_EQ(view.source_words, source_words_with_end(sentence));
    ASSERT_EQ(view.weights.size(), view.target_groups.size());
    for (size_t w = 0; w < view.weights.size(); ++w) {
      const auto& rows = view.target_groups[w];
      ASSERT_EQ(view.weights[w].size(), view.source_groups.size());
      EXPECT_NEAR(std::accumulate(view.weights[w].begin(), view.weights[w].end(), 0.0), 1.0, 1e-5);
      for (size_t u = 0; u < view.source_groups.size(); ++u) {
        double sum = 0.0;  // the piece cells of this word pair
        for (int r : rows)
          for (int c : view.source_groups[u]) sum += t.attention[r][c];
        EXPECT_NEAR(view.weights[w][u], sum / static_cast<double>(rows.size()), 1e-6);
      }
    }
    for (const auto& group : view.source_groups) merged_source_words += group.size() > 1 ? 1 : 0;
  }
  EXPECT_GT(merged_source_words, 0) << "no source word had several pieces";
}

TEST_F(SubwordDecoding, ForcedDecodingSplitsTheReferenceAsTrainingDid) {
  for (size_t i = 0; i < sentences_->size(); ++i) {
    const std::string& reference = (*references_)[i];
    const Translation forced = translator().force_decode((*sentences_)[i], reference);
    std::vector<std::string> pieces = checkpoint().target_subwords.encode(tokenize(reference));
    EXPECT_EQ(forced.words(), tokenize(reference));
    pieces.push_back("</s>");
    EXPECT_EQ(forced.tokens, pieces);
    for (float p : forced.probabilities) EXPECT_GT(p, 0.0f);
    testing::expect_attention_contract(forced);
  }
}

TEST_F(SubwordDecoding, StepwiseEqualsGreedyAndForcingTakesAPiece) {
  const std::string& sentence = sentences_->front();
  const Translation greedy = translator().translate(sentence);
  auto session = translator().start(sentence, 4);
  while (!session->finished()) session->step();
  EXPECT_EQ(session->translation().tokens, greedy.tokens);
  EXPECT_EQ(session->translation().attention, greedy.attention);
  EXPECT_EQ(session->translation().words(), greedy.words());
  for (const Step& step : session->steps())
    for (const Candidate& c : step.candidates)
      EXPECT_TRUE(checkpoint().target_vocabulary.contains(c.token)) << c.token;

  // A piece as the step panel shows it, and a word typed without the marker (one that is no
  // piece of its own: those are forced as typed).
  const Vocabulary& target = checkpoint().target_vocabulary;
  std::string piece;
  for (const auto& token : target.tokens())
    if (token.rfind(kWordStart, 0) == 0 && token.size() > kWordStart.size() + 2 &&
        !target.contains(token.substr(kWordStart.size())))
      piece = token;
  ASSERT_FALSE(piece.empty());
  const std::string word = piece.substr(kWordStart.size());
  for (const std::string& typed : {piece, word}) {
    auto what_if = translator().start(sentence, 4);
    const Step& step = what_if->force(typed);
    EXPECT_EQ(step.token, piece) << typed;
    EXPECT_EQ(what_if->translation().words().front(), word) << typed;
  }
  // Beam search: every hypothesis joins its pieces the same way.
  TranslationOptions beam;
  beam.beam_size = 3;
  for (const Translation& h : translator().translate_nbest(sentence, beam)) {
    EXPECT_EQ(h.subword_marker, kWordStart);
    std::vector<std::string> pieces = h.tokens;
    if (!pieces.empty() && pieces.back() == "</s>") pieces.pop_back();
    EXPECT_EQ(h.words(), merged(pieces));
    testing::expect_attention_contract(h);
  }
}

// ---------------------------------------------------------------------------------------------
// Model files

std::string write_bytes(const std::string& bytes) {
  const std::string path = testing::temporary_folder() + "/crafted.attnmodel";
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

uint32_t crc(const std::string& bytes) {
  return static_cast<uint32_t>(
      crc32_z(0, reinterpret_cast<const Bytef*>(bytes.data()), bytes.size()));
}

nlohmann::json& tensor_entry(nlohmann::json& header, const std::string& name) {
  for (auto& entry : header["tensors"])
    if (entry["name"] == name) return entry;
  throw std::logic_error("no tensor " + name);
}

TEST(SubwordModelFile, ACorruptOrMissingEmbeddedModelGivesOneLineNamingTheFile) {
  const std::string model = testing::subword_model();
  struct Case {
    const char* name;
    std::function<void(nlohmann::json&)> edit;
    std::function<void(std::string&)> edit_data;
    const char* error;
  };
  // The target model is the last tensor; its place is read from the header.
  size_t offset = 0, size = 0;
  auto locate = [&](nlohmann::json& h) {
    offset = tensor_entry(h, "subwords.target")["offset"].get<size_t>();
    size = tensor_entry(h, "subwords.target")["bytes"].get<size_t>();
  };
  const std::vector<Case> cases = {
      {"garbage with a right checksum",
       [&](auto& h) {
         locate(h);
         tensor_entry(h, "subwords.target")["crc32"] = crc(std::string(size, '\xff'));
       },
       [&](std::string& data) { data.replace(offset, size, std::string(size, '\xff')); },
       "is corrupted: its target SentencePiece model cannot be read (it is not a SentencePiece "
       "model)"},
      {"removed",
       [&](auto& h) {
         locate(h);
         auto& table = h["tensors"];
         table.erase(table.end() - 1);
       },
       [&](std::string& data) { data.resize(offset); }, "lacks its target SentencePiece model"},
      {"pieces other than the vocabulary's",
       [](auto& h) { std::swap(h["source_vocabulary"][10], h["source_vocabulary"][11]); },
       {},
       "the pieces of its source SentencePiece model differ from its source vocabulary"},
      {"an unknown kind of subwords",
       [](auto& h) { h["subwords"] = "wordpiece"; },
       {},
       "unknown kind of subwords 'wordpiece'"},
      {"bit flip in the model", [](auto&) {},
       [&](std::string& data) { data[data.size() - 9] ^= 4; },
       "checksum mismatch in tensor 'subwords.target'"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string path = write_bytes(testing::with_header(model, c.edit, c.edit_data));
    const std::string message = testing::model_load_error(path);
    EXPECT_CONTAINS(message, "model file '" + path + "' ");
    EXPECT_CONTAINS(message, c.error);
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

TEST(SubwordModelFile, WordModelsStayVersionOneAndOldFilesLoad) {
  const std::string words = testing::random_model_file("general");
  EXPECT_EQ(file_version(words), 1u);
  const Translator translator(words);
  EXPECT_TRUE(translator.info().subwords.empty());
  EXPECT_TRUE(translator.info().subword_marker.empty());
  EXPECT_FALSE(translator.translate("a b c").tokens.empty());
  // A shipped word model (version 1, from before subword models existed), when this tree has it:
  // `general`, a caption model (the everyday models are cased subword models).
  const std::string shipped = find_shipped_model("general");
  if (shipped.empty()) GTEST_SKIP() << "no shipped models in this tree";
  EXPECT_EQ(file_version(shipped), 1u);
  const Translator general(shipped);
  EXPECT_TRUE(general.info().subwords.empty());
  const Translation t = general.translate("A dog runs on the beach.");
  EXPECT_EQ(t.tokens.back(), "</s>");
  testing::expect_attention_contract(t);
}

TEST(SubwordModelFile, TheShippedDotModelReadsAndWritesPieces) {
  // `dot` ships as a subword model (it beat its word model; docs/models.md, Subword models).
  const std::string shipped = find_shipped_model("dot");
  if (shipped.empty()) GTEST_SKIP() << "no shipped models in this tree";
  EXPECT_EQ(file_version(shipped), 2u);
  const Translator dot(shipped);
  EXPECT_FALSE(dot.info().subwords.empty());
  const Translation t = dot.translate("Two dogs play with a frisbee in Grzegorz's garden.");
  EXPECT_EQ(t.tokens.back(), "</s>");
  EXPECT_EQ(std::count(t.tokens.begin(), t.tokens.end(), t.unknown_token), 0);
  EXPECT_GT(t.source.tokens.size(), 13u);  // 12 words and </s>: the name is spelled in pieces
  testing::expect_attention_contract(t);
}

// Whatever a user types — accented names, a Polish city, CJK, emoji, typos, symbols — a
// shipped cased model reads it without an unknown piece (byte fallback) and never writes <unk>:
// no training target holds one. Runs on every cased model this tree or install ships.
TEST(SubwordModelFile, NoShippedCasedModelReadsOrWritesUnk) {
  const std::vector<std::string> sentences = {
      "Angela and Grzegorz drink coffee in Z\u00fcrich.",
      "The library in \u0141\u00f3d\u017a closes at 6 p.m.",
      "\u6771\u4eac is a big city \U0001F600 and Se\u00f1or Nu\u00f1ez loves it!!",
      "Siobh\u00e1n sent 3\u00a0450 \u20ac to Bj\u00f6rn \u2014 \u00abvite\u00bb.",
      "Teh wheather is realy niec todya, isnt it??",
      "\U0001F469\u200D\U0001F4BB #hashtag @user https://example.org/a?b=c",
  };
  int cased_models = 0;
  for (const std::string& pair : shipped_language_pairs()) {
    for (const char* score :
         {"additive", "dot", "general", "scaled_dot", "cosine", "location", "none"}) {
      const std::string path = find_shipped_model(score, pair);
      if (path.empty()) continue;
      const Translator translator(path);
      if (!translator.info().config.cased) continue;
      ++cased_models;
      TranslationOptions keep;  // the model's own output, no <unk> relabelled by copying
      keep.unknown_words = UnknownWords::kKeep;
      for (const std::string& sentence : sentences) {
        const Translation t = translator.translate(sentence, keep);
        EXPECT_TRUE(t.source.unknown_words.empty()) << path << ": " << sentence;
        EXPECT_EQ(std::count(t.tokens.begin(), t.tokens.end(), t.unknown_token), 0)
            << path << ": " << sentence << " -> " << join_tokens(t.words());
      }
    }
  }
  if (cased_models == 0) GTEST_SKIP() << "no cased shipped models in this tree";
}

TEST(SubwordModelFile, AFutureVersionNamesTheVersionsItReads) {
  std::string bytes = testing::read_bytes(testing::subword_model());
  bytes[16] = 4;
  const std::string message = testing::model_load_error(write_bytes(bytes));
  EXPECT_CONTAINS(message, "has format version 4; this attnscope reads version 3");
}

}  // namespace
}  // namespace attnscope
