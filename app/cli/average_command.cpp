// attnscope-cli average: checkpoint averaging of a run's epoch models (model_averaging.h).
#include <attnscope/model_averaging.h>
#include <attnscope/output_file.h>

#include <cstdio>
#include <memory>

#include "cli/command.h"

namespace attnscope::cli {

Action add_average_command(CLI::App& app) {
  struct Options {
    std::vector<std::string> inputs;
    std::string output;
  };
  auto o = std::make_shared<Options>();
  app.add_option("models", o->inputs,
                 "model files of one run, e.g. its last epochs (train --save-epochs)")
      ->required();
  app.add_option("--out", o->output, "model file to write")->required();
  return [o] {
    check_regular_output_file("--out", o->output, o->inputs);
    std::string command = "attnscope-cli average --out " + o->output;
    for (const std::string& input : o->inputs) command += " " + input;
    average_models(o->inputs, o->output, command);
    std::printf(
        "averaged %zu models into %s (measure it with eval: its validation BLEU is not "
        "recorded)\n",
        o->inputs.size(), o->output.c_str());
    return 0;
  };
}

}  // namespace attnscope::cli
