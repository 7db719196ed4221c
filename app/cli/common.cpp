#include <attnscope/errors.h>
#include <attnscope/model_catalog.h>
#include <attnscope/translator.h>

#include <cmath>
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

void add_threads_option(CLI::App& command, int& threads) {
  // Bounded: torch would try to start a million threads for --threads 1000000 and never return.
  command.add_option("--threads", threads, "CPU threads (default: every core)")
      ->check(CLI::Range(0, 1024));
  command.callback([&threads] { set_thread_count(threads); });
}

CLI::Validator finite_non_negative() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        try {
          size_t used = 0;
          const double value = std::stod(text, &used);
          if (used == text.size() && std::isfinite(value) && value >= 0) return {};
        } catch (const std::exception&) {
        }
        return "must be a number >= 0, not '" + text + "'";
      },
      "NUMBER >= 0");
}

}  // namespace attnscope::cli
