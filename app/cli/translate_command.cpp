#include <attnscope/beam_tree_json.h>
#include <attnscope/errors.h>
#include <attnscope/explanation.h>
#include <attnscope/output_file.h>
#include <attnscope/translator.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "cli/command.h"

namespace attnscope::cli {
namespace {

struct TranslateOptions {
  ModelChoice model;
  int beam = 1;
  bool json = false;
  int threads = 0;
  UnknownWords unknown_words = UnknownWords::kCopy;
  std::optional<std::string> force;  // forced decoding of this target
  std::vector<std::string> edits;    // --edit-attention specs, in their order
  std::vector<std::string> sentences;
  float length_penalty = -1.0f;          // GNMT alpha; unset (< 0): log P / length as always
  float coverage_penalty = 0.0f;         // GNMT beta
  bool any_ending = false;               // 0.9.0's beam ending rule
  std::optional<std::string> beam_tree;  // --beam-tree FILE: one JSON tree per sentence
  // Unset: int8 where each sentence is decoded alone (the one-sentence path, where it is
  // fastest and keeps the translations), the stored weights for a pipe decoded in batches.
  std::optional<OutputWeights> output_weights;
  size_t batch = 64;  // lines of a pipe decoded together
};

// The penalties asked for, on top of the beam size and --unk.
TranslationOptions translation_options(const TranslateOptions& o) {
  TranslationOptions options;
  options.beam_size = o.beam;
  options.unknown_words = o.unknown_words;
  options.gnmt_alpha = o.length_penalty;
  options.coverage_penalty = o.coverage_penalty;
  options.any_ending = o.any_ending;
  return options;
}

// Models with several layers or heads: [step][layer][head][source].
nlohmann::json head_attention(const Translation& t) {
  nlohmann::json steps = nlohmann::json::array();
  for (const HeadAttention& step : t.head_attention) {
    nlohmann::json layers = nlohmann::json::array();
    for (int layer = 0; layer < step.layers; ++layer) {
      nlohmann::json heads = nlohmann::json::array();
      for (int head = 0; head < step.heads; ++head) heads.push_back(step.row(layer, head));
      layers.push_back(std::move(heads));
    }
    steps.push_back(std::move(layers));
  }
  return steps;
}

nlohmann::json translation_json(const std::string& sentence, const Translation& t) {
  nlohmann::json j = {
      {"source", sentence},
      {"source_tokens", t.source.tokens},
      {"unknown_words", t.source.unknown_words},
      {"truncated", t.source.truncated},
      {"translation", t.text()},
      {"tokens", t.tokens},
      {"probabilities", t.probabilities},
      // null, not [], for a model without attention (the `none` baseline)
      {"attention", t.has_attention ? nlohmann::json(t.attention) : nlohmann::json()},
      {"score", t.score}};
  // Which output tokens are source words copied in place of "<unk>", and from where.
  nlohmann::json copied = nlohmann::json::array(), copied_from = nlohmann::json::array();
  for (const CopiedWord& c : t.copied) {
    copied.push_back(c.target);
    copied_from.push_back(c.source);
  }
  j["copied"] = std::move(copied);
  j["copied_from"] = std::move(copied_from);
  // The "<unk>" copying left, and why: no unknown source word, only lowercase (English) ones, or
  // an unknown name the row barely looks at (source: its index, or null).
  nlohmann::json kept = nlohmann::json::array();
  for (const KeptUnknown& k : t.kept_unknown)
    kept.push_back(
        {{"target", k.target},
         {"reason", k.reason == KeptUnknown::Reason::kNoUnknownWord     ? "no_unknown_word"
                    : k.reason == KeptUnknown::Reason::kOnlyCommonWords ? "only_lowercase_words"
                                                                        : "too_little_attention"},
         {"source", k.source < 0 ? nlohmann::json() : nlohmann::json(k.source)},
         {"attention", k.attention}});
  j["kept_unknown"] = std::move(kept);
  if (!t.head_attention.empty()) {
    j["layers"] = t.layers();
    j["heads"] = t.heads();
    j["head_attention"] = head_attention(t);
  }
  return j;
}

// Input may hold invalid UTF-8; replace it rather than fail on output.
std::string dump_line(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string to_json_line(const std::string& sentence, const Translation& t) {
  return dump_line(translation_json(sentence, t));
}

// `first_line`: the input line number of sentences[0], for the truncation note.
void print(const TranslateOptions& o, const std::vector<std::string>& sentences,
           const std::vector<Translation>& results, size_t first_line = 1) {
  for (size_t i = 0; i < results.size(); ++i) {
    if (o.json) {
      std::cout << to_json_line(sentences[i], results[i]) << '\n';
    } else {
      std::cout << results[i].text() << '\n';
      if (results[i].source.truncated)
        std::cerr << "attnscope-cli: note: line " << first_line + i << " has "
                  << results[i].source.original_length << " tokens; translated its first "
                  << results[i].source.kept_length << '\n';
    }
  }
  std::cout.flush();
  // Stop at once when nobody can read the translations (a full disk behind stdout).
  if (!std::cout)
    ATTNSCOPE_THROW_RUNTIME_ERROR("cannot write the translations: ", std::strerror(errno));
}

std::vector<std::string> stdin_lines() {
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(std::cin, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  if (std::ferror(stdin))
    ATTNSCOPE_THROW_RUNTIME_ERROR("cannot read standard input: ", std::strerror(errno));
  return lines;
}

// The edited translation, and with --json which steps were edited (from 1) and the rows the
// model would have read there.
void print_edited(const TranslateOptions& o, const std::string& sentence,
                  const EditedTranslation& e) {
  if (!o.json) {
    print(o, {sentence}, {e.translation});
    return;
  }
  nlohmann::json j = translation_json(sentence, e.translation);
  std::vector<int> steps;
  for (int step : e.edited_steps) steps.push_back(step + 1);
  j["edits"] = o.edits;
  j["edited_steps"] = steps;
  j["original_attention"] = e.original_rows;
  if (o.force) j["forced"] = true;
  std::cout << dump_line(j) << '\n';
  std::cout.flush();
  if (!std::cout)
    ATTNSCOPE_THROW_RUNTIME_ERROR("cannot write the translations: ", std::strerror(errno));
}

// --force and --edit-attention: one sentence at a time, greedy.
int run_what_if(const TranslateOptions& o) {
  WhatIf what_if;
  for (const auto& spec : o.edits) what_if.edits.push_back(parse_attention_edit(spec));
  const std::vector<std::string> sentences = o.sentences.empty() ? stdin_lines() : o.sentences;
  if (o.force && sentences.size() != 1)
    ATTNSCOPE_THROW_INVALID_ARGUMENT("--force gives the target of one sentence, but there are ",
                                     sentences.size(), " sentences");
  const Translator translator(o.model.path());
  if (o.force) check_forced_target(translator, *o.force);
  if (!what_if.edits.empty()) {
    const std::string why_not = edit_support(translator);
    const std::string& name = translator.info().name;
    if (!why_not.empty())  // naming the model once
      ATTNSCOPE_THROW_RUNTIME_ERROR(
          "--edit-attention: ",
          why_not.find("'" + name + "'") != std::string::npos ? "" : "model '" + name + "': ",
          why_not);
  }
  if (o.force && what_if.edits.empty()) {
    print(o, sentences, {translator.force_decode(sentences[0], *o.force, o.unknown_words)});
    return 0;
  }
  TranslationOptions options;
  options.unknown_words = o.unknown_words;
  if (o.force) {
    // The target's every token forced, the edits applied: how the edits change the
    // probabilities of that target.
    const Translation target = translator.force_decode(sentences[0], *o.force, UnknownWords::kKeep);
    for (size_t t = 0; t < target.tokens.size(); ++t)
      what_if.forced[static_cast<int>(t)] = target.tokens[t];
    options.max_length_ratio = 0;
    options.max_length_extra = static_cast<int>(target.tokens.size());
  }
  for (size_t i = 0; i < sentences.size(); ++i) {
    EditedTranslation e;
    try {
      e = translate_with_edits(translator, sentences[i], what_if, options);
    } catch (const std::invalid_argument& error) {
      if (sentences.size() == 1) throw;
      throw std::invalid_argument("sentence " + std::to_string(i + 1) + ": " + error.what());
    }
    print_edited(o, sentences[i], e);
  }
  return 0;
}

// --beam-tree: each sentence searched alone, its translation printed and its tree written as
// one line of FILE.
int run_beam_tree(const TranslateOptions& o, const Translator& translator,
                  const TranslationOptions& options) {
  OutputFile file("--beam-tree file", *o.beam_tree, /*to_standard_output=*/true);
  const std::vector<std::string> sentences = o.sentences.empty() ? stdin_lines() : o.sentences;
  for (size_t i = 0; i < sentences.size(); ++i) {
    BeamTree tree;
    const Translation t = translator.translate_with_tree(sentences[i], options, tree);
    std::ostringstream line;
    write_beam_tree_json(line, tree);
    file.write(line.str());
    print(o, {sentences[i]}, {t}, i + 1);
  }
  // Put in place only once every tree is written: an interrupted run leaves the old file.
  file.commit();
  return 0;
}

OutputWeights output_weights(const TranslateOptions& o) {
  if (o.output_weights) return *o.output_weights;
  const bool batched = o.sentences.empty() && o.beam == 1 && o.beam_tree == std::nullopt &&
                       o.batch > 1 && !isatty(STDIN_FILENO);
  return batched ? OutputWeights::kAsStored : OutputWeights::kInt8;
}

int run(const TranslateOptions& o) {
  if (o.force || !o.edits.empty()) return run_what_if(o);
  if (o.beam_tree) {
    std::vector<std::string> inputs = {o.model.path()};
    if (o.sentences.empty()) inputs.push_back("-");
    check_output_file("--beam-tree", *o.beam_tree, inputs);
  }
  const Translator translator(o.model.path(), output_weights(o));
  const TranslationOptions options = translation_options(o);
  if (o.beam_tree) return run_beam_tree(o, translator, options);
  if (!o.sentences.empty()) {
    print(o, o.sentences, translator.translate_batch(o.sentences, options));
    return 0;
  }
  // From a pipe, translate in batches (much faster); from a terminal, answer each line at once.
  const size_t batch = isatty(STDIN_FILENO) ? 1 : o.batch;
  std::vector<std::string> lines;
  std::string line;  // getline keeps NUL bytes: they are dropped by the tokenizer, not here
  size_t done = 0;
  while (std::getline(std::cin, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
    if (lines.size() == batch) {
      print(o, lines, translator.translate_batch(lines, options), done + 1);
      done += lines.size();
      lines.clear();
    }
  }
  // std::cin reads through stdio, so a read error (stdin is a folder, EIO) shows there.
  if (std::ferror(stdin))
    ATTNSCOPE_THROW_RUNTIME_ERROR("cannot read standard input: ", std::strerror(errno));
  print(o, lines, translator.translate_batch(lines, options), done + 1);
  return 0;
}

}  // namespace

Action add_translate_command(CLI::App& app) {
  auto o = std::make_shared<TranslateOptions>();
  o->model.add_options(app);
  auto* beam =
      app.add_option("--beam", o->beam, "beam size (1 = greedy)")->check(CLI::Range(1, 100));
  app.add_flag("--json", o->json, "one JSON object per sentence: tokens, probabilities, attention");
  app.add_option("--force", o->force,
                 "decode this target instead (one sentence): its tokens' probabilities and "
                 "attention")
      ->excludes(beam);
  app.add_option("--edit-attention", o->edits,
                 "replace attention rows while decoding greedily (repeatable): STEP:uniform, "
                 "STEP:zero=I[,J...], STEP:onehot=I, STEP:shuffle=SEED, STEP:weights=W0,W1,...; "
                 "STEP from 1 or 'all', source positions from 0. With --force: the target's "
                 "probabilities under the edits")
      ->excludes(beam)
      ->take_all()
      ->allow_extra_args(false);
  auto* length_penalty =
      app.add_option("--length-penalty", o->length_penalty,
                     "beam: rank finished hypotheses by log P / ((5 + length) / 6)^ALPHA (GNMT; "
                     "0: log P itself). Without it: log P / length")
          ->check(finite_non_negative());
  auto* coverage_penalty =
      app.add_option("--coverage-penalty", o->coverage_penalty,
                     "beam: add BETA * sum over source words of log min(1, attention received) "
                     "(GNMT; default 0)")
          ->check(finite_non_negative());
  auto* beam_tree = app.add_option("--beam-tree", o->beam_tree,
                                   "write the beam search's tree to FILE, one JSON object per "
                                   "sentence: every candidate scored, kept, pruned or finished");
  auto* any_ending = add_any_ending_option(app, o->any_ending);
  for (auto* option : {length_penalty, coverage_penalty, any_ending, beam_tree})
    for (const char* what_if : {"--force", "--edit-attention"})
      option->excludes(app.get_option(what_if));
  add_unknown_words_option(app, o->unknown_words);
  add_threads_option(app, o->threads);
  app.add_option("--batch", o->batch,
                 "lines of standard input decoded together by greedy search (default 64; 1: each "
                 "alone, as the app decodes)")
      ->check(CLI::Range(1, 4096));
  app.add_option_function<std::string>(
         "--output-weights",
         [o](const std::string& value) { o->output_weights = parse_output_weights(value); },
         "int8: the output layer rounded to 8-bit integers, half the bytes a step reads, each "
         "step's 8 largest logits again from the stored weights (default where sentences are "
         "decoded one at a time: arguments, a terminal, --batch 1, beam search); stored: as the "
         "model file stores it (default for a pipe decoded in batches; where the CPU multiplies "
         "bfloat16 natively, batched greedy search makes its logits in bfloat16 first, then each "
         "step's 8 largest again in float32); fp32: every logit in float32")
      ->check(CLI::IsMember({"stored", "int8", "fp32"}));
  app.add_option("sentence", o->sentences, "sentences to translate (default: lines of stdin)");
  app.parse_complete_callback([o, &app] {
    for (const char* flag : {"--length-penalty", "--coverage-penalty", "--any-ending"})
      refuse_unless(app, flag, o->beam > 1, "--beam 2 or more (greedy search ranks no hypotheses)");
  });
  return [o] { return run(*o); };
}

}  // namespace attnscope::cli
