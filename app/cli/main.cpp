// attnscope-cli: train, translate, eval, export, models, bench. Errors go to stderr as one line
// and give a non-zero exit code.
#include <iostream>
#include <map>

#include "cli/command.h"

int main(int argc, char** argv) {
  CLI::App app{"attnscope-cli: attention in neural machine translation, from the command line"};
  app.require_subcommand(1);
  std::map<CLI::App*, attnscope::cli::Action> actions;
  auto add = [&](const char* name, const char* help, auto adder) {
    CLI::App* command = app.add_subcommand(name, help);
    actions[command] = adder(*command);
  };
  using namespace attnscope::cli;
  add("translate", "translate sentences (arguments, or one per line from stdin)", add_translate_command);
  add("train", "train a model on a parallel corpus", add_train_command);
  add("eval", "BLEU of a model on a test set", add_eval_command);
  add("models", "list the installed models", add_models_command);
  add("export", "render attention heatmaps to PNG, PDF, SVG, CSV or JSON", add_export_command);
  add("bench", "training and decoding speed, comparable with the Python reference", add_bench_command);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    for (auto& [command, action] : actions)
      if (command->parsed()) return action();
  } catch (const std::exception& e) {
    std::cerr << "attnscope-cli: error: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
