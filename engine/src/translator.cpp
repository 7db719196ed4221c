#include "attnscope/translator.h"

#include <algorithm>
#include <cmath>
#include <thread>

#include "attnscope/errors.h"
#include "attnscope/text.h"
#include "checkpoint.h"
#include "search.h"

namespace attnscope {

struct Translator::Impl {
  mutable Seq2Seq model{nullptr};  // torch modules have no const forward
  Vocabulary source_vocabulary;
  Vocabulary target_vocabulary;
  ModelInfo info;

  std::vector<int64_t> source_ids(const SourceText& source) const {
    std::vector<int64_t> ids;
    for (size_t i = 0; i + 1 < source.tokens.size(); ++i)
      ids.push_back(source_vocabulary.id(source.tokens[i]));
    ids.push_back(Vocabulary::kEos);
    return ids;
  }

  int max_length(const SourceText& source, const TranslationOptions& options) const {
    const float length = static_cast<float>(source.tokens.size());
    return std::max(1, static_cast<int>(options.max_length_ratio * length) + options.max_length_extra);
  }

  Translation to_translation(const SourceText& source, const Hypothesis& h) const {
    Translation t;
    t.source = source;
    for (int64_t id : h.tokens) t.tokens.push_back(target_vocabulary.token(id));
    t.probabilities = h.probabilities;
    t.attention = h.attention;
    t.score = h.score;
    return t;
  }
};

namespace {

class Session : public DecodingSession {
 public:
  Session(const Translator::Impl& impl, SourceText source, int top_k)
      : impl_(impl), source_(std::move(source)), top_k_(std::max(1, top_k)) {
    c10::InferenceMode inference;
    encoded_ = encode_sources(impl_.model, {impl_.source_ids(source_)});
    states_.push_back(encoded_.initial_state);
    max_steps_ = impl_.max_length(source_, TranslationOptions{});
  }

  const SourceText& source() const override { return source_; }
  const Step& step() override { return advance(-1); }
  const Step& force(const std::string& token) override {
    return advance(impl_.target_vocabulary.id(to_lower(token)));
  }
  void rewind(int n) override {
    const auto count = static_cast<size_t>(std::clamp<int>(n, 0, static_cast<int>(steps_.size())));
    steps_.resize(steps_.size() - count);
    states_.resize(states_.size() - count);
  }
  const std::vector<Step>& steps() const override { return steps_; }
  bool finished() const override {
    return static_cast<int>(steps_.size()) >= max_steps_ ||
           (!steps_.empty() && steps_.back().id == Vocabulary::kEos);
  }
  Translation translation() const override {
    Translation t;
    t.source = source_;
    for (const Step& s : steps_) {
      t.tokens.push_back(s.token);
      t.probabilities.push_back(s.probability);
      t.attention.push_back(s.attention);
      t.score += std::log(s.probability);
    }
    return t;
  }

 private:
  // forced_id < 0: take the argmax.
  const Step& advance(int64_t forced_id) {
    if (finished()) throw std::logic_error("decoding session has finished");
    c10::InferenceMode inference;
    const int64_t previous = steps_.empty() ? Vocabulary::kBos : steps_.back().id;
    DecoderStep out = impl_.model->step(encoded_.context, states_.back(),
                                        torch::full({1}, previous, torch::kLong));
    const torch::Tensor log_probs = torch::log_softmax(out.logits, 1)[0];
    // Greedy search takes max(); so does this, so both pick the same token on ties.
    const int64_t argmax = std::get<1>(log_probs.max(0)).item<int64_t>();
    Step step;
    step.forced = forced_id >= 0 && forced_id != argmax;
    step.id = static_cast<int>(forced_id >= 0 ? forced_id : argmax);
    step.token = impl_.target_vocabulary.token(step.id);
    step.probability = std::exp(log_probs[step.id].item<float>());
    const auto k = std::min<int64_t>(top_k_, log_probs.size(0));
    auto [top_values, top_ids] = log_probs.topk(k);
    for (int64_t i = 0; i < k; ++i) {
      const int64_t id = top_ids[i].item<int64_t>();
      step.candidates.push_back({impl_.target_vocabulary.token(id), static_cast<int>(id),
                                 std::exp(top_values[i].item<float>())});
    }
    step.attention = tensor_row(out.attention, 0, static_cast<int64_t>(source_.tokens.size()));
    step.entropy = attention_entropy(step.attention);
    steps_.push_back(std::move(step));
    states_.push_back(out.state);
    return steps_.back();
  }

  const Translator::Impl& impl_;
  SourceText source_;
  int top_k_;
  int max_steps_ = 0;
  EncodedBatch encoded_;
  std::vector<torch::Tensor> states_;  // states_[i] is the decoder state before step i
  std::vector<Step> steps_;
};

}  // namespace

Translator::Translator(const std::string& model_path) : impl_(std::make_unique<Impl>()) {
  c10::InferenceMode inference;
  Checkpoint checkpoint = load_checkpoint(model_path);
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
  for (const auto& token : tokenize(target)) target_ids.push_back(impl_->target_vocabulary.id(token));
  target_ids.push_back(Vocabulary::kEos);
  return impl_->to_translation(source, forced_decode(impl_->model, impl_->source_ids(source), target_ids));
}

std::unique_ptr<DecodingSession> Translator::start(const std::string& sentence, int top_k) const {
  return std::make_unique<Session>(*impl_, prepare_source(sentence), top_k);
}

std::vector<std::string> Translation::words() const {
  std::vector<std::string> words;
  for (const auto& token : tokens)
    if (token != Vocabulary::special_tokens()[Vocabulary::kEos]) words.push_back(token);
  return words;
}

std::string Translation::text() const { return join_tokens(words()); }

float attention_entropy(const std::vector<float>& row) {
  double entropy = 0.0;
  for (float a : row)
    if (a > 0.0f) entropy -= a * std::log(static_cast<double>(a));
  return static_cast<float>(entropy);
}

void set_thread_count(int threads) {
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  torch::set_num_threads(threads > 0 ? threads : cores);
}

}  // namespace attnscope
