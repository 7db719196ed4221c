#include <attnscope/corpus.h>
#include <attnscope/corpus_evaluation.h>
#include <attnscope/errors.h>
#include <attnscope/explanation.h>
#include <attnscope/faithfulness.h>
#include <attnscope/model_catalog.h>
#include <attnscope/score_functions.h>
#include <attnscope/text.h>
#include <attnscope/translator.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/command.h"

#ifdef ATTNSCOPE_WITH_UI
#include <QFileInfo>

#include "cli/headless_application.h"
#include "plots/length_plot.h"
#include "render/exporter.h"
#endif

namespace attnscope::cli {
namespace {

struct EvalOptions {
  std::vector<std::string> scores, models;  // every one given, side by side
  std::string pair = kDefaultLanguagePair;  // the shipped models --score names
  std::string source, reference;
  int beam = 1;
  float length_penalty = -1.0f;  // GNMT alpha; unset (< 0): log P / length as always
  float coverage_penalty = 0.0f;
  bool any_ending = false;
  int threads = 0;
  OutputWeights output_weights = OutputWeights::kAsStored;
  UnknownWords unknown_words = UnknownWords::kCopy;  // which BLEU the first line gives
  CopyRule copy_rule;
  std::string train_target;  // the target side of the training corpus: leaked source words
  bool by_length = false;
  bool metrics = false;
  bool json = false;
  std::string plot;  // BLEU by length as a picture: .png, .svg or .pdf
  bool faithfulness = false;
  FaithfulnessOptions faithfulness_options;
};

// Checked before anything is decoded: a bad path must not cost a whole evaluation.
void check_plot_path(const std::string& path, const std::vector<std::string>& inputs) {
  if (path.empty()) return;
#ifdef ATTNSCOPE_WITH_UI
  const QString suffix = QFileInfo(QString::fromStdString(path)).suffix().toLower();
  if (suffix != "png" && suffix != "svg" && suffix != "pdf")
    throw std::invalid_argument("--plot '" + path +
                                "': unknown picture type (use .png, .svg or .pdf)");
  check_output_path(path, inputs);
#else
  throw std::invalid_argument(
      "--plot needs the desktop build: this attnscope-cli was built without the UI "
      "(cmake -DATTNSCOPE_BUILD_UI=OFF); build with Qt to draw plots");
#endif
}

#ifdef ATTNSCOPE_WITH_UI
// The seeds' figure: one line per model over the length buckets.
void draw_plot(const std::vector<CorpusEvaluation>& all, const std::string& path, int beam) {
  const auto app = headless_application();
  ui::LengthPlot plot;
  plot.setSearchName(beam > 1 ? QStringLiteral("beam %1").arg(beam) : QStringLiteral("greedy"));
  plot.resize(800, 520);
  QStringList names;
  for (const auto& e : all) names << QString::fromStdString(e.model);
  plot.setEvaluations(names, all);
  ui::ExportOptions options;
  options.size = QSize(800, 520);
  ui::exportPlot(&plot, QString::fromStdString(path), options);
}
#endif

std::vector<std::string> model_paths(const EvalOptions& o) {
  std::vector<std::string> paths;
  for (const auto& score : o.scores) paths.push_back(resolve_model(score, o.pair));
  for (const auto& model : o.models) paths.push_back(resolve_model(model));
  if (paths.empty()) paths.push_back(resolve_model("additive", o.pair));
  return paths;
}

// The lines eval has always printed, which other tools read: BLEU as asked, then both ways.
// `penalties`: ", length penalty A, coverage penalty B" when asked for, else empty.
void print_summary(const CorpusEvaluation& e, const std::string& penalties) {
  const BleuScore& s = e.bleu;
  std::printf(
      "BLEU = %.2f  %.1f/%.1f/%.1f/%.1f  BP=%.3f  ratio=%.3f  (%s, beam %d%s, %zu sentences)\n",
      s.bleu, s.precisions[0], s.precisions[1], s.precisions[2], s.precisions[3], s.brevity_penalty,
      static_cast<double>(s.hypothesis_length) / std::max(1L, s.reference_length), e.model.c_str(),
      e.beam_size, penalties.c_str(), e.sentences.size());
  for (const auto& [name, outcome] : {std::pair{"copy", &e.copy}, std::pair{"keep", &e.keep}})
    std::printf("--unk %s: BLEU %.2f, %zu of %zu sentences with <unk> (%zu <unk> in all)\n", name,
                outcome->bleu.bleu, outcome->sentences_with_unknown, e.sentences.size(),
                outcome->unknown_tokens);
  // The lines above compare lowercased words; a cased model also gets its BLEU with case.
  if (e.has_cased_bleu)
    std::printf("cased BLEU = %.2f (case kept; the BLEU above ignores case)\n", e.cased_bleu.bleu);
}

size_t name_width(const std::vector<CorpusEvaluation>& all) {
  size_t width = 5;  // "model"
  for (const auto& e : all) width = std::max(width, e.model.size());
  return width;
}

void print_by_length(const std::vector<CorpusEvaluation>& all) {
  const int width = static_cast<int>(name_width(all));
  std::printf("\nBLEU by source length (words; sentences in brackets)\n%-*s", width, "model");
  for (size_t b = 0; b < length_buckets().size(); ++b) {
    const std::string head = length_buckets()[b].label() + " (" +
                             std::to_string(all.front().sentences_by_length[b]) + ")";
    // The en dash is one column but three bytes.
    const bool dash = head.find("\u2013") != std::string::npos;
    std::printf("  %*s", dash ? 14 : 12, head.c_str());
  }
  std::printf("\n");
  for (const auto& e : all) {
    std::printf("%-*s", width, e.model.c_str());
    for (size_t b = 0; b < e.bleu_by_length.size(); ++b)
      if (e.sentences_by_length[b] == 0)
        std::printf("  %12s", "-");
      else
        std::printf("  %12.2f", e.bleu_by_length[b].bleu);
    std::printf("\n");
  }
}

// Source words left in the output (source_leak.h), both ways of treating "<unk>".
void print_leak(const std::vector<CorpusEvaluation>& all) {
  if (all.empty() || !all.front().has_leak) {
    std::printf(
        "\nsource words left in the output: give --train-tgt FILE (the target side of the "
        "training corpus) to count them\n");
    return;
  }
  const int width = static_cast<int>(name_width(all));
  std::printf(
      "\nsource words left in the output (lowercase in the source, never in the training "
      "target text)\n%-*s  %12s  %14s  %12s  %14s\n",
      width, "model", "copy: words", "sentences", "keep: words", "sentences");
  for (const auto& e : all) {
    std::printf("%-*s", width, e.model.c_str());
    for (const LeakShare* leak : {&e.copy.leak, &e.keep.leak}) {
      char share[32], sentences[32];
      std::snprintf(share, sizeof share, "%.2f%%", leak->percent());
      std::snprintf(sentences, sizeof sentences, "%zu of %zu", leak->sentences_with_leak,
                    e.sentences.size());
      std::printf("  %12s  %14s", share, sentences);
    }
    std::printf("\n");
  }
}

nlohmann::json leak_json(const LeakShare& leak) {
  return {{"percent", leak.percent()},
          {"leaked_words", leak.leaked_words},
          {"output_words", leak.output_words},
          {"sentences_with_leak", leak.sentences_with_leak}};
}

void print_metrics(const std::vector<CorpusEvaluation>& all) {
  const int width = static_cast<int>(name_width(all));
  std::printf("\nattention (per step; coverage per source word)\n%-*s  %12s  %12s  %12s  %15s\n",
              width, "model", "entropy", "</s> sink", "diagonality", "coverage spread");
  for (const auto& e : all) {
    const AttentionMetrics& m = e.attention;
    if (!e.has_attention)
      std::printf("%-*s  %12s  %12s  %12s  %15s\n", width, e.model.c_str(), "-", "-", "-", "-");
    else
      std::printf("%-*s  %12.3f  %12.3f  %12.3f  %15.3f\n", width, e.model.c_str(),
                  m.mean_entropy(), m.mean_end_sink(), m.mean_diagonality(),
                  m.mean_coverage_spread());
  }
}

nlohmann::json bleu_json(const BleuScore& s) {
  return {{"bleu", s.bleu},
          {"precisions", {s.precisions[0], s.precisions[1], s.precisions[2], s.precisions[3]}},
          {"brevity_penalty", s.brevity_penalty},
          {"hypothesis_length", s.hypothesis_length},
          {"reference_length", s.reference_length}};
}

nlohmann::json evaluation_json(const CorpusEvaluation& e) {
  nlohmann::json unknown = nlohmann::json::object();
  for (const auto& [name, o] : {std::pair{"copy", &e.copy}, std::pair{"keep", &e.keep}})
    unknown[name] = {{"bleu", o->bleu.bleu},
                     {"sentences_with_unk", o->sentences_with_unknown},
                     {"unk_tokens", o->unknown_tokens},
                     // null without --train-tgt: not measured, not zero
                     {"leak", e.has_leak ? leak_json(o->leak) : nlohmann::json()}};
  nlohmann::json by_length = nlohmann::json::array();
  for (size_t b = 0; b < e.bleu_by_length.size(); ++b) {
    const LengthBucket& bucket = length_buckets()[b];
    by_length.push_back(
        {{"words", bucket.label()},
         {"first", bucket.first},
         {"last", bucket.last == 0 ? nlohmann::json() : nlohmann::json(bucket.last)},
         {"sentences", e.sentences_by_length[b]},
         {"bleu", e.bleu_by_length[b].bleu}});
  }
  const AttentionMetrics& m = e.attention;
  // A model without attention has no figures to give: null, not zeros that read as a result.
  const nlohmann::json metrics = e.has_attention
                                     ? nlohmann::json{{"entropy", m.mean_entropy()},
                                                      {"eos_sink", m.mean_end_sink()},
                                                      {"diagonality", m.mean_diagonality()},
                                                      {"coverage_spread", m.mean_coverage_spread()}}
                                     : nlohmann::json();
  nlohmann::json json = {{"model", e.model},
                         {"beam", e.beam_size},
                         {"unk", e.unknown_words == UnknownWords::kCopy ? "copy" : "keep"},
                         {"sentences", e.sentences.size()},
                         {"bleu", bleu_json(e.bleu)},
                         {"unknown_words", unknown},
                         {"by_length", by_length},
                         {"metrics", metrics}};
  // Only a cased model has it: other tools' readers of older output see the same keys.
  if (e.has_cased_bleu) json["cased_bleu"] = bleu_json(e.cased_bleu);
  return json;
}

// A figure of the faithfulness table: the number, or n/a when the model has none.
std::string figure(double value, const char* format) {
  if (std::isnan(value)) return "n/a";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

// Padded by columns, not bytes: τ is one column in two bytes.
std::string padded(const std::string& text, size_t width, bool left = false) {
  size_t columns = 0;
  for (unsigned char c : text) columns += (c & 0xC0) != 0x80 ? 1 : 0;
  const std::string pad(columns < width ? width - columns : 0, ' ');
  return left ? text + pad : pad + text;
}

void print_faithfulness_header(size_t width, int permutations) {
  std::printf(
      "\nfaithfulness of attention (greedy translations, prefixes forced; \u03c4: mean Kendall "
      "\u03c4-b per step of attention and |attribution|; TVD: total variation distance of the "
      "output distribution when a step's attention is permuted (%d\u00d7) or uniform; argmax: "
      "share of those whose most probable token changes)\n",
      permutations);
  const std::vector<std::string> head = {"steps",    "\u03c4(ig)",  "\u03c4(loo)", "TVD perm",
                                         "TVD unif", "argmax perm", "argmax unif"};
  std::string line = padded("model", width, true);
  for (const auto& h : head) line += "  " + padded(h, 11);
  std::printf("%s\n", line.c_str());
}

// One model's row; what it has no figure for, and why, goes to `notes` for after the table.
void print_faithfulness_row(const ModelFaithfulness& f, size_t width,
                            std::vector<std::string>& notes) {
  std::string line = padded(f.model, width, true) + "  " + padded(std::to_string(f.steps), 11);
  for (const std::string& cell :
       {figure(f.ig.mean_tau(), "%.3f"), figure(f.loo.mean_tau(), "%.3f"),
        figure(f.permuted.mean_tvd(), "%.3f"), figure(f.uniform.mean_tvd(), "%.3f"),
        figure(100 * f.permuted.argmax_changed_share(), "%.1f%%"),
        figure(100 * f.uniform.argmax_changed_share(), "%.1f%%")})
    line += "  " + padded(cell, 11);
  std::printf("%s\n", line.c_str());
  // A row a minute or more apart from the next: shown as it comes, a full disk named at once.
  if (std::fflush(stdout) != 0)
    ATTNSCOPE_THROW_RUNTIME_ERROR("cannot write the output: ", std::strerror(errno));
  // Each distinct reason once per model.
  std::vector<std::string> reasons;
  for (const std::string* why :
       {&f.ig.unavailable, &f.loo.unavailable, &f.permuted.unavailable, &f.uniform.unavailable})
    if (!why->empty() && std::find(reasons.begin(), reasons.end(), *why) == reasons.end())
      reasons.push_back(*why);
  for (const auto& why : reasons) notes.push_back("n/a for " + f.model + ": " + why);
  for (const auto& [name, agreement] : {std::pair{"ig", &f.ig}, std::pair{"loo", &f.loo}})
    if (agreement->available() && agreement->steps < f.steps)
      notes.push_back(f.model + ": \u03c4(" + name + ") over " + std::to_string(agreement->steps) +
                      " of " + std::to_string(f.steps) +
                      " steps (the others have fewer than 2 attributed source tokens, or all "
                      "tied)");
}

void print_faithfulness_end(const std::vector<ModelFaithfulness>& all,
                            const std::vector<std::string>& notes, double seconds) {
  for (const auto& note : notes) std::printf("%s\n", note.c_str());
  size_t sentences = 0;
  for (const auto& f : all) sentences += f.sentences;
  std::printf("took %.1f s: %zu model%s, %.3f s per sentence and model\n", seconds, all.size(),
              all.size() == 1 ? "" : "s",
              sentences > 0 ? seconds / static_cast<double>(sentences) : 0.0);
}

void print_faithfulness(const std::vector<ModelFaithfulness>& all, double seconds) {
  size_t width = 5;  // "model"
  for (const auto& f : all) width = std::max(width, f.model.size());
  print_faithfulness_header(width, all.empty() ? 10 : all.front().permutations);
  std::vector<std::string> notes;
  for (const auto& f : all) print_faithfulness_row(f, width, notes);
  print_faithfulness_end(all, notes, seconds);
}

nlohmann::json faithfulness_json(const ModelFaithfulness& f) {
  const auto value = [](double v) { return std::isnan(v) ? nlohmann::json() : nlohmann::json(v); };
  nlohmann::json unavailable = nlohmann::json::object();
  for (const auto& [name, why] :
       {std::pair{"tau_ig", &f.ig.unavailable}, std::pair{"tau_loo", &f.loo.unavailable},
        std::pair{"permuted", &f.permuted.unavailable},
        std::pair{"uniform", &f.uniform.unavailable}})
    if (!why->empty()) unavailable[name] = *why;
  return {{"sentences", f.sentences},
          {"steps", f.steps},
          {"permutations", f.permutations},
          {"ig_steps", f.ig_steps},
          {"tau_ig", value(f.ig.mean_tau())},
          {"tau_ig_steps", f.ig.steps},
          {"tau_loo", value(f.loo.mean_tau())},
          {"tau_loo_steps", f.loo.steps},
          {"tvd_permuted", value(f.permuted.mean_tvd())},
          {"tvd_uniform", value(f.uniform.mean_tvd())},
          {"argmax_changed_permuted", value(f.permuted.argmax_changed_share())},
          {"argmax_changed_uniform", value(f.uniform.argmax_changed_share())},
          {"trials_permuted", f.permuted.trials},
          {"trials_uniform", f.uniform.trials},
          {"unavailable", unavailable},
          {"seconds", f.seconds}};
}

// Faithfulness takes minutes: where it is, on a terminal only (stderr stays clean in scripts).
FaithfulnessProgress faithfulness_progress(const std::string& model) {
  if (!isatty(STDERR_FILENO)) return {};
  const auto start = std::chrono::steady_clock::now();
  return [model, start](size_t done, size_t total) {
    // Time left at the pace so far: sentences differ in length, so it settles as they pass.
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double left =
        done > 0 ? seconds / static_cast<double>(done) * static_cast<double>(total - done) : 0.0;
    std::fprintf(stderr, "\r%s: faithfulness %zu of %zu sentences", model.c_str(), done, total);
    if (done > 0 && done < total)
      std::fprintf(stderr, ", about %d:%02d left   ", static_cast<int>(left) / 60,
                   static_cast<int>(left) % 60);
    if (done == total) std::fprintf(stderr, "%20s\n", "");
    return true;
  };
}

// The lines a model reads only in part (more tokens than its max_source_length), said once per
// model on stderr (translate says it per line): a figure over cut sentences is not one over the
// whole text.
// `kept_if_cut(i)`: how many tokens of line i the model reads when it reads the line cut, else
// -1 (from the translations where there are some, so the lines are not tokenised again).
void note_cut_lines(const std::string& model, size_t lines,
                    const std::function<int(size_t)>& kept_if_cut) {
  size_t cut = 0, first = 0;
  int kept = 0;
  for (size_t i = 0; i < lines; ++i) {
    const int read = kept_if_cut(i);
    if (read < 0) continue;
    if (cut++ == 0) {
      first = i + 1;
      kept = read;
    }
  }
  if (cut == 0) return;
  std::cerr << "attnscope-cli: note: " << printable(model) << " reads the first " << kept
            << " tokens of a line: " << cut << " of " << lines
            << (lines == 1 ? " line is" : " lines are") << " longer (the first: line " << first
            << "), measured on what it reads\n";
}

// eval --faithfulness without --ref: no BLEU, the faithfulness table alone.
int run_faithfulness_only(const EvalOptions& o) {
  if (o.by_length || o.metrics || !o.plot.empty())
    throw std::invalid_argument(
        "--by-length, --metrics and --plot need --ref (only --faithfulness works without one)");
  const std::vector<std::string> sources = read_utf8_lines(o.source);
  std::vector<ModelFaithfulness> all;
  const auto start = std::chrono::steady_clock::now();
  // Rows as the models finish (minutes apart), as wide as the model files' names.
  const std::vector<std::string> paths = model_paths(o);
  size_t width = 5;  // "model"
  for (const auto& path : paths)
    width = std::max(width, std::filesystem::path(path).stem().string().size());
  if (!o.json) print_faithfulness_header(width, o.faithfulness_options.permutations);
  std::vector<std::string> notes;
  for (const auto& path : paths) {
    const Translator translator(path);
    note_cut_lines(translator.info().name, sources.size(), [&](size_t i) {
      const SourceText source = translator.prepare_source(sources[i]);
      return source.truncated ? source.kept_length : -1;
    });
    all.push_back(evaluate_faithfulness(translator, sources, o.faithfulness_options,
                                        faithfulness_progress(translator.info().name)));
    if (!o.json) print_faithfulness_row(all.back(), width, notes);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (o.json) {
    nlohmann::json models = nlohmann::json::array();
    for (const auto& f : all)
      models.push_back({{"model", f.model}, {"faithfulness", faithfulness_json(f)}});
    std::cout << nlohmann::json{{"source", o.source},
                                {"reference", nullptr},
                                {"models", models},
                                {"seconds", seconds}}
                     .dump(2)
              << "\n";
    return 0;
  }
  print_faithfulness_end(all, notes, seconds);
  return 0;
}

int run(const EvalOptions& o) {
  if (o.faithfulness && o.reference.empty()) return run_faithfulness_only(o);
  const auto [sources, references] = read_line_pairs(o.source, o.reference);
  std::vector<std::string> inputs = {o.source, o.reference};
  inputs.insert(inputs.end(), o.models.begin(), o.models.end());
  check_plot_path(o.plot, inputs);
  TranslationOptions options;
  options.beam_size = o.beam;
  options.unknown_words = o.unknown_words;
  options.copy_rule = o.copy_rule;
  options.gnmt_alpha = o.length_penalty;
  options.coverage_penalty = o.coverage_penalty;
  options.any_ending = o.any_ending;
  std::string penalties;  // the summary line names only the penalties given
  char figure[64];
  if (o.length_penalty >= 0) {
    std::snprintf(figure, sizeof figure, ", length penalty %g", o.length_penalty);
    penalties += figure;
  }
  if (o.coverage_penalty != 0) {
    std::snprintf(figure, sizeof figure, ", coverage penalty %g", o.coverage_penalty);
    penalties += figure;
  }
  if (o.any_ending && o.beam > 1) penalties += ", 0.9.0's ending rule";
  // Read before anything is decoded: a bad path must not cost a whole evaluation.
  const TargetLexicon lexicon =
      o.train_target.empty() ? TargetLexicon() : TargetLexicon::from_file(o.train_target);
  if (!o.train_target.empty() && lexicon.empty())
    throw std::invalid_argument("--train-tgt '" + o.train_target + "' holds no words");
  std::vector<CorpusEvaluation> all;
  std::vector<ModelFaithfulness> faithful;
  const auto start = std::chrono::steady_clock::now();
  for (const auto& path : model_paths(o)) {
    const Translator translator(path, o.output_weights);
    all.push_back(evaluate_corpus(translator, sources, references, options, {}, &lexicon));
    const std::vector<Translation>& translations = all.back().translations;
    note_cut_lines(translator.info().name, translations.size(), [&](size_t i) {
      const SourceText& source = translations[i].source;
      return source.truncated ? source.kept_length : -1;
    });
    all.back().translations.clear();  // only the measures are printed
    if (o.faithfulness)
      faithful.push_back(evaluate_faithfulness(translator, sources, o.faithfulness_options,
                                               faithfulness_progress(translator.info().name)));
    if (!o.json) {
      print_summary(all.back(), penalties);
      // One model's figures while the next one decodes; a full disk stops it here, named.
      if (std::fflush(stdout) != 0)
        ATTNSCOPE_THROW_RUNTIME_ERROR("cannot write the output: ", std::strerror(errno));
    }
  }
#ifdef ATTNSCOPE_WITH_UI
  if (!o.plot.empty()) draw_plot(all, o.plot, o.beam);
#endif
  if (o.json) {
    nlohmann::json models = nlohmann::json::array();
    for (size_t m = 0; m < all.size(); ++m) {
      models.push_back(evaluation_json(all[m]));
      // null: no GNMT length penalty, log P / length
      models.back()["length_penalty"] =
          o.length_penalty >= 0 ? nlohmann::json(o.length_penalty) : nlohmann::json();
      models.back()["coverage_penalty"] = o.coverage_penalty;
      models.back()["any_ending"] = o.any_ending;
      if (o.faithfulness) models.back()["faithfulness"] = faithfulness_json(faithful[m]);
    }
    std::cout << nlohmann::json{{"source", o.source},
                                {"reference", o.reference},
                                {"models", models}}
                     .dump(2)
              << "\n";
    return 0;
  }
  if (o.by_length) print_by_length(all);
  if (o.metrics) {
    print_metrics(all);
    print_leak(all);
  }
  if (o.faithfulness)
    print_faithfulness(
        faithful, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return 0;
}

}  // namespace

Action add_eval_command(CLI::App& app) {
  auto o = std::make_shared<EvalOptions>();
  app.add_option("--score", o->scores,
                 "shipped model of this score function (several: side by side)")
      ->check(CLI::IsMember(score_function_names()));
  app.add_option("--model", o->models, "model file (several: side by side)");
  add_pair_option(app, o->pair);
  app.add_option("--src", o->source, "source sentences (plain or .gz)")->required();
  app.add_option("--ref", o->reference,
                 "reference translations, line by line (required but with --faithfulness)");
  app.add_option("--beam", o->beam, "beam size (1 = greedy)")->check(CLI::Range(1, 100));
  app.add_option("--length-penalty", o->length_penalty,
                 "beam: rank finished hypotheses by log P / ((5 + length) / 6)^ALPHA (GNMT; 0: "
                 "log P itself). Without it: log P / length")
      ->check(finite_non_negative());
  app.add_option("--coverage-penalty", o->coverage_penalty,
                 "beam: add BETA * sum over source words of log min(1, attention received) "
                 "(GNMT; default 0)")
      ->check(finite_non_negative());
  add_any_ending_option(app, o->any_ending);
  app.add_flag("--by-length", o->by_length,
               "BLEU per source length: 1-10, 11-20, 21-30 and 31+ words");
  app.add_flag("--metrics", o->metrics,
               "attention entropy, </s> sink, diagonality and coverage spread");
  app.add_flag("--json", o->json, "everything as one JSON object");
  app.add_option("--plot", o->plot,
                 "draw BLEU by source length, one line per model, to FILE (.png, .svg or .pdf)");
  app.add_flag("--faithfulness", o->faithfulness,
               "is attention an explanation? per model, on its greedy translations: Kendall "
               "tau-b of attention and |attribution| (ig, loo), and the output's change when "
               "attention is permuted or uniform (slow: over a second per sentence and model)");
  app.add_option("--permutations", o->faithfulness_options.permutations,
                 "--faithfulness: random permutations of each step's attention (default 10)")
      ->check(CLI::Range(1, FaithfulnessOptions::kMaxPermutations));
  app.add_option("--ig-steps", o->faithfulness_options.ig_steps,
                 "--faithfulness: integrated gradients' steps (default 32)")
      ->check(CLI::Range(1, AttributionOptions::kMaxIgSteps));
  add_unknown_words_option(app, o->unknown_words);
  app.add_option("--copy-threshold", o->copy_rule.min_attention,
                 "--unk copy: the least attention an unknown source word needs to be copied "
                 "(default " +
                     figure(kMinCopyAttention, "%g") + ")")
      ->check(finite_number(0.0, 1.0));
  app.add_flag("--copy-any", o->copy_rule.any_word,
               "--unk copy: the rule of attnscope 0.9.0, to compare: the source word the "
               "attention weighs most, known or not (its runner-up when that is </s>)");
  app.add_option("--train-tgt", o->train_target,
                 "target side of the model's training corpus: --metrics counts the source words "
                 "left in the output that it never has");
  app.add_option_function<std::string>(
         "--output-weights",
         [o](const std::string& value) { o->output_weights = parse_output_weights(value); },
         "stored: the output layer as the model file stores it (default; where the CPU "
         "multiplies bfloat16 natively, greedy search makes its logits in bfloat16 first, then "
         "each step's 8 largest again in float32); fp32: every logit in float32")
      ->check(CLI::IsMember({"stored", "fp32"}));
  add_threads_option(app, o->threads);
  // --ref is required unless --faithfulness alone is asked for; a parse error like CLI11's own.
  app.parse_complete_callback([o, &app] {
    if (o->reference.empty() && !o->faithfulness) throw CLI::RequiredError("--ref");
    const bool bleu = !o->reference.empty();  // faithfulness alone decodes greedily
    refuse_unless(app, "--beam", bleu, "--ref (--faithfulness measures greedy translations)");
    for (const char* flag : {"--length-penalty", "--coverage-penalty", "--any-ending"})
      refuse_unless(app, flag, bleu && o->beam > 1,
                    "--beam 2 or more and --ref (greedy search ranks no hypotheses)");
    for (const char* flag : {"--permutations", "--ig-steps"})
      refuse_unless(app, flag, o->faithfulness, "--faithfulness");
    for (const char* flag : {"--copy-threshold", "--copy-any"})
      refuse_unless(app, flag, o->unknown_words == UnknownWords::kCopy, "--unk copy");
    refuse_unless(app, "--train-tgt", o->metrics || o->json, "--metrics or --json");
  });
  return [o] { return run(*o); };
}

}  // namespace attnscope::cli
