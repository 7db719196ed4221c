// ATTNSCOPE_ISA forces the engine's kernels down to a lower path (cpu_dispatch.h), read once per
// process: each path must translate as the CPU's best does, and a mistyped name is refused; so is
// an unknown --precision.
#include <gtest/gtest.h>

#include "cli/cli_process.h"
#include "engine/test_models.h"

namespace attnscope {
namespace {

using namespace cli_test;

// One sentence per run: a batch of one takes the matrix-vector path with the kernels (several
// sentences decode as a batch, in matrix products).
TEST(CliKernelPaths, EveryPathTranslatesAlike) {
  for (const char* sentence : {"A little girl climbs the stairs of a wooden playhouse.",
                               "Two men in orange vests are working on the street.",
                               "People are sitting at tables outside a restaurant at night."}) {
    const Outcome best = run_cli({"translate", "--threads", "1", sentence});
    expect_success(best);
    ASSERT_EQ(best.out_lines().size(), 1u) << best;
    for (const char* isa : {"avx2", "portable"}) {
      RunOptions forced;
      forced.environment = {{"ATTNSCOPE_ISA", isa}};
      const Outcome lower = run_cli({"translate", "--threads", "1", sentence}, forced);
      expect_success(lower);
      EXPECT_EQ(lower.out, best.out) << isa << ": " << sentence;
    }
  }
}

// The forced path is the one used (so the comparison above compares paths), and `auto` then
// trains in float32: the first note of a run says both.
TEST(CliKernelPaths, TheForcedPathIsTheOneUsed) {
  const std::string out = testing::temporary_folder() + "/m.attnmodel";
  RunOptions forced;
  forced.environment = {{"ATTNSCOPE_ISA", "portable"}};
  const Outcome r = run_cli(
      {"train", "--task", "reverse", "--epochs", "1", "--max-batches", "1", "--out", out}, forced);
  expect_success(r);
  EXPECT_NE(r.err.find("matrix products in float32; hand-written kernels portable"),
            std::string::npos)
      << r;
}

TEST(CliKernelPaths, AnUnknownPathIsNamed) {
  RunOptions options;
  options.environment = {{"ATTNSCOPE_ISA", "sse9"}};
  const Outcome r = run_cli({"models"}, options);
  expect_clean_error(r, {"ATTNSCOPE_ISA", "'sse9'", "avx2"});
}

// Int8 output weights (their largest logits computed again from the stored ones) translate as
// the stored weights on every path, from arguments and from a pipe decoded one line at a time.
TEST(CliKernelPaths, Int8OutputWeightsTranslateAlike) {
  const std::vector<std::string> sentences = {
      "A little girl climbs the stairs of a wooden playhouse.",
      "Two men in orange vests are working on the street.",
      "People are sitting at tables outside a restaurant at night."};
  RunOptions piped;
  for (const auto& sentence : sentences) piped.input += sentence + "\n";
  const Outcome stored =
      run_cli({"translate", "--threads", "1", "--batch", "1", "--output-weights", "stored"}, piped);
  expect_success(stored);
  ASSERT_EQ(stored.out_lines().size(), sentences.size()) << stored;
  for (const char* isa : {"avx512", "avx2", "portable"}) {
    RunOptions forced = piped;
    forced.environment = {{"ATTNSCOPE_ISA", isa}};
    const Outcome int8 =
        run_cli({"translate", "--threads", "1", "--output-weights", "int8"}, forced);
    expect_success(int8);
    EXPECT_EQ(int8.out, stored.out) << isa;
  }
  expect_clean_error(run_cli({"translate", "--output-weights", "int4", "A dog."}),
                     {"--output-weights", "int4"});
  expect_clean_error(run_cli({"translate", "--batch", "0"}), {"--batch"});
  expect_clean_error(run_cli({"bench", "--output-weights", "fp8"}), {"--output-weights", "fp8"});
}

// One sentence at a time (arguments, --batch 1, beam search) decodes with int8 output weights
// by default, its fastest path; a pipe decoded in batches keeps the stored weights' batched path.
// The probabilities tell the two apart: int8 moves the logits outside each step's 8 largest.
TEST(CliKernelPaths, OneSentenceAtATimeDefaultsToInt8OutputWeights) {
  const std::string sentence = "Two men in orange vests are working on the street.";
  const auto json = [&](std::vector<std::string> args, const RunOptions& options = {}) {
    args.insert(args.begin(), {"translate", "--threads", "1", "--json"});
    const Outcome r = run_cli(args, options);
    expect_success(r);
    return r.out;
  };
  const std::string int8 = json({"--output-weights", "int8", sentence});
  const std::string stored = json({"--output-weights", "stored", sentence});
  ASSERT_NE(int8, stored) << "the test cannot tell the two apart";
  EXPECT_EQ(json({sentence}), int8);
  RunOptions piped;
  piped.input = sentence + "\n";
  EXPECT_EQ(json({"--batch", "1"}, piped),
            json({"--batch", "1", "--output-weights", "int8"}, piped));
  EXPECT_EQ(json({}, piped), json({"--output-weights", "stored"}, piped));
}

TEST(CliKernelPaths, AnUnknownPrecisionIsNamed) {
  const std::vector<std::vector<std::string>> commands = {
      {"train", "--precision", "fp16", "--out", "m.attnmodel"}, {"bench", "--precision", "fp16"}};
  for (const auto& command : commands)
    expect_clean_error(run_cli(command), {"--precision", "fp16"});
}

}  // namespace
}  // namespace attnscope
