#include "attnscope/translator.h"

#include <cmath>

#include "attnscope/errors.h"
#include "decode/decoding_session.h"
#include "decode/native_step_model.h"
#include "decode/scripted_step_model.h"
#include "decode/transformer_step_model.h"
#include "decode/translator_impl.h"
#include "model/decoder.h"
#include "model/model_file.h"

namespace attnscope {
namespace {

// The step model of a model file's weights, built by its architecture; its parameter count.
std::unique_ptr<StepModel> native_step_model(const Checkpoint& checkpoint, const std::string& path,
                                             OutputWeights output_weights, int64_t* parameters) {
  if (checkpoint.config.transformer()) {
    Transformer model(checkpoint.config);
    load_parameters(*model, checkpoint, path);
    model->eval();
    *parameters = model->parameter_count();
    return std::make_unique<TransformerStepModel>(std::move(model));
  }
  Seq2Seq model(checkpoint.config);
  load_parameters(*model, checkpoint, path);
  model->eval();
  model->prepare_inference(output_weights);
  *parameters = model->parameter_count();
  return std::make_unique<NativeStepModel>(std::move(model));
}

void load_native(Translator::Impl& impl, const std::string& path, OutputWeights output_weights) {
  Checkpoint checkpoint = load_model_file(path);
  int64_t parameters = 0;
  impl.model = native_step_model(checkpoint, path, output_weights, &parameters);
  impl.tokens =
      checkpoint.subwords == kCharacters
          ? TokenMapping::characters(checkpoint.source_vocabulary, checkpoint.target_vocabulary,
                                     checkpoint.config.max_source_length)
          : TokenMapping::native(checkpoint.source_vocabulary, checkpoint.target_vocabulary,
                                 checkpoint.config.max_source_length, checkpoint.source_subwords,
                                 checkpoint.target_subwords, checkpoint.config.cased);
  impl.info = model_info(checkpoint, path, parameters);
}

void load_scripted(Translator::Impl& impl, const std::string& path) {
  auto model = std::make_shared<const ScriptedModel>(path);
  impl.tokens = TokenMapping::scripted(model->attributes());
  impl.info = model_info(*model, path);
  impl.model = std::make_unique<ScriptedStepModel>(std::move(model));
}

// The search's settings from the caller's options, checked (one-line invalid_argument).
BeamSettings beam_settings(const Translator::Impl& impl, const TranslationOptions& options,
                           int max_length) {
  if (!std::isfinite(options.gnmt_alpha))
    ATTNSCOPE_THROW_INVALID_ARGUMENT("length penalty must be a number, not ", options.gnmt_alpha);
  if (!std::isfinite(options.coverage_penalty) || options.coverage_penalty < 0.0f)
    ATTNSCOPE_THROW_INVALID_ARGUMENT("coverage penalty must be a number >= 0, not ",
                                     options.coverage_penalty);
  BeamSettings s;
  s.beam_size = std::max(1, options.beam_size);
  s.length_penalty = options.length_penalty;
  s.gnmt_alpha = options.gnmt_alpha;
  s.coverage_penalty = options.coverage_penalty;
  s.any_ending = options.any_ending;
  s.max_length = max_length;
  const int64_t vocabulary = impl.tokens.target_size();
  for (int id : options.prefix) {
    if (id < 0 || id >= vocabulary)
      ATTNSCOPE_THROW_INVALID_ARGUMENT(
          "prefix token id ", id, " is outside the target vocabulary (", vocabulary, " tokens)");
    s.prefix.push_back(id);
  }
  return s;
}

}  // namespace

Translator::Translator(const std::string& model_path, OutputWeights output_weights)
    : impl_(std::make_unique<Impl>()) {
  // Not InferenceMode: tensors made under it can never enter autograd, and attribution
  // (explain/) differentiates through the model's parameters.
  torch::NoGradGuard no_grad;
  if (ScriptedModel::is_scripted_file(model_path)) {
    load_scripted(*impl_, model_path);  // a module keeps its own weights
  } else {
    load_native(*impl_, model_path, output_weights);
    impl_->output_weights = output_weights;
  }
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
  if (options.beam_size > 1 || !options.prefix.empty() ||
      impl_->output_weights == OutputWeights::kInt8) {
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
  TwoPassLogitsScope two_pass;  // where the model has it (OutputWeights::kAsStored)
  const std::vector<Hypothesis> hypotheses = greedy_search(*impl_->model, ids, limits);
  for (size_t j = 0; j < hypotheses.size(); ++j)
    results[positions[j]] =
        impl_->to_translation(sources[j], hypotheses[j], options.unknown_words, options.copy_rule);
  return results;
}

std::vector<Translation> Translator::translate_nbest(const std::string& sentence,
                                                     const TranslationOptions& options) const {
  c10::InferenceMode inference;
  const SourceText source = prepare_source(sentence);
  if (impl_->tokens.is_empty(source)) return {impl_->empty_translation(source)};
  const std::vector<int64_t> ids = impl_->tokens.source_ids(source);
  const int limit = impl_->max_length(source, options);
  const BeamSettings settings = beam_settings(*impl_, options, limit);
  std::vector<Hypothesis> hypotheses;
  if (options.beam_size > 1)
    hypotheses = beam_search(*impl_->model, ids, settings);
  else if (!settings.prefix.empty())
    hypotheses = {greedy_search_from(*impl_->model, ids, settings.prefix, limit)};
  else
    hypotheses = greedy_search(*impl_->model, {ids}, {limit});
  std::vector<Translation> results;
  for (const auto& h : hypotheses)
    results.push_back(impl_->to_translation(source, h, options.unknown_words, options.copy_rule));
  return results;
}

Translation Translator::translate_with_tree(const std::string& sentence,
                                            const TranslationOptions& options,
                                            BeamTree& tree) const {
  return translate_nbest_with_tree(sentence, options, tree).front();
}

std::vector<Translation> Translator::translate_nbest_with_tree(const std::string& sentence,
                                                               const TranslationOptions& options,
                                                               BeamTree& tree) const {
  c10::InferenceMode inference;
  tree = BeamTree{};
  tree.beam_size = std::max(1, options.beam_size);
  const SourceText source = prepare_source(sentence);
  const int limit = impl_->max_length(source, options);
  BeamSettings settings = beam_settings(*impl_, options, limit);
  if (impl_->tokens.is_empty(source)) return {impl_->empty_translation(source)};  // no tree
  SearchTree search;
  settings.tree = &search;
  if (options.unknown_words == UnknownWords::kCopy)
    settings.unknown_token = impl_->tokens.unknown_id();
  const std::vector<Hypothesis> hypotheses =
      beam_search(*impl_->model, impl_->tokens.source_ids(source), settings);
  tree.best = search.best;
  tree.dropped = search.dropped;
  tree.nodes.reserve(search.nodes.size());
  Translation copy = impl_->empty_translation(source);  // an unknown node's word, by the copy rule
  for (size_t i = 0; i < search.nodes.size(); ++i) {
    const SearchNode& n = search.nodes[i];
    BeamNode node;
    node.id = static_cast<int>(i);
    node.parent = n.parent;
    node.step = n.step;
    node.token = impl_->tokens.target_token(n.token);
    node.token_id = static_cast<int>(n.token);
    node.logp = n.log_prob;
    node.score = n.score;
    node.state = static_cast<BeamNode::State>(n.state);  // the same order
    node.final_score = n.final_score;
    if (n.unknown_row >= 0) {
      // The word a translation along this node writes for it, by the rule translations copy by.
      copy.tokens = {node.token};
      copy.attention = {search.unknown_rows[static_cast<size_t>(n.unknown_row)]};
      copy.copied.clear();
      copy.kept_unknown.clear();
      copy_unknown_words(copy, options.copy_rule);
      if (!copy.copied.empty()) node.copied = copy.tokens.front();
    }
    tree.nodes.push_back(std::move(node));
  }
  // Beam size 1: the tree is beam search's chain, and the translation greedy search's own (the
  // same tokens; its score is log P, not normalised).
  if (options.beam_size <= 1) return {translate(sentence, options)};
  std::vector<Translation> results;
  for (const auto& h : hypotheses)
    results.push_back(impl_->to_translation(source, h, options.unknown_words, options.copy_rule));
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

std::vector<std::string> Translator::unknown_target_tokens(const std::string& target) const {
  return impl_->tokens.unknown_target_tokens(target);
}

namespace {

std::vector<float> values_of(const torch::Tensor& tensor) {
  const torch::Tensor values = tensor.contiguous();
  const float* data = values.data_ptr<float>();
  return std::vector<float>(data, data + values.numel());
}

}  // namespace

SelfAttention Translator::self_attention(const Translation& translation) const {
  SelfAttention result;
  StepModel& model = *impl_->model;
  if (!model.has_self_attention() || translation.source.tokens.empty() ||
      translation.tokens.empty())
    return result;
  c10::InferenceMode inference;
  const TokenMapping& tokens = impl_->tokens;
  // A copied unknown word was the unknown token when the model read it.
  std::vector<bool> copied(translation.tokens.size(), false);
  for (const CopiedWord& c : translation.copied)
    if (c.target >= 0 && static_cast<size_t>(c.target) < copied.size())
      copied[static_cast<size_t>(c.target)] = true;
  std::vector<int64_t> inputs = {model.bos()};
  result.decoder_inputs.push_back(tokens.target_token(model.bos()));
  for (size_t i = 0; i + 1 < translation.tokens.size(); ++i) {
    const std::string& token = copied[i] ? tokens.unknown_token() : translation.tokens[i];
    inputs.push_back(tokens.target_id(token));
    result.decoder_inputs.push_back(translation.tokens[i]);
  }
  const SelfAttentionWeights weights =
      model.self_attention(tokens.source_ids(translation.source), inputs);
  result.layers = static_cast<int>(weights.encoder.size(0));
  result.heads = static_cast<int>(weights.encoder.size(1));
  result.source_length = static_cast<int>(weights.encoder.size(2));
  result.target_length = static_cast<int>(weights.decoder.size(2));
  result.encoder = values_of(weights.encoder);
  result.decoder = values_of(weights.decoder);
  return result;
}

std::unique_ptr<DecodingSession> Translator::start(const std::string& sentence, int top_k,
                                                   UnknownWords unknown_words) const {
  return std::make_unique<StepwiseSession>(*impl_, prepare_source(sentence), top_k, unknown_words);
}

}  // namespace attnscope
