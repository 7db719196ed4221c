// ATTNSCOPE_ISA forces the engine's kernels down to a lower path (cpu_dispatch.h), read once per
// process: each path must translate as the CPU's best does, and a mistyped name is refused; so is
// an unknown --precision.
#include <gtest/gtest.h>

#include "cli/cli_process.h"

namespace attnscope {
namespace {

using namespace cli_test;

TEST(CliKernelPaths, EveryPathTranslatesAlike) {
  RunOptions input;
  input.input =
      "A little girl climbs the stairs of a wooden playhouse.\n"
      "Two men in orange vests are working on the street.\n"
      "A dog runs through the snow with a stick in its mouth.\n"
      "People are sitting at tables outside a restaurant at night.\n";
  const Outcome best = run_cli({"translate", "--threads", "1"}, input);
  expect_success(best);
  ASSERT_EQ(best.out_lines().size(), 4u) << best;
  for (const char* isa : {"avx2", "portable"}) {
    RunOptions forced = input;
    forced.environment = {{"ATTNSCOPE_ISA", isa}};
    const Outcome lower = run_cli({"translate", "--threads", "1"}, forced);
    expect_success(lower);
    EXPECT_EQ(lower.out, best.out) << isa;
  }
}

TEST(CliKernelPaths, AnUnknownPathIsNamed) {
  RunOptions options;
  options.environment = {{"ATTNSCOPE_ISA", "sse9"}};
  const Outcome r = run_cli({"models"}, options);
  expect_clean_error(r, {"ATTNSCOPE_ISA", "'sse9'", "avx2"});
}

TEST(CliKernelPaths, AnUnknownPrecisionIsNamed) {
  const std::vector<std::vector<std::string>> commands = {
      {"train", "--precision", "fp16", "--out", "m.attnmodel"}, {"bench", "--precision", "fp16"}};
  for (const auto& command : commands)
    expect_clean_error(run_cli(command), {"--precision", "fp16"});
}

}  // namespace
}  // namespace attnscope
