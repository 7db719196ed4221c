#include "attnscope/corpus_evaluation.h"

#include <algorithm>
#include <cmath>

#include "attnscope/errors.h"
#include "attnscope/text.h"
#include "attnscope/thread_settings.h"
#include "attnscope/word_view.h"
#include "decode/batch_workers.h"

namespace attnscope {
namespace {

// The words BLEU compares: the model's tokenizer decides case and splitting. A cased model's
// words carry their punctuation ("Strand."): split and lowercased as references are.
std::vector<std::string> comparable_words(const std::vector<std::string>& words, bool as_typed,
                                          bool cased) {
  if (as_typed) return words;
  if (cased) return bleu_words(words);
  std::vector<std::string> lowered;
  lowered.reserve(words.size());
  // Copied words come as typed; the model's own words are lowercase already.
  for (const auto& w : words) lowered.push_back(to_lower(w));
  return lowered;
}

size_t count_unknown(const Translation& t) {
  return static_cast<size_t>(std::count(t.tokens.begin(), t.tokens.end(), t.unknown_token));
}

// The matrix the attention measures use: words for a subword model, and where "</s>" is in it.
void add_attention(const Translation& t, AttentionMetrics& metrics) {
  if (t.attention.empty()) return;
  std::vector<std::string> source = t.source.tokens;
  std::vector<std::vector<float>> weights = t.attention;
  if (!t.subword_marker.empty()) {
    WordView view =
        word_view(t.source.tokens, t.tokens, t.attention, t.subword_marker, t.end_token);
    source = std::move(view.source_words);
    weights = std::move(view.weights);
  }
  const auto end = std::find(source.rbegin(), source.rend(), t.end_token);
  const int end_column = end == source.rend() ? -1 : static_cast<int>(source.rend() - end - 1);
  metrics.add(weights, end_column);
}

UnknownWordOutcome outcome(const std::vector<std::vector<std::string>>& hypotheses,
                           const std::vector<std::vector<std::string>>& references,
                           const std::vector<size_t>& unknown) {
  UnknownWordOutcome o;
  o.bleu = corpus_bleu(hypotheses, references);
  for (size_t u : unknown) {
    o.unknown_tokens += u;
    o.sentences_with_unknown += u > 0 ? 1 : 0;
  }
  return o;
}

// Sentences per decoding batch: large enough for matrix products to pay off, small enough that
// progress comes often and little padding is decoded. Chosen, not tuned: with it 1,000
// sentences × 7 models take 16 s in the Corpus tab (attnscope-gui-bench), the target is 60 s.
constexpr size_t kBatchSentences = 64;

// Every source decoded with `options`, "<unk>" kept; batches hold sentences of similar length,
// since a batch decodes as long as its longest sentence, and the caller's torch threads decode
// several batches at once (batch_workers.h). Empty when `progress` said stop.
std::vector<Translation> translate_in_batches(const Translator& translator,
                                              const std::vector<std::string>& sources,
                                              const TranslationOptions& options,
                                              const CorpusProgress& progress, bool* cancelled) {
  std::vector<size_t> order(sources.size());
  std::vector<size_t> words(sources.size());
  for (size_t i = 0; i < sources.size(); ++i) {
    order[i] = i;
    words[i] = split_on_whitespace(sources[i]).size();
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return words[a] < words[b]; });
  const size_t batches = (order.size() + kBatchSentences - 1) / kBatchSentences;
  // Longest batches first: the workers then end on short ones, together.
  auto first_of = [&](size_t job) { return (batches - 1 - job) * kBatchSentences; };
  auto end_of = [&](size_t job) { return std::min(order.size(), first_of(job) + kBatchSentences); };
  std::vector<Translation> results(sources.size());
  size_t decoded_sentences = 0;
  const bool completed = run_jobs(
      batches, thread_count(),
      [&](size_t b) {
        std::vector<std::string> batch;
        for (size_t k = first_of(b); k < end_of(b); ++k) batch.push_back(sources[order[k]]);
        std::vector<Translation> decoded = translator.translate_batch(batch, options);
        for (size_t k = first_of(b); k < end_of(b); ++k)
          results[order[k]] = std::move(decoded[k - first_of(b)]);
      },
      [&](size_t b) {
        decoded_sentences += end_of(b) - first_of(b);
        return !progress || progress(decoded_sentences, order.size());
      });
  if (!completed) {
    *cancelled = true;
    return {};
  }
  return results;
}

}  // namespace

CorpusEvaluation evaluate_corpus(const Translator& translator,
                                 const std::vector<std::string>& sources,
                                 const std::vector<std::string>& references,
                                 const TranslationOptions& options, const CorpusProgress& progress,
                                 const TargetLexicon* lexicon) {
  const bool scored = !references.empty() || sources.empty();
  if (scored && sources.size() != references.size())
    ATTNSCOPE_THROW_INVALID_ARGUMENT(sources.size(), " source sentences but ", references.size(),
                                     " references");
  CorpusEvaluation result;
  result.model = translator.info().name;
  result.has_attention = translator.info().has_attention;
  result.has_references = scored;
  result.beam_size = options.beam_size;
  result.unknown_words = options.unknown_words;
  // One decoding serves both ways: copying only relabels the model's "<unk>" outputs.
  TranslationOptions keep_options = options;
  keep_options.unknown_words = UnknownWords::kKeep;
  const std::vector<Translation> kept =
      translate_in_batches(translator, sources, keep_options, progress, &result.cancelled);
  if (result.cancelled) return result;
  std::vector<Translation> copied = kept;
  for (auto& t : copied) copy_unknown_words(t, options.copy_rule);

  const bool as_typed = translator.info().tokenizer == "whitespace";
  const bool cased = translator.info().tokenizer == kCasedTokenizer;
  const auto split = [as_typed](const std::string& text) {
    return as_typed ? split_on_whitespace(text) : tokenize(text);
  };
  std::vector<std::vector<std::string>> reference_words, kept_words, copied_words;
  std::vector<size_t> kept_unknown, copied_unknown, kept_leaked, copied_leaked;
  result.has_leak = lexicon != nullptr && !lexicon->empty();
  for (size_t i = 0; i < sources.size(); ++i) {
    if (scored) reference_words.push_back(split(references[i]));
    kept_words.push_back(comparable_words(kept[i].words(), as_typed, cased));
    copied_words.push_back(comparable_words(copied[i].words(), as_typed, cased));
    kept_unknown.push_back(count_unknown(kept[i]));
    copied_unknown.push_back(count_unknown(copied[i]));
    if (result.has_leak) {
      // The source as typed, split as the model splits it: case tells a name from a word.
      const std::vector<std::string> typed =
          as_typed ? split_on_whitespace(sources[i]) : tokenize_keeping_case(sources[i]);
      kept_leaked.push_back(leaked_words(typed, kept_words.back(), *lexicon).size());
      copied_leaked.push_back(leaked_words(typed, copied_words.back(), *lexicon).size());
    }
  }
  if (scored) {
    result.keep = outcome(kept_words, reference_words, kept_unknown);
    result.copy = outcome(copied_words, reference_words, copied_unknown);
  } else {  // no BLEU, but the unknown words left are known all the same
    result.keep = outcome({}, {}, kept_unknown);
    result.copy = outcome({}, {}, copied_unknown);
  }
  for (size_t i = 0; i < kept_leaked.size(); ++i) {
    result.keep.leak.add(kept_leaked[i], kept_words[i].size());
    result.copy.leak.add(copied_leaked[i], copied_words[i].size());
  }
  const bool copy = options.unknown_words == UnknownWords::kCopy;
  result.bleu = copy ? result.copy.bleu : result.keep.bleu;
  const auto& hypotheses = copy ? copied_words : kept_words;
  if (copy)
    result.translations = std::move(copied);
  else
    result.translations = kept;
  if (cased && scored) {
    std::vector<std::vector<std::string>> cased_hypotheses, cased_references;
    for (size_t i = 0; i < sources.size(); ++i) {
      cased_hypotheses.push_back(bleu_words(result.translations[i].words(), /*keep_case=*/true));
      cased_references.push_back(tokenize_keeping_case(references[i]));
    }
    result.cased_bleu = corpus_bleu(cased_hypotheses, cased_references);
    result.has_cased_bleu = true;
  }

  const size_t buckets = length_buckets().size();
  std::vector<std::vector<std::vector<std::string>>> bucket_hypotheses(buckets),
      bucket_references(buckets);
  for (size_t i = 0; i < sources.size(); ++i) {
    const Translation& t = result.translations[i];
    SentenceEvaluation s;
    s.source_words = split(sources[i]).size();
    if (scored) s.bleu = sentence_bleu(hypotheses[i], reference_words[i]).bleu;
    double log_probability = 0;
    for (float p : t.probabilities) log_probability += std::log(std::max(p, 1e-30f));
    s.mean_log_probability =
        t.probabilities.empty() ? 0.0 : log_probability / t.probabilities.size();
    add_attention(t, s.attention);
    s.unknown = copy ? copied_unknown[i] : kept_unknown[i];
    s.copied = t.copied.size();
    if (result.has_leak) s.leaked = copy ? copied_leaked[i] : kept_leaked[i];
    result.attention.add(s.attention);
    const size_t b = length_bucket_of(s.source_words);
    bucket_hypotheses[b].push_back(hypotheses[i]);
    if (scored) bucket_references[b].push_back(reference_words[i]);
    result.sentences.push_back(std::move(s));
  }
  for (size_t b = 0; b < buckets; ++b) {
    result.bleu_by_length.push_back(scored ? corpus_bleu(bucket_hypotheses[b], bucket_references[b])
                                           : BleuScore{});
    result.sentences_by_length.push_back(bucket_hypotheses[b].size());
  }
  return result;
}

}  // namespace attnscope
