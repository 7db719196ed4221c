#include "train/evaluation.h"

#include "attnscope/bleu.h"
#include "attnscope/text.h"
#include "attnscope/translator.h"
#include "decode/search.h"
#include "decode/step_model_factory.h"
#include "train/training_loss.h"

namespace attnscope {

Validation validate(const std::shared_ptr<TrainableModel>& model, const std::vector<IdPair>& pairs,
                    const std::vector<std::vector<std::string>>& references,
                    const Vocabulary& target_vocabulary, const std::string& subword_marker,
                    bool cased) {
  torch::NoGradGuard no_grad;
  model->eval();
  const std::unique_ptr<StepModel> steps = make_step_model(model);
  double loss_sum = 0.0;
  int64_t tokens = 0;
  std::vector<std::vector<std::string>> hypotheses(pairs.size());
  for (const auto& indices : length_buckets(pairs, 128)) {
    const Batch batch = make_batch(pairs, indices);
    loss_sum += teacher_forced_loss(*model, batch, 0.0, /*sum=*/true).item<double>();
    tokens += batch.target_tokens;
    std::vector<std::vector<int64_t>> sources;
    std::vector<int> limits;
    for (size_t i : indices) {
      sources.push_back(pairs[i].source);
      limits.push_back(static_cast<int>(2 * pairs[i].source.size()) + 10);
    }
    const auto found = greedy_search(*steps, sources, limits);
    for (size_t j = 0; j < indices.size(); ++j) {
      Translation output;  // its words(), as every other BLEU of the engine reads a translation
      output.subword_marker = subword_marker;
      for (int64_t id : found[j].tokens) output.tokens.push_back(target_vocabulary.token(id));
      hypotheses[indices[j]] = output.words();
    }
  }
  Validation result;
  result.loss = loss_sum / std::max<int64_t>(1, tokens);
  if (cased) {  // "Strand." against "strand .": both split and lowercased alike
    std::vector<std::vector<std::string>> hypothesis_words, reference_words;
    for (const auto& h : hypotheses) hypothesis_words.push_back(bleu_words(h));
    for (const auto& r : references) reference_words.push_back(bleu_words(r));
    result.bleu = corpus_bleu(hypothesis_words, reference_words).bleu;
  } else {
    result.bleu = corpus_bleu(hypotheses, references).bleu;
  }
  size_t exact = 0;
  for (size_t i = 0; i < hypotheses.size(); ++i) exact += hypotheses[i] == references[i];
  result.exact =
      static_cast<double>(exact) / static_cast<double>(std::max<size_t>(1, pairs.size()));
  return result;
}

TestBleu test_bleu(const std::string& model_path, const std::vector<std::string>& sources,
                   const std::vector<std::string>& references) {
  const Translator translator(model_path);
  const bool cased = translator.info().tokenizer == kCasedTokenizer;
  std::vector<std::vector<std::string>> reference_tokens;
  for (const auto& r : references) reference_tokens.push_back(tokenize(r));
  auto bleu_of = [&](int beam) {
    TranslationOptions options;
    options.beam_size = beam;
    // The model's own output, as every recorded test BLEU is (the shipped models' included);
    // `eval` gives the figures with unknown words copied.
    options.unknown_words = UnknownWords::kKeep;
    std::vector<std::vector<std::string>> hypotheses;
    for (const auto& t : translator.translate_batch(sources, options))
      hypotheses.push_back(cased ? bleu_words(t.words()) : t.words());
    return corpus_bleu(hypotheses, reference_tokens).bleu;
  };
  return {bleu_of(1), bleu_of(5)};
}

}  // namespace attnscope
