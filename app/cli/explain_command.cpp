// explain: how much each output token's log-probability depends on each source token
// (attribution, explanation.h), as a table or as JSON, beside the attention it can be held against.
#include <attnscope/errors.h>
#include <attnscope/explanation.h>
#include <attnscope/translator.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "cli/command.h"

namespace attnscope::cli {
namespace {

struct ExplainOptions {
  ModelChoice model;
  std::string method;
  std::optional<int> ig_steps;  // given: exactly these steps; else from 32 until complete
  std::optional<std::string> force;
  bool json = false;
  int threads = 0;
  std::vector<std::string> sentences;
};

// null where the method gives no value (leave one out's end token), as JSON has no NaN.
nlohmann::json values_json(const std::vector<std::vector<float>>& rows) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& row : rows) {
    nlohmann::json r = nlohmann::json::array();
    for (float v : row) r.push_back(std::isnan(v) ? nlohmann::json() : nlohmann::json(v));
    out.push_back(std::move(r));
  }
  return out;
}

std::string to_json_line(const std::string& sentence, const Attribution& a,
                         const std::string& model, bool forced) {
  const Translation& t = a.translation;
  nlohmann::json j = {
      {"source", sentence},
      {"model", model},
      {"method", attribution_method_name(a.method)},
      {"forced", forced},
      {"source_tokens", t.source.tokens},
      {"truncated", t.source.truncated},
      {"tokens", t.tokens},
      {"translation", t.text()},
      {"attribution", values_json(a.values)},
      {"logp", a.log_probabilities},
      // null for a model without attention (the `none` baseline)
      {"attention", t.has_attention ? nlohmann::json(t.attention) : nlohmann::json()}};
  if (a.method == AttributionMethod::kIntegratedGradients) {
    j["baseline_logp"] = a.baseline_log_probabilities;
    j["ig_steps"] = a.ig_steps;
    j["completeness_gap"] = a.completeness_gap();
    j["relative_completeness_gap"] = a.relative_completeness_gap();
  }
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Columns as wide as they look: a UTF-8 character (ü, ▁) is one column however many bytes.
size_t columns(const std::string& text) {
  size_t n = 0;
  for (unsigned char c : text) n += (c & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

std::string right_aligned(const std::string& text, size_t width) {
  const size_t w = columns(text);
  return (w < width ? std::string(width - w, ' ') : std::string()) + text;
}

std::string left_aligned(const std::string& text, size_t width) {
  const size_t w = columns(text);
  return text + (w < width ? std::string(width - w, ' ') : std::string());
}

std::string signed_value(float v) {
  if (std::isnan(v)) return "-";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%+.3f", v);
  return buffer;
}

// One row per output token, one column per source token, then log p (and the baseline's).
void print_table(const std::string& sentence, const Attribution& a, const std::string& model,
                 bool forced) {
  const Translation& t = a.translation;
  std::string title = attribution_method_title(a.method);
  if (a.method == AttributionMethod::kIntegratedGradients)
    title += ", " + std::to_string(a.ig_steps) + " steps";
  // A cut sentence shows what the model read, not the thousands of words it was given.
  std::string read = sentence;
  if (t.source.truncated) {
    read.clear();
    for (size_t i = 0; i < t.source.kept_length && i < t.source.tokens.size(); ++i)
      read += (i > 0 ? " " : "") + t.source.tokens[i];
    read += " … (" + std::to_string(t.source.original_length) +
            " tokens; the model reads the first " + std::to_string(t.source.kept_length) + ")";
  }
  std::cout << "source: " << read << "\n"
            << (forced ? "target (forced): " : "translation: ") << t.text() << "\n"
            << "attribution of log p(output token) to each source token (" << title << ", " << model
            << ")\n";
  if (!t.has_attention)
    std::cout << "note: the model '" << model
              << "' has no attention; these values are all it has to explain its output\n";
  if (t.tokens.empty()) {
    std::cout << "(nothing to explain)\n";
    return;
  }
  const bool ig = a.method == AttributionMethod::kIntegratedGradients;
  size_t first = 6;  // the output tokens' column
  for (const auto& token : t.tokens) first = std::max(first, columns(token));
  std::vector<size_t> width;
  for (const auto& token : t.source.tokens) width.push_back(std::max<size_t>(7, columns(token)));
  std::cout << left_aligned("", first);
  for (size_t s = 0; s < width.size(); ++s)
    std::cout << ' ' << right_aligned(t.source.tokens[s], width[s]);
  std::cout << "  " << right_aligned("log p", 8);
  if (ig) std::cout << ' ' << right_aligned("baseline", 8);
  std::cout << '\n';
  for (size_t r = 0; r < t.tokens.size(); ++r) {
    std::cout << left_aligned(t.tokens[r], first);
    for (size_t s = 0; s < width.size(); ++s) {
      const float v = r < a.values.size() && s < a.values[r].size() ? a.values[r][s] : NAN;
      std::cout << ' ' << right_aligned(signed_value(v), width[s]);
    }
    const auto log_p = [](const std::vector<float>& v, size_t i) {
      return i < v.size() ? signed_value(v[i]) : std::string("-");
    };
    std::cout << "  " << right_aligned(log_p(a.log_probabilities, r), 8);
    if (ig) std::cout << ' ' << right_aligned(log_p(a.baseline_log_probabilities, r), 8);
    std::cout << '\n';
  }
  if (ig) {
    char gap[64];
    std::snprintf(gap, sizeof gap, "%.4f (%.2f%%)", a.completeness_gap(),
                  100.0 * a.relative_completeness_gap());
    std::cout << "row sums vs log p \u2212 baseline log p: largest gap " << gap << '\n';
  }
}

int run(const ExplainOptions& o) {
  AttributionOptions options;
  options.method = parse_attribution_method(o.method);
  // Without --ig-steps the steps double from 32 until every row is complete within 1% (a model
  // with nearly one-hot attention needs up to 1024); with it, exactly what was asked.
  options.ig_steps = o.ig_steps.value_or(options.ig_steps);
  options.ig_tolerance = o.ig_steps ? 0.0 : AttributionOptions::kCompleteWithin;
  std::vector<std::string> sentences = o.sentences;
  if (sentences.empty()) {
    std::string line;
    while (std::getline(std::cin, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      sentences.push_back(line);
    }
    if (std::ferror(stdin)) ATTNSCOPE_THROW_RUNTIME_ERROR("cannot read standard input");
  }
  if (o.force && sentences.size() != 1)
    ATTNSCOPE_THROW_INVALID_ARGUMENT("--force gives the target of one sentence, but there are ",
                                     sentences.size(), " sentences");
  const Translator translator(o.model.path());
  if (o.force) check_forced_target(translator, *o.force);
  const std::string& name = translator.info().name;
  const std::string why_not = attribution_support(translator, options.method);
  if (!why_not.empty())  // naming the model once
    ATTNSCOPE_THROW_RUNTIME_ERROR(
        "--method ", o.method, ": ",
        why_not.find("'" + name + "'") != std::string::npos ? "" : "model '" + name + "': ",
        why_not);
  // Integrated gradients refine for minutes on a long sentence: on a terminal, say where they
  // are (stderr stays clean in scripts). Ctrl+C ends the command as usual.
  size_t sentence = 0;
  int steps = 0;
  if (isatty(STDERR_FILENO) && options.ig_tolerance > 0)
    options.stop_refining = [&sentence, &steps] {
      steps *= 2;
      std::fprintf(stderr, "\rsentence %zu: integrated gradients, %d steps…", sentence + 1, steps);
      return false;
    };
  for (size_t i = 0; i < sentences.size(); ++i) {
    sentence = i;
    steps = options.ig_steps;
    const Attribution a = attribute(translator, sentences[i], options, o.force);
    if (steps != options.ig_steps) std::fprintf(stderr, "\r%60s\r", "");  // the line cleared
    if (a.translation.source.truncated)                                   // as translate says it
      std::cerr << "attnscope-cli: note: sentence " << i + 1 << " has "
                << a.translation.source.original_length << " tokens; explained its first "
                << a.translation.source.kept_length << '\n';
    if (o.json) {
      std::cout << to_json_line(sentences[i], a, name, o.force.has_value()) << '\n';
    } else {
      if (i > 0) std::cout << '\n';
      print_table(sentences[i], a, name, o.force.has_value());
    }
    std::cout.flush();
    if (!std::cout) ATTNSCOPE_THROW_RUNTIME_ERROR("cannot write the output");
  }
  return 0;
}

}  // namespace

Action add_explain_command(CLI::App& app) {
  auto o = std::make_shared<ExplainOptions>();
  o->model.add_options(app);
  std::vector<std::string> methods;
  for (AttributionMethod m : attribution_methods()) methods.push_back(attribution_method_name(m));
  app.add_option("--method", o->method,
                 "grad: gradient norm; gradxinput: gradient · embedding; ig: integrated "
                 "gradients from an all-zero source; loo: leave one source token out")
      ->required()
      ->check(CLI::IsMember(methods));
  app.add_option("--ig-steps", o->ig_steps,
                 "integrated gradients' steps (default: from 32, doubled until every row sums to "
                 "within 1% of log p − baseline log p, at most 1024)")
      ->check(CLI::Range(1, AttributionOptions::kMaxIgSteps));
  app.add_option("--force", o->force,
                 "explain this target translation (forced decoding) instead of the model's own");
  app.add_flag("--json", o->json,
               "one JSON object per sentence: source_tokens, tokens, method, attribution (T×S, "
               "null where undefined), logp, and for ig baseline_logp");
  add_threads_option(app, o->threads);
  app.add_option("sentence", o->sentences, "sentences to explain (default: lines of stdin)");
  app.parse_complete_callback(
      [o, &app] { refuse_unless(app, "--ig-steps", o->method == "ig", "--method ig"); });
  return [o] { return run(*o); };
}

}  // namespace attnscope::cli
