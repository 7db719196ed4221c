#pragma once
// The engine's entry point for applications: load a model, translate, decode step by step.
#include <memory>
#include <string>
#include <vector>

#include "attnscope/cpu_dispatch.h"
#include "attnscope/model_info.h"
#include "attnscope/thread_settings.h"  // set_thread_count, for the callers that load models
#include "attnscope/translation.h"

namespace attnscope {

class DecodingSession;

/// A loaded model. Thread-compatible: const methods may run concurrently only when the caller
/// holds no session on another thread; create torch's InferenceMode per thread (done inside).
class Translator {
 public:
  /// Loads a checkpoint; throws std::runtime_error naming the file and the problem.
  /// `output_weights` (cpu_dispatch.h), for a model of this engine's own format only
  /// (TorchScript modules keep their weights): kInt8 decodes with the output layer in 8-bit
  /// integers where a step has one row (greedy search, each sentence alone; beam search's first
  /// step); kAsStored lets translate_batch() make its logits in two passes where bfloat16
  /// products are native (TwoPassLogitsScope); kFloat32 keeps every logit in float32.
  explicit Translator(const std::string& model_path,
                      OutputWeights output_weights = OutputWeights::kAsStored);
  ~Translator();
  Translator(Translator&&) noexcept;
  Translator& operator=(Translator&&) noexcept;

  const ModelInfo& info() const;

  /// Tokenises and maps a sentence the way translate() does.
  SourceText prepare_source(const std::string& sentence) const;

  /// Greedy (beam_size 1) or beam search.
  Translation translate(const std::string& sentence, const TranslationOptions& options = {}) const;
  /// Many sentences at once (batched greedy search, or one beam search after another).
  std::vector<Translation> translate_batch(const std::vector<std::string>& sentences,
                                           const TranslationOptions& options = {}) const;
  /// The final beam, best first (greedy search gives one hypothesis).
  std::vector<Translation> translate_nbest(const std::string& sentence,
                                           const TranslationOptions& options) const;
  /// Beam search of any beam size (1 included) that records every candidate it scored in
  /// `tree`; returns the best hypothesis, the one translate() gives. Costs nothing otherwise.
  Translation translate_with_tree(const std::string& sentence, const TranslationOptions& options,
                                  BeamTree& tree) const;
  /// translate_nbest() and translate_with_tree() in one search: the final beam, best first, with
  /// every candidate the search scored recorded in `tree`.
  std::vector<Translation> translate_nbest_with_tree(const std::string& sentence,
                                                     const TranslationOptions& options,
                                                     BeamTree& tree) const;
  /// Forced decoding: the probabilities and attention the model gives while producing `target`
  /// (tokenised like any sentence; "</s>" is appended). Its unknown tokens are copied, or kept.
  Translation force_decode(const std::string& sentence, const std::string& target,
                           UnknownWords unknown_words = UnknownWords::kCopy) const;
  /// The tokens of `target` this model cannot write (its vocabulary lacks them; each once):
  /// force_decode() would force the unknown token in their place. None for subword models.
  std::vector<std::string> unknown_target_tokens(const std::string& target) const;

  /// The self-attention of `translation`, made by this translator (translate(), force_decode(),
  /// a session's translation()), from one teacher-forced pass over its source and tokens; empty
  /// for a model without self-attention (ModelInfo::config.arch other than "transformer").
  SelfAttention self_attention(const Translation& translation) const;

  /// Step-wise decoding of one sentence, `top_k` candidates per step. The steps keep what the
  /// model emits ("<unk>"); the session's translation() copies unknown words, or keeps them.
  std::unique_ptr<DecodingSession> start(const std::string& sentence, int top_k = 5,
                                         UnknownWords unknown_words = UnknownWords::kCopy) const;

  struct Impl;
  /// The loaded model itself, for the engine's layers above decoding (explain/).
  const Impl& impl() const { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

/// Step-by-step greedy decoding with what-if forcing. Its steps equal those of greedy search.
class DecodingSession {
 public:
  virtual ~DecodingSession() = default;
  /// Emits the most probable next token. Throws std::logic_error when finished().
  virtual const Step& step() = 0;
  /// Emits `token` (a target-vocabulary word; unknown words become "<unk>") instead of the argmax.
  virtual const Step& force(const std::string& token) = 0;
  /// Takes back the last `n` steps (all of them when n exceeds the count).
  virtual void rewind(int n = 1) = 0;
  virtual const std::vector<Step>& steps() const = 0;
  /// True after "</s>" or at the maximum output length.
  virtual bool finished() const = 0;
  /// The steps so far as a Translation, unknown words copied as the session was asked.
  virtual Translation translation() const = 0;
};

}  // namespace attnscope
