#pragma once
// The step-wise decoding session behind Translator::start(): greedy steps that can be forced to
// another token and taken back, each with its top-k candidates and attention row.
#include <torch/torch.h>

#include "decode/translator_impl.h"

namespace attnscope {

class StepwiseSession : public DecodingSession {
 public:
  StepwiseSession(const Translator::Impl& impl, SourceText source, int top_k,
                  UnknownWords unknown_words);

  const Step& step() override { return advance(-1); }
  const Step& force(const std::string& token) override;
  void rewind(int n) override;
  const std::vector<Step>& steps() const override { return steps_; }
  bool finished() const override;
  Translation translation() const override;

 private:
  // forced_id < 0: take the argmax.
  const Step& advance(int64_t forced_id);

  const Translator::Impl& impl_;
  SourceText source_;
  int top_k_;
  UnknownWords unknown_words_;
  int max_steps_ = 0;
  // rows_[i] is the decoder state before step i (none for a source with no tokens at all).
  std::vector<std::shared_ptr<const DecoderRows>> rows_;
  std::vector<Step> steps_;
};

}  // namespace attnscope
