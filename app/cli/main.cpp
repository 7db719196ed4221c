// attnscope-cli: train, translate, explain, eval, align, export, models, bench, average. Errors go
// to stderr as one line and give a non-zero exit code.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <new>

#include "attnscope/cpu_dispatch.h"
#include "attnscope/model_folders.h"
#include "attnscope/text.h"
#include "attnscope/thread_settings.h"
#include "cli/command.h"

namespace {

// One line, whatever the exception carries: Torch's errors append a C++ backtrace. Printable
// (a file name or a model's text may hold escape sequences) and of a length a person reads: a
// message that quotes a huge input says what it needs in its first few hundred characters.
std::string one_line(const std::string& text) {
  constexpr size_t kMostBytes = 1000;
  std::string line = text.substr(0, text.find('\n'));
  if (line.size() > kMostBytes) {
    size_t cut = kMostBytes;
    while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;  // UTF-8
    line = line.substr(0, cut) + " …";
  }
  return attnscope::printable(line);
}

int fail(const std::string& message, int code = 1) {
  std::cerr << "attnscope-cli: error: " << one_line(message) << '\n';
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  // A mistyped ATTNSCOPE_ISA would otherwise go unnoticed in a comparison of paths.
  if (const std::string problem = attnscope::kernel_isa_environment_problem(); !problem.empty())
    return fail(problem + " (unset it for the CPU's best)", 2);
  // A mistyped model folder would otherwise be skipped without a word.
  if (const std::string problem = attnscope::model_dir_environment_problem(); !problem.empty())
    std::cerr << "attnscope-cli: note: " << attnscope::printable(problem) << '\n';
  attnscope::keep_large_blocks_for_reuse();
  CLI::App app{"attnscope-cli: attention in neural machine translation, from the command line"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("attnscope-cli ") + ATTNSCOPE_VERSION);
  std::map<CLI::App*, attnscope::cli::Action> actions;
  auto add = [&](const char* name, const char* help, auto adder) {
    CLI::App* command = app.add_subcommand(name, help);
    actions[command] = adder(*command);
  };
  using namespace attnscope::cli;
  add("translate", "translate sentences (arguments, or one per line from stdin)",
      add_translate_command);
  add("explain",
      "attribute each output token's log-probability to the source tokens (gradients, integrated "
      "gradients, leave one out)",
      add_explain_command);
  add("train", "train a model on a parallel corpus or a built-in task", add_train_command);
  add("eval", "BLEU of a model on a test set, and how faithful its attention is", add_eval_command);
  add("align", "word alignments from attention, and their error rate against a gold alignment",
      add_align_command);
  add("models", "list the installed models", add_models_command);
  add("export",
      "render attention heatmaps to PNG, PDF, SVG, CSV or JSON, or a training run's snapshots to "
      "a figure or an animated GIF",
      add_export_command);
  add("bench", "training and decoding speed, comparable with the Python reference",
      add_bench_command);
  add("average", "average the weights of a run's epoch models (checkpoint averaging)",
      add_average_command);
  // CLI11 says "A subcommand is required" for a misspelt one; name it instead.
  const auto known = [&](const std::string& name) {
    for (const auto& entry : actions)
      if (entry.first->check_name(name)) return true;
    return false;
  };
  if (argc > 1 && argv[1][0] != '-' && !known(argv[1]))
    return fail(
        std::string("unknown command '") + argv[1] +
            "' (translate, explain, train, eval, align, models, export, bench, average; see "
            "--help)",
        2);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    // CLI11 adds a second line ("Run with --help ..."); keep errors to one.
    return fail(std::string(e.what()) + " (see --help)", e.get_exit_code());
  }
  try {
    int code = 0;
    for (auto& [command, action] : actions)
      if (command->parsed()) code = action();
    // A full disk or a closed pipe behind stdout must not pass for success.
    errno = 0;
    std::cout.flush();
    if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout))
      return fail(std::string("cannot write the output") +
                  (errno != 0 ? std::string(": ") + std::strerror(errno) : std::string()));
    return code;
  } catch (const std::bad_alloc&) {
    return fail("out of memory");
  } catch (const std::exception& e) {
    return fail(e.what());
  } catch (...) {
    return fail("unexpected internal error");
  }
}
