#include <attnscope/errors.h>
#include <attnscope/model_catalog.h>
#include <attnscope/text.h>
#include <attnscope/thread_settings.h>
#include <attnscope/translator.h>

#include <cmath>
#include <iostream>
#include <limits>
#include <optional>
#include <string>

#include "cli/command.h"

namespace attnscope::cli {

void ModelChoice::add_options(CLI::App& command) {
  auto* score_option = command.add_option("--score", score, "shipped model of this score function")
                           ->check(CLI::IsMember(score_function_names()));
  auto* model_option = command.add_option("--model", model, "model file");
  score_option->excludes(model_option);
  add_pair_option(command, pair)->excludes(model_option);
}

std::string ModelChoice::path() const {
  return resolve_model(!model.empty() ? model : !score.empty() ? score : "additive", pair);
}

CLI::Option* add_pair_option(CLI::App& command, std::string& pair) {
  return command
      .add_option("--pair", pair,
                  "language pair of the shipped models --score names: en-de (default) or en-fr "
                  "(`models` lists them)")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            return is_language_pair(text) ? std::string()
                                          : "'" + text + "' is not a language pair such as en-fr";
          },
          "PAIR"));
}

int run_with_flags(const FlagNames& flags, const Action& action) {
  try {
    return action();
  } catch (const SettingError& e) {
    const auto flag = flags.find(e.setting());
    if (flag == flags.end()) throw;
    throw std::invalid_argument(flag->second + ": " + e.what());
  }
}

void add_unknown_words_option(CLI::App& command, UnknownWords& unknown_words) {
  command
      .add_option_function<std::string>(
          "--unk",
          [&unknown_words](const std::string& value) {
            unknown_words = value == "keep" ? UnknownWords::kKeep : UnknownWords::kCopy;
          },
          "copy: replace <unk> by the unknown source word its attention weighs most (kept when "
          "the source has none, or it has too little attention); keep: leave <unk> (default "
          "copy)")
      ->check(CLI::IsMember({"copy", "keep"}));
}

CLI::Option* add_any_ending_option(CLI::App& command, bool& any_ending) {
  return command.add_flag("--any-ending", any_ending,
                          "beam: the ending rule of attnscope 0.9.0, to compare: a hypothesis "
                          "ends on any </s> the step considers, not only on one among its K best");
}

void add_threads_option(CLI::App& command, int& threads, bool cap_at_cores) {
  // Bounded: torch would try to start a million threads for --threads 1000000 and never return.
  command.add_option("--threads", threads, "CPU threads (default: every core)")
      ->check(CLI::Range(0, 1024));
  command.callback([&threads, cap_at_cores] {
    // More threads than cores only wait for each other: 1024 on two cores made one translation
    // 25 times slower.
    const int cores = resolve_thread_count(0);
    if (cap_at_cores && threads > cores) {
      std::cerr << "attnscope-cli: note: --threads " << threads << ": this machine has " << cores
                << (cores == 1 ? " core" : " cores") << "; using " << cores << '\n';
      threads = cores;
    }
    set_thread_count(threads);
  });
}

CLI::Validator finite_number(double min, double max) {
  const std::string range =
      min == 0 && max >= std::numeric_limits<float>::max()
          ? std::string("a number >= 0")
          : "a number from " + CLI::detail::to_string(min) + " to " + CLI::detail::to_string(max);
  return CLI::Validator(
      [min, max, range](std::string& text) -> std::string {
        const std::optional<double> value = decimal_number(text);
        if (value && *value >= min && *value <= max) return {};
        return "must be " + range + ", not '" + text + "'";
      },
      range);
}

void check_forced_target(const Translator& translator, const std::string& target,
                         const std::string& flag) {
  const std::vector<std::string> unknown = translator.unknown_target_tokens(target);
  if (unknown.empty()) return;
  std::string list;
  for (size_t i = 0; i < unknown.size() && i < 5; ++i)
    list += (i > 0 ? ", '" : "'") + unknown[i].substr(0, 40) + "'";
  if (unknown.size() > 5) list += " and " + std::to_string(unknown.size() - 5) + " more";
  throw std::invalid_argument(flag + ": model '" + translator.info().name + "' cannot write " +
                              list + ": not in its vocabulary (forced, each would be <unk>)");
}

void refuse_unless(const CLI::App& command, const std::string& flag, bool used,
                   const std::string& needs) {
  if (!used && command.count(flag) > 0)
    throw CLI::ValidationError(flag, "does nothing without " + needs);
}

CLI::Validator finite_non_negative() {
  return finite_number(0.0, std::numeric_limits<float>::max());
}

}  // namespace attnscope::cli
