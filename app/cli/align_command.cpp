// align: word alignments read off a model's attention while it force-decodes each sentence pair,
// in Pharaoh format, or scored against a gold alignment (precision, recall, AER).
#include <attnscope/attention_file.h>
#include <attnscope/corpus.h>
#include <attnscope/errors.h>
#include <attnscope/sentence_alignment.h>
#include <attnscope/text.h>
#include <attnscope/translator.h>
#include <attnscope/word_alignment.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/command.h"

namespace attnscope::cli {
namespace {

struct AlignOptions {
  ModelChoice model;
  std::string source, target, gold;
  std::string method = "argmax";
  bool one_based = false;
  bool json = false;
  int threads = 0;
};

int run(const AlignOptions& o) {
  const AlignmentMethod method = parse_alignment_method(o.method);
  const auto [sources, targets] = read_line_pairs(o.source, o.target);
  std::vector<std::string> gold;
  if (!o.gold.empty()) {
    gold = read_utf8_lines(o.gold);
    if (gold.size() != sources.size())
      ATTNSCOPE_THROW_INVALID_ARGUMENT("'", o.gold, "' has ", gold.size(), " lines but '", o.source,
                                       "' has ", sources.size());
  }
  const Translator translator(o.model.path());
  if (!translator.info().has_attention)
    ATTNSCOPE_THROW_INVALID_ARGUMENT("model '", translator.info().name,
                                     "' has no attention to align words with");
  AlignmentScore score;
  for (size_t i = 0; i < sources.size(); ++i) {
    WordAttention words;
    try {
      words = attention_over_words(translator, sources[i], targets[i]);
    } catch (const std::invalid_argument& e) {
      ATTNSCOPE_THROW_INVALID_ARGUMENT("'", o.source, "' line ", i + 1, ": ", e.what());
    }
    const std::vector<AlignmentLink> links = alignment_from_attention(words.weights, method);
    if (gold.empty()) {
      if (o.json)
        std::cout << nlohmann::json{{"source_words", words.source_words},
                                    {"target_words", words.target_words},
                                    {"links", pharaoh_text(links)}}
                         .dump()
                  << '\n';
      else
        std::cout << pharaoh_text(links) << '\n';
      continue;
    }
    const SentencePairSizes pair{o.source, words.source_words.size(), o.target,
                                 words.target_words.size()};
    score.add(links, parse_pharaoh_links(gold[i], o.gold, i + 1, pair, o.one_based));
  }
  if (gold.empty()) return 0;
  if (o.json) {
    std::cout << nlohmann::json{{"model", translator.info().name},
                                {"method", o.method},
                                {"sentence_pairs", sources.size()},
                                {"predicted_links", score.predicted},
                                {"sure_links", score.sure},
                                {"sure_matches", score.sure_matches},
                                {"possible_matches", score.possible_matches},
                                {"precision", score.precision()},
                                {"recall", score.recall()},
                                {"aer", score.aer()}}
                     .dump(2)
              << '\n';
  } else {
    std::printf(
        "precision %.4f  recall %.4f  AER %.4f  (%s, %s, %zu sentence pairs, %zu links "
        "predicted, %zu sure gold links)\n",
        score.precision(), score.recall(), score.aer(), translator.info().name.c_str(),
        o.method.c_str(), sources.size(), score.predicted, score.sure);
  }
  return 0;
}

}  // namespace

Action add_align_command(CLI::App& app) {
  auto o = std::make_shared<AlignOptions>();
  o->model.add_options(app);
  app.add_option("--src", o->source, "source sentences, words separated by spaces")->required();
  app.add_option("--tgt", o->target, "target sentences, words separated by spaces")->required();
  app.add_option("--gold", o->gold,
                 "gold alignment (Pharaoh: sure i-j, possible i?j or ipj): print precision, "
                 "recall and AER instead of the links");
  app.add_flag("--one-based", o->one_based, "the gold alignment's indices start at 1");
  app.add_option("--method", o->method,
                 "argmax (each target word to the source word it attends most) or threshold:X "
                 "(every weight >= X)");
  app.add_flag("--json", o->json, "JSON instead of text");
  add_threads_option(app, o->threads);
  return [o] { return run(*o); };
}

}  // namespace attnscope::cli
