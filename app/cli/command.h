#pragma once
// Each attnscope-cli subcommand registers its options and its action on a CLI11 subcommand.
#include <attnscope/model_folders.h>
#include <attnscope/translation.h>
#include <attnscope/translator.h>

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

/// A number from `min` to `max` that a float holds (CLI11's Range lets nan through, and 1e308
/// passes a double's check but is inf as a float).
CLI::Validator finite_number(double min, double max);
/// finite_number() from 0 to the largest float.
CLI::Validator finite_non_negative();

/// --force TARGET: throws std::invalid_argument naming the words of TARGET the model cannot
/// write (a word model's vocabulary lacks them), which forced decoding would replace by <unk>.
void check_forced_target(const Translator& translator, const std::string& target,
                         const std::string& flag = "--force");

/// After parsing: fails like a bad option (exit 105) when `flag` was given but nothing uses it
/// (`used` false): "--length-penalty: does nothing without --beam 2 or more". A flag ignored in
/// silence leaves a user believing it did something.
void refuse_unless(const CLI::App& command, const std::string& flag, bool used,
                   const std::string& needs);

/// --threads N on a subcommand (default: every core) and applying it. With `cap_at_cores`, a count
/// above the machine's cores is lowered to them, with a note; training keeps what it is given,
/// as its thread count decides how batches are split (and so the model a seed gives).
void add_threads_option(CLI::App& command, int& threads, bool cap_at_cores = true);

}  // namespace attnscope::cli
