#pragma once
// Each attnscope-cli subcommand registers its options and its action on a CLI11 subcommand.
#include <attnscope/model_folders.h>
#include <attnscope/translation.h>

#include <CLI/CLI.hpp>
#include <functional>
#include <map>
#include <string>

namespace attnscope::cli {

/// What a subcommand runs once its options are parsed; returns the exit code.
using Action = std::function<int()>;

Action add_translate_command(CLI::App& app);
Action add_explain_command(CLI::App& app);
Action add_train_command(CLI::App& app);
Action add_eval_command(CLI::App& app);
Action add_align_command(CLI::App& app);
Action add_models_command(CLI::App& app);
Action add_export_command(CLI::App& app);
Action add_bench_command(CLI::App& app);
Action add_average_command(CLI::App& app);

/// --score NAME [--pair en-fr] | --model FILE, resolved to a model path (default: the additive
/// model of the default language pair, English->German).
struct ModelChoice {
  std::string score;
  std::string pair = kDefaultLanguagePair;
  std::string model;
  void add_options(CLI::App& command);
  std::string path() const;
};

/// The engine names a bad setting as its options struct does ("epochs"); this maps those names
/// onto the command's flags. run_with_flags() runs `action` and turns an engine SettingError
/// into "--epochs: the number of epochs must be at least 1".
using FlagNames = std::map<std::string, std::string>;
int run_with_flags(const FlagNames& flags, const Action& action);

/// --pair SOURCE-TARGET: the language pair whose shipped models --score names (default en-de).
CLI::Option* add_pair_option(CLI::App& command, std::string& pair);

/// --unk copy|keep: what becomes of "<unk>" in translations (default copy).
void add_unknown_words_option(CLI::App& command, UnknownWords& unknown_words);

/// --any-ending: beam search with the ending rule of attnscope 0.9.0, to compare.
CLI::Option* add_any_ending_option(CLI::App& command, bool& any_ending);

/// A finite number >= 0 (CLI11's NonNegativeNumber lets nan through and prints its whole range).
CLI::Validator finite_non_negative();

/// --threads N on a subcommand (default: every core) and applying it.
void add_threads_option(CLI::App& command, int& threads);

}  // namespace attnscope::cli
