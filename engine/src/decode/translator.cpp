#include "attnscope/translator.h"

#include "decode/decoding_session.h"
#include "decode/native_step_model.h"
#include "decode/scripted_step_model.h"
#include "decode/translator_impl.h"
#include "model/model_file.h"

namespace attnscope {
namespace {

void load_native(Translator::Impl& impl, const std::string& path) {
  Checkpoint checkpoint = load_model_file(path);
  Seq2Seq model(checkpoint.config);
  load_parameters(*model, checkpoint, path);
  model->eval();
  model->prepare_inference();
  impl.tokens =
      checkpoint.subwords == kCharacters
          ? TokenMapping::characters(checkpoint.source_vocabulary, checkpoint.target_vocabulary,
                                     checkpoint.config.max_source_length)
          : TokenMapping::native(checkpoint.source_vocabulary, checkpoint.target_vocabulary,
                                 checkpoint.config.max_source_length, checkpoint.source_subwords,
                                 checkpoint.target_subwords);
  impl.info = model_info(checkpoint, path, model->parameter_count());
  impl.model = std::make_unique<NativeStepModel>(std::move(model));
}

void load_scripted(Translator::Impl& impl, const std::string& path) {
  auto model = std::make_shared<const ScriptedModel>(path);
  impl.tokens = TokenMapping::scripted(model->attributes());
  impl.info = model_info(*model, path);
  impl.model = std::make_unique<ScriptedStepModel>(std::move(model));
}

}  // namespace

Translator::Translator(const std::string& model_path) : impl_(std::make_unique<Impl>()) {
  // Not InferenceMode: tensors made under it can never enter autograd, and attribution
  // (explain/) differentiates through the model's parameters.
  torch::NoGradGuard no_grad;
  if (ScriptedModel::is_scripted_file(model_path))
    load_scripted(*impl_, model_path);
  else
    load_native(*impl_, model_path);
}

Translator::~Translator() = default;
Translator::Translator(Translator&&) noexcept = default;
Translator& Translator::operator=(Translator&&) noexcept = default;

const ModelInfo& Translator::info() const { return impl_->info; }

SourceText Translator::prepare_source(const std::string& sentence) const {
  return impl_->tokens.prepare_source(sentence);
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
    if (impl_->tokens.is_empty(source)) {  // nothing to translate
      results[i] = impl_->empty_translation(source);
      continue;
    }
    ids.push_back(impl_->tokens.source_ids(source));
    limits.push_back(impl_->max_length(source, options));
    positions.push_back(i);
    sources.push_back(std::move(source));
  }
  const std::vector<Hypothesis> hypotheses = greedy_search(*impl_->model, ids, limits);
  for (size_t j = 0; j < hypotheses.size(); ++j)
    results[positions[j]] = impl_->to_translation(sources[j], hypotheses[j], options.unknown_words);
  return results;
}

std::vector<Translation> Translator::translate_nbest(const std::string& sentence,
                                                     const TranslationOptions& options) const {
  c10::InferenceMode inference;
  const SourceText source = prepare_source(sentence);
  if (impl_->tokens.is_empty(source)) return {impl_->empty_translation(source)};
  const std::vector<int64_t> ids = impl_->tokens.source_ids(source);
  const int limit = impl_->max_length(source, options);
  std::vector<Hypothesis> hypotheses =
      options.beam_size > 1
          ? beam_search(*impl_->model, ids, options.beam_size, options.length_penalty, limit)
          : greedy_search(*impl_->model, {ids}, {limit});
  std::vector<Translation> results;
  for (const auto& h : hypotheses)
    results.push_back(impl_->to_translation(source, h, options.unknown_words));
  return results;
}

Translation Translator::force_decode(const std::string& sentence, const std::string& target,
                                     UnknownWords unknown_words) const {
  c10::InferenceMode inference;
  const SourceText source = prepare_source(sentence);
  if (source.tokens.empty()) return impl_->empty_translation(source);  // nothing to attend to
  return impl_->to_translation(source,
                               forced_decode(*impl_->model, impl_->tokens.source_ids(source),
                                             impl_->tokens.target_ids(target)),
                               unknown_words);
}

std::unique_ptr<DecodingSession> Translator::start(const std::string& sentence, int top_k,
                                                   UnknownWords unknown_words) const {
  return std::make_unique<StepwiseSession>(*impl_, prepare_source(sentence), top_k, unknown_words);
}

}  // namespace attnscope
