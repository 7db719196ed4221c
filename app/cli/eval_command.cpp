#include <attnscope/bleu.h>
#include <attnscope/corpus.h>
#include <attnscope/errors.h>
#include <attnscope/text.h>
#include <attnscope/translator.h>

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
};

int run(const EvalOptions& o) {
  const std::vector<std::string> sources = read_utf8_lines(o.source);
  const std::vector<std::string> references = read_utf8_lines(o.reference);
  if (sources.size() != references.size())
    ATTNSCOPE_THROW_INVALID_ARGUMENT("'", o.source, "' has ", sources.size(), " lines but '",
                                     o.reference, "' has ", references.size());
  const Translator translator(o.model.path());
  TranslationOptions options;
  options.beam_size = o.beam;
  std::vector<std::vector<std::string>> hypotheses, reference_tokens;
  for (const auto& t : translator.translate_batch(sources, options))
    hypotheses.push_back(t.words());
  // References split the way the model splits its output, so case and punctuation compare.
  const bool as_typed = translator.info().tokenizer == "whitespace";
  for (const auto& r : references)
    reference_tokens.push_back(as_typed ? split_on_whitespace(r) : tokenize(r));
  const BleuScore s = corpus_bleu(hypotheses, reference_tokens);
  std::printf(
      "BLEU = %.2f  %.1f/%.1f/%.1f/%.1f  BP=%.3f  ratio=%.3f  (%s, beam %d, %zu sentences)\n",
      s.bleu, s.precisions[0], s.precisions[1], s.precisions[2], s.precisions[3], s.brevity_penalty,
      static_cast<double>(s.hypothesis_length) / std::max(1L, s.reference_length),
      translator.info().name.c_str(), o.beam, sources.size());
  return 0;
}

}  // namespace

Action add_eval_command(CLI::App& app) {
  auto o = std::make_shared<EvalOptions>();
  o->model.add_options(app);
  app.add_option("--src", o->source, "source sentences (plain or .gz)")->required();
  app.add_option("--ref", o->reference, "reference translations, line by line")->required();
  app.add_option("--beam", o->beam, "beam size (1 = greedy)")->check(CLI::Range(1, 100));
  add_threads_option(app, o->threads);
  return [o] { return run(*o); };
}

}  // namespace attnscope::cli
