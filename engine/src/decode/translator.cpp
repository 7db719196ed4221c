#include "attnscope/translator.h"

#include "attnscope/text.h"
#include "decode/decoding_session.h"
#include "decode/translator_impl.h"
#include "model/model_file.h"

namespace attnscope {

Translator::Translator(const std::string& model_path) : impl_(std::make_unique<Impl>()) {
  c10::InferenceMode inference;
  Checkpoint checkpoint = load_model_file(model_path);
  impl_->model = Seq2Seq(checkpoint.config);
  load_parameters(*impl_->model, checkpoint, model_path);
  impl_->model->eval();
  impl_->model->prepare_inference();
  impl_->source_vocabulary = std::move(checkpoint.source_vocabulary);
  impl_->target_vocabulary = std::move(checkpoint.target_vocabulary);
  impl_->info = {model_path, checkpoint.config, checkpoint.training,
                 impl_->model->parameter_count(), checkpoint.file_bytes};
}

Translator::~Translator() = default;
Translator::Translator(Translator&&) noexcept = default;
Translator& Translator::operator=(Translator&&) noexcept = default;

const ModelInfo& Translator::info() const { return impl_->info; }

SourceText Translator::prepare_source(const std::string& sentence) const {
  SourceText source;
  source.tokens = tokenize(sentence);
  source.original_length = static_cast<int>(source.tokens.size());
  const auto limit = static_cast<size_t>(impl_->info.config.max_source_length - 1);
  if (source.tokens.size() > limit) {
    source.tokens.resize(limit);
    source.truncated = true;
  }
  for (const auto& token : source.tokens) {
    const bool unknown = !impl_->source_vocabulary.contains(token);
    source.unknown.push_back(unknown);
    if (unknown) source.unknown_words.push_back(token);
  }
  source.tokens.push_back(Vocabulary::special_tokens()[Vocabulary::kEos]);
  source.unknown.push_back(false);
  return source;
}

Translation Translator::translate(const std::string& sentence,
                                  const TranslationOptions& options) const {
  return translate_nbest(sentence, options).front();
}

std::vector<Translation> Translator::translate_batch(const std::vector<std::string>& sentences,
                                                     const TranslationOptions& options) const {
  std::vector<Translation> results(sentences.size());
  if (options.beam_size > 1) {
    for (size_t i = 0; i < sentences.size(); ++i) results[i] = translate(sentences[i], options);
    return results;
  }
  c10::InferenceMode inference;
  std::vector<SourceText> sources;
  std::vector<std::vector<int64_t>> ids;
  std::vector<int> limits;
  std::vector<size_t> positions;  // which result each decoded source fills
  for (size_t i = 0; i < sentences.size(); ++i) {
    SourceText source = prepare_source(sentences[i]);
    if (source.tokens.size() == 1) {  // nothing but </s>: nothing to translate
      results[i].source = std::move(source);
      continue;
    }
    ids.push_back(impl_->source_ids(source));
    limits.push_back(impl_->max_length(source, options));
    positions.push_back(i);
    sources.push_back(std::move(source));
  }
  const std::vector<Hypothesis> hypotheses = greedy_search(impl_->model, ids, limits);
  for (size_t j = 0; j < hypotheses.size(); ++j)
    results[positions[j]] = impl_->to_translation(sources[j], hypotheses[j]);
  return results;
}

std::vector<Translation> Translator::translate_nbest(const std::string& sentence,
                                                     const TranslationOptions& options) const {
  c10::InferenceMode inference;
  const SourceText source = prepare_source(sentence);
  if (source.tokens.size() == 1) {
    Translation empty;
    empty.source = source;
    return {empty};
  }
  const std::vector<int64_t> ids = impl_->source_ids(source);
  const int limit = impl_->max_length(source, options);
  std::vector<Hypothesis> hypotheses =
      options.beam_size > 1
          ? beam_search(impl_->model, ids, options.beam_size, options.length_penalty, limit)
          : greedy_search(impl_->model, {ids}, {limit});
  std::vector<Translation> results;
  for (const auto& h : hypotheses) results.push_back(impl_->to_translation(source, h));
  return results;
}

Translation Translator::force_decode(const std::string& sentence, const std::string& target) const {
  c10::InferenceMode inference;
  const SourceText source = prepare_source(sentence);
  std::vector<int64_t> target_ids;
  for (const auto& token : tokenize(target))
    target_ids.push_back(impl_->target_vocabulary.id(token));
  target_ids.push_back(Vocabulary::kEos);
  return impl_->to_translation(source,
                               forced_decode(impl_->model, impl_->source_ids(source), target_ids));
}

std::unique_ptr<DecodingSession> Translator::start(const std::string& sentence, int top_k) const {
  return std::make_unique<StepwiseSession>(*impl_, prepare_source(sentence), top_k);
}

}  // namespace attnscope
