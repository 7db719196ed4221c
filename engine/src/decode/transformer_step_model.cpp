#include "decode/transformer_step_model.h"

#include <algorithm>

#include "attnscope/vocabulary.h"

namespace attnscope {
namespace {

struct TransformerRows : DecoderRows {
  // One row per decoder row, or one row for all of them (one source: beam search, a session),
  // which the attention then broadcasts instead of copying it for every row.
  TransformerMemory memory;
  std::vector<KeysValues> past;  // per layer [B,H,t,d]; empty before the first step
};

}  // namespace

std::shared_ptr<const DecoderRows> TransformerStepModel::encode(
    const std::vector<std::vector<int64_t>>& sources) {
  const PaddedSources padded = pad_sources(sources);
  auto rows = std::make_shared<TransformerRows>();
  rows->memory = model_->decoder_memory(model_->encode(padded.ids, padded.lengths));
  return rows;
}

StepOutput TransformerStepModel::step(const DecoderRows& rows, const torch::Tensor& previous) {
  const auto& current = static_cast<const TransformerRows&>(rows);
  TransformerDecoding decoding =
      model_->decode(previous.view({-1, 1}), current.memory, current.past);
  StepOutput out;
  out.log_probs = torch::log_softmax(model_->logits(decoding.states.select(1, 0)), 1);
  // [B,H,1,S] per layer: the step's one query.
  std::vector<torch::Tensor> cross;
  for (const auto& layer : decoding.cross_attention) cross.push_back(layer.select(2, 0));
  out.attention = cross.back().mean(1);
  if (cross.size() * static_cast<size_t>(model_->heads()) > 1) out.heads = torch::cat(cross, 1);
  auto next = std::make_shared<TransformerRows>();
  next->memory = current.memory;
  next->past = std::move(decoding.past);
  out.next = std::move(next);
  return out;
}

std::shared_ptr<const DecoderRows> TransformerStepModel::select(const DecoderRows& rows,
                                                                const std::vector<int64_t>& which) {
  const auto& current = static_cast<const TransformerRows&>(rows);
  const torch::Tensor index = torch::tensor(which, torch::kLong);
  auto selected = std::make_shared<TransformerRows>();
  selected->memory =
      current.memory.mask.size(0) == 1 ? current.memory : current.memory.select(index);
  for (const auto& layer : current.past) selected->past.push_back(layer.select(index));
  return selected;
}

SelfAttentionWeights TransformerStepModel::self_attention(
    const std::vector<int64_t>& source, const std::vector<int64_t>& target_inputs) {
  TORCH_CHECK(!source.empty() && !target_inputs.empty(),
              "self-attention needs a source and at least one target input");
  const torch::Tensor ids = torch::tensor(source, torch::kLong).unsqueeze(0);
  const torch::Tensor lengths = torch::full({1}, static_cast<int64_t>(source.size()), torch::kLong);
  const TransformerEncoding encoding = model_->encode(ids, lengths, /*keep_attention=*/true);
  const TransformerDecoding decoding = model_->decode(
      torch::tensor(target_inputs, torch::kLong).unsqueeze(0), model_->decoder_memory(encoding));
  // Per layer [1,H,·,·] -> [L,H,·,·]
  return {torch::cat(encoding.self_attention, 0), torch::cat(decoding.self_attention, 0)};
}

int64_t TransformerStepModel::bos() const { return Vocabulary::kBos; }
int64_t TransformerStepModel::eos() const { return Vocabulary::kEos; }

}  // namespace attnscope
