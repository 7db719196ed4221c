#pragma once
// A model measured on a whole test set: BLEU (also by source length, the seeds' figure), what
// its attention does (attention_metrics.h), and per sentence what a table of sentences shows.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "attnscope/attention_metrics.h"
#include "attnscope/bleu.h"
#include "attnscope/source_leak.h"
#include "attnscope/translator.h"

namespace attnscope {

/// BLEU and the unknown words left, for one way of treating "<unk>".
struct UnknownWordOutcome {
  BleuScore bleu;
  size_t sentences_with_unknown = 0;
  size_t unknown_tokens = 0;
  LeakShare leak;  // source words left in the output; measured only with a TargetLexicon
};

struct SentenceEvaluation {
  size_t source_words = 0;          // words of the source line as the model's tokenizer splits it
  double bleu = 0;                  // sentence BLEU+1 of the translation
  double mean_log_probability = 0;  // per output token, the end token included
  AttentionMetrics attention;       // of this sentence's matrix alone
  size_t unknown = 0;               // "<unk>" left in the translation
  size_t copied = 0;                // "<unk>" replaced by source words
  size_t leaked = 0;                // source words left in the translation (with a lexicon)
};

struct CorpusEvaluation {
  std::string model;  // the model's name
  // False when evaluated without references: then nothing about BLEU is measured (bleu, keep,
  // copy, bleu_by_length and each sentence's bleu stay 0).
  bool has_references = true;
  bool cancelled = false;  // the progress callback asked to stop; nothing else is filled in
  int beam_size = 1;
  UnknownWords unknown_words = UnknownWords::kCopy;  // which outcome `bleu` and the rest use
  BleuScore bleu;
  // A cased model's BLEU with case (bleu compares lowercased words, as for every model);
  // has_cased_bleu is false for the others, which write lowercase.
  BleuScore cased_bleu;
  bool has_cased_bleu = false;
  UnknownWordOutcome keep;                // the model's own output
  UnknownWordOutcome copy;                // "<unk>" copied from the source (copy_unknown_words)
  std::vector<BleuScore> bleu_by_length;  // one per length_buckets()
  std::vector<size_t> sentences_by_length;
  // Over every sentence; empty for a model without attention (has_attention false).
  AttentionMetrics attention;
  bool has_attention = true;
  bool has_leak = false;  // a TargetLexicon was given: keep.leak, copy.leak and leaked are measured
  std::vector<SentenceEvaluation> sentences;
  std::vector<Translation> translations;  // as `unknown_words` asks
};

/// Called after each batch of sentences with how many of `total` are decoded; returning false
/// stops the evaluation (the result then says cancelled).
using CorpusProgress = std::function<bool(size_t done, size_t total)>;

/// Translates `sources` with `options` and measures the translations against `references` (one
/// per source, or none at all: then only the attention and the translations are measured).
/// Greedy search decodes batches of sentences of similar length. Words compare as the model's
/// tokenizer splits them (lowercased for attnscope's tokenizer, as typed for "whitespace");
/// subword pieces are joined into words first, and the attention measures use the word view of
/// subword models, so word and subword models compare. With a non-empty `lexicon` (the target
/// side of the model's training corpus) the source words left in the output are counted
/// (source_leak.h). Throws std::invalid_argument when there are references and their count
/// differs.
CorpusEvaluation evaluate_corpus(const Translator& translator,
                                 const std::vector<std::string>& sources,
                                 const std::vector<std::string>& references,
                                 const TranslationOptions& options,
                                 const CorpusProgress& progress = {},
                                 const TargetLexicon* lexicon = nullptr);

}  // namespace attnscope
