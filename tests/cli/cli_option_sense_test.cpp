// Options that would do nothing, or something other than what was typed, are refused with one
// line naming the flag: a penalty without beam search, a method's setting given to another
// method, a number a float cannot hold, a forced word the model cannot write. Settings that
// cannot help are lowered with a note (threads beyond the cores), and a cut sentence is said.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/cli_process.h"
#include "engine/test_models.h"

namespace attnscope {
namespace {

using namespace cli_test;

class CliOptionSense : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { model_ = new std::string(testing::random_model_file()); }
  static void TearDownTestSuite() { delete model_; }
  static std::vector<std::string> with_model(std::vector<std::string> args) {
    args.insert(args.begin() + 1, {"--model", *model_, "--threads", "1"});
    return args;
  }
  static std::string* model_;
};
std::string* CliOptionSense::model_ = nullptr;

// A bad option's exit code, as CLI11 gives for its own checks.
constexpr int kBadOption = 105;

void expect_refused(const Outcome& r, const std::vector<std::string>& parts) {
  expect_clean_error(r, parts);
  EXPECT_EQ(r.exit_code, kBadOption) << r;
}

TEST_F(CliOptionSense, SettingsThatWouldDoNothingAreRefusedNamingWhatTheyNeed) {
  const std::string folder = testing::temporary_folder();
  const std::string text = write_bytes(folder, "s.en", "a b\n"),
                    ref = write_bytes(folder, "s.de", "c d\n");
  struct Case {
    std::vector<std::string> args;
    std::string flag, needs;
  };
  const std::vector<Case> cases = {
      {{"translate", "--length-penalty", "1", "a b"}, "--length-penalty", "--beam 2"},
      {{"translate", "--coverage-penalty", "0.2", "a b"}, "--coverage-penalty", "--beam 2"},
      {{"translate", "--beam", "1", "--any-ending", "a b"}, "--any-ending", "--beam 2"},
      {{"eval", "--src", text, "--ref", ref, "--length-penalty", "1"},
       "--length-penalty",
       "--beam"},
      {{"eval", "--src", text, "--faithfulness", "--beam", "3"}, "--beam", "--ref"},
      {{"eval", "--src", text, "--ref", ref, "--permutations", "3"},
       "--permutations",
       "--faithfulness"},
      {{"eval", "--src", text, "--ref", ref, "--ig-steps", "8"}, "--ig-steps", "--faithfulness"},
      {{"eval", "--src", text, "--ref", ref, "--unk", "keep", "--copy-threshold", "0.5"},
       "--copy-threshold",
       "--unk copy"},
      {{"eval", "--src", text, "--ref", ref, "--unk", "keep", "--copy-any"},
       "--copy-any",
       "--unk copy"},
      {{"eval", "--src", text, "--ref", ref, "--train-tgt", ref}, "--train-tgt", "--metrics"},
      {{"explain", "--method", "grad", "--ig-steps", "8", "a b"}, "--ig-steps", "--method ig"},
      {{"export", "--out", folder + "/a.csv", "--title", "T", "a b"}, "--title", "a picture"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.args[0] + " " + c.flag);
    expect_refused(run_cli(with_model(c.args)), {c.flag, "does nothing without " + c.needs});
  }
  // The same settings where they do something.
  expect_success(run_cli(with_model({"translate", "--beam", "2", "--length-penalty", "1", "a b"})));
  expect_success(run_cli(with_model({"explain", "--method", "ig", "--ig-steps", "8", "a b"})));
}

TEST_F(CliOptionSense, NumbersAFloatCannotHoldOrOutsideTheirRangeAreRefused) {
  const std::string folder = testing::temporary_folder();
  const std::string text = write_bytes(folder, "s.en", "a b\n"),
                    ref = write_bytes(folder, "s.de", "c d\n");
  for (const std::string& value : {"nan", "inf", "-1", "1.5", "1e308", "0x1p-2", " 0.5", "0.5 "}) {
    SCOPED_TRACE(value);
    expect_refused(
        run_cli(with_model({"eval", "--src", text, "--ref", ref, "--copy-threshold", value})),
        {"--copy-threshold", "from 0 to 1", "'" + value + "'"});
  }
  for (const std::string& value : {"nan", "1e308", "-0.5", "1e39"}) {
    SCOPED_TRACE(value);
    expect_refused(
        run_cli(with_model({"translate", "--beam", "2", "--length-penalty", value, "a b"})),
        {"--length-penalty", ">= 0", "'" + value + "'"});
  }
  expect_success(
      run_cli(with_model({"eval", "--src", text, "--ref", ref, "--copy-threshold", "0.25"})));
}

TEST_F(CliOptionSense, AForcedWordTheModelCannotWriteIsNamed) {
  // The random model's target vocabulary holds "a".."j".
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"translate", "--force", "a zebra b qq", "a b"},
        std::vector<std::string>{"translate", "--force", "a zebra b qq", "--edit-attention",
                                 "1:uniform", "a b"},
        std::vector<std::string>{"explain", "--method", "grad", "--force", "a zebra b qq",
                                 "a b"}}) {
    SCOPED_TRACE(args[0]);
    expect_clean_error(run_cli(with_model(args)),
                       {"--force", "cannot write 'zebra', 'qq'", "not in its vocabulary"});
  }
  expect_success(run_cli(with_model({"translate", "--force", "a b c", "a b"})));
}

TEST_F(CliOptionSense, ThreadsBeyondTheCoresAreLoweredWithANote) {
  const Outcome r = run_cli({"translate", "--model", *model_, "--threads", "1024", "a b"});
  expect_success(r);
  EXPECT_NE(r.err.find("--threads 1024: this machine has"), std::string::npos) << r;
  EXPECT_EQ(r.out_lines().size(), 1u) << r;
}

TEST_F(CliOptionSense, ExplainSaysWhenItCutsASentenceAndShowsWhatItRead) {
  const Outcome r =
      run_cli(with_model({"explain", "--method", "grad", testing::repeat_words("a", 500)}));
  expect_success(r);
  EXPECT_NE(r.err.find("sentence 1 has 500 tokens; explained its first"), std::string::npos) << r;
  ASSERT_FALSE(r.out_lines().empty());
  const std::string source = r.out_lines().front();
  EXPECT_EQ(source.rfind("source: ", 0), 0u) << source;
  EXPECT_LT(source.size(), 400u) << "the source line echoes every word";
  EXPECT_NE(source.find("500 tokens; the model reads the first"), std::string::npos) << source;
}

// Attention edits: one a step, decimal numbers as written, a long spec quoted, not echoed.
TEST_F(CliOptionSense, AttentionEditsSayWhatIsWrongInOneShortLine) {
  expect_clean_error(run_cli(with_model({"translate", "--edit-attention", "2:onehot=0",
                                         "--edit-attention", "2:onehot=1", "a b c"})),
                     {"both edit step 2"});
  for (const std::string spec : {"1:weights=0x10,1,1", "1:weights= 1,1,1", "1:weights=1e39,1,1"})
    expect_clean_error(run_cli(with_model({"translate", "--edit-attention", spec, "a b"})),
                       {"is not a decimal number"});
  expect_clean_error(run_cli(with_model({"translate", "--edit-attention", "1:uniform", ""})),
                     {"the sentence is empty"});
  std::string huge = "1:weights=1";
  for (int i = 0; i < 30000; ++i) huge += ",-1";
  const Outcome r = run_cli(with_model({"translate", "--edit-attention", huge, "a b"}));
  expect_clean_error(r, {"is negative"});
  EXPECT_LT(r.err.size(), 400u) << r.err.substr(0, 400);
}

}  // namespace
}  // namespace attnscope
