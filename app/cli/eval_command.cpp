#include <attnscope/bleu.h>
#include <attnscope/corpus.h>
#include <attnscope/errors.h>
#include <attnscope/text.h>
#include <attnscope/translator.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>

#include "cli/command.h"

namespace attnscope::cli {
namespace {

struct EvalOptions {
  ModelChoice model;
  std::string source, reference;
  int beam = 1;
  int threads = 0;
  UnknownWords unknown_words = UnknownWords::kCopy;  // which BLEU the first line gives
};

// BLEU and unknown words of one way of treating "<unk>".
struct Outcome {
  BleuScore bleu;
  size_t sentences_with_unknown = 0;
  size_t unknown_tokens = 0;
};

// `lowercase`: the model reads lowercased text, so copied words (as typed) compare lowercased.
Outcome measure(const std::vector<Translation>& translations,
                const std::vector<std::vector<std::string>>& references, bool lowercase) {
  Outcome outcome;
  std::vector<std::vector<std::string>> hypotheses;
  for (const auto& t : translations) {
    hypotheses.push_back(t.words());
    if (lowercase)
      for (auto& word : hypotheses.back()) word = to_lower(word);
    const auto unknown = static_cast<size_t>(
        std::count(hypotheses.back().begin(), hypotheses.back().end(), t.unknown_token));
    outcome.unknown_tokens += unknown;
    outcome.sentences_with_unknown += unknown > 0 ? 1 : 0;
  }
  outcome.bleu = corpus_bleu(hypotheses, references);
  return outcome;
}

int run(const EvalOptions& o) {
  const std::vector<std::string> sources = read_utf8_lines(o.source);
  const std::vector<std::string> references = read_utf8_lines(o.reference);
  if (sources.size() != references.size())
    ATTNSCOPE_THROW_INVALID_ARGUMENT("'", o.source, "' has ", sources.size(), " lines but '",
                                     o.reference, "' has ", references.size());
  const Translator translator(o.model.path());
  TranslationOptions options;
  options.beam_size = o.beam;
  // One decoding serves both ways: copying only relabels the model's "<unk>" outputs.
  options.unknown_words = UnknownWords::kKeep;
  const std::vector<Translation> kept = translator.translate_batch(sources, options);
  std::vector<Translation> copied = kept;
  for (auto& t : copied) copy_unknown_words(t);
  // References split the way the model splits its output, so case and punctuation compare.
  const bool as_typed = translator.info().tokenizer == "whitespace";
  std::vector<std::vector<std::string>> reference_tokens;
  for (const auto& r : references)
    reference_tokens.push_back(as_typed ? split_on_whitespace(r) : tokenize(r));
  const Outcome keep = measure(kept, reference_tokens, !as_typed);
  const Outcome copy = measure(copied, reference_tokens, !as_typed);
  const BleuScore& s = o.unknown_words == UnknownWords::kCopy ? copy.bleu : keep.bleu;
  std::printf(
      "BLEU = %.2f  %.1f/%.1f/%.1f/%.1f  BP=%.3f  ratio=%.3f  (%s, beam %d, %zu sentences)\n",
      s.bleu, s.precisions[0], s.precisions[1], s.precisions[2], s.precisions[3], s.brevity_penalty,
      static_cast<double>(s.hypothesis_length) / std::max(1L, s.reference_length),
      translator.info().name.c_str(), o.beam, sources.size());
  for (const auto& [name, outcome] : {std::pair{"copy", &copy}, std::pair{"keep", &keep}})
    std::printf("--unk %s: BLEU %.2f, %zu of %zu sentences with <unk> (%zu <unk> in all)\n", name,
                outcome->bleu.bleu, outcome->sentences_with_unknown, sources.size(),
                outcome->unknown_tokens);
  return 0;
}

}  // namespace

Action add_eval_command(CLI::App& app) {
  auto o = std::make_shared<EvalOptions>();
  o->model.add_options(app);
  app.add_option("--src", o->source, "source sentences (plain or .gz)")->required();
  app.add_option("--ref", o->reference, "reference translations, line by line")->required();
  app.add_option("--beam", o->beam, "beam size (1 = greedy)")->check(CLI::Range(1, 100));
  add_unknown_words_option(app, o->unknown_words);
  add_threads_option(app, o->threads);
  return [o] { return run(*o); };
}

}  // namespace attnscope::cli
