#include "model/transformer.h"

#include <cmath>

#include "attnscope/vocabulary.h"
#include "ops/dropout.h"
#include "ops/linear_cross_entropy.h"
#include "ops/mixed_precision.h"

namespace attnscope {
namespace {

torch::nn::Embedding embedding_table(int64_t vocabulary, int64_t size) {
  torch::nn::Embedding table(
      torch::nn::EmbeddingOptions(vocabulary, size).padding_idx(Vocabulary::kPad));
  // N(0, 1/D): scaled by √D, an embedding then has the unit scale of the positions beside it,
  // and as the output matrix it starts with logits of unit scale.
  torch::NoGradGuard no_grad;
  table->weight.normal_(0.0, 1.0 / std::sqrt(static_cast<double>(size)));
  table->weight[Vocabulary::kPad].zero_();
  return table;
}

}  // namespace

torch::Tensor sinusoidal_positions(int64_t first, int64_t count, int64_t size) {
  // In double, so that a position's encoding is the same bits whichever call makes it (the
  // cached steps and the full pass must agree).
  const torch::Tensor positions =
      torch::arange(first, first + count, torch::kDouble).unsqueeze(1);  // [T,1]
  const torch::Tensor pairs = torch::arange(0, size, 2, torch::kDouble);
  const torch::Tensor angles =
      positions * torch::exp(pairs * (-std::log(10000.0) / static_cast<double>(size)));
  torch::Tensor table = torch::empty({count, size}, torch::kDouble);
  table.slice(1, 0, size, 2).copy_(torch::sin(angles));
  table.slice(1, 1, size, 2).copy_(torch::cos(angles).narrow(1, 0, size / 2));
  return table.to(torch::kFloat);
}

TransformerMemory TransformerMemory::select(const torch::Tensor& index) const {
  TransformerMemory selected;
  for (const auto& layer : layers) selected.layers.push_back(layer.select(index));
  selected.mask = mask.index_select(0, index);
  return selected;
}

TransformerImpl::TransformerImpl(const ModelConfig& config) : config_(config) {
  TORCH_CHECK(config.transformer(), "a Transformer needs arch '", kTransformerArch, "', not '",
              config.arch, "'");
  TORCH_CHECK(config.layers > 0 && config.feed_forward > 0, "a Transformer needs layers (",
              config.layers, ") and a feed-forward size (", config.feed_forward, ") above 0");
  TORCH_CHECK(!config.shared_embeddings || config.source_vocab == config.target_vocab,
              "shared embeddings need vocabularies of one size, not ", config.source_vocab, " and ",
              config.target_vocab);
  const int64_t size = config.embedding;
  if (!config.shared_embeddings)
    source_embedding_ =
        register_module("source_embedding", embedding_table(config.source_vocab, size));
  target_embedding_ = register_module(config.shared_embeddings ? "embedding" : "target_embedding",
                                      embedding_table(config.target_vocab, size));
  output_bias_ = register_parameter("output_bias", torch::zeros({config.target_vocab}));
  encoder_ = register_module("encoder", torch::nn::ModuleList());
  decoder_ = register_module("decoder", torch::nn::ModuleList());
  for (int64_t i = 0; i < config.layers; ++i) {
    encoder_layers_.emplace_back(config);
    encoder_->push_back(encoder_layers_.back());
    decoder_layers_.emplace_back(config);
    decoder_->push_back(decoder_layers_.back());
  }
  encoder_norm_ =
      register_module("encoder_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({size})));
  decoder_norm_ =
      register_module("decoder_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({size})));
}

torch::Tensor TransformerImpl::embed(torch::nn::Embedding& table, const torch::Tensor& ids,
                                     int64_t first) {
  const int64_t size = config_.embedding;
  const torch::Tensor embedded = table(ids) * std::sqrt(static_cast<double>(size)) +
                                 sinusoidal_positions(first, ids.size(1), size);
  return apply_dropout(embedded, config_.dropout, is_training());
}

TransformerEncoding TransformerImpl::encode(const torch::Tensor& source,
                                            const torch::Tensor& lengths, bool keep_attention) {
  TORCH_CHECK(source.dim() == 2 && lengths.dim() == 1 && lengths.size(0) == source.size(0),
              "encode needs source ids [B,S] and lengths [B], not ", source.sizes(), " and ",
              lengths.sizes());
  TransformerEncoding encoding;
  const int64_t batch = source.size(0), length = source.size(1);
  encoding.mask = torch::arange(length, torch::kLong).unsqueeze(0) < lengths.unsqueeze(1);
  const torch::Tensor key_mask = encoding.mask.view({batch, 1, 1, length});
  torch::Tensor x = embed(source_embedding(), source, 0);
  for (auto& layer : encoder_layers_) {
    EncoderLayerOutput out = layer(x, key_mask);
    x = std::move(out.states);
    if (keep_attention) encoding.self_attention.push_back(std::move(out.self_attention));
  }
  encoding.states = encoder_norm_(x);
  return encoding;
}

TransformerMemory TransformerImpl::decoder_memory(const TransformerEncoding& encoding) {
  TransformerMemory memory;
  for (auto& layer : decoder_layers_) memory.layers.push_back(layer->memory(encoding.states));
  memory.mask = encoding.mask;
  return memory;
}

TransformerDecoding TransformerImpl::decode(const torch::Tensor& inputs,
                                            const TransformerMemory& memory,
                                            const std::vector<KeysValues>& past) {
  const int64_t memory_rows = memory.mask.size(0);
  TORCH_CHECK(inputs.dim() == 2 && (inputs.size(0) == memory_rows || memory_rows == 1),
              "decode needs inputs [B,T] for the memory's ", memory_rows, " rows, not ",
              inputs.sizes());
  TORCH_CHECK(past.empty() || past.size() == decoder_layers_.size(), "decode needs the past of ",
              decoder_layers_.size(), " layers, not ", past.size());
  const int64_t steps = inputs.size(1);
  const int64_t before = past.empty() ? 0 : past.front().keys.size(2);
  // Position before + i reads positions 0 … before + i. One new position reads them all.
  torch::Tensor causal;
  if (steps > 1)
    causal = torch::arange(before + steps, torch::kLong).unsqueeze(0) <=
             torch::arange(before, before + steps, torch::kLong).unsqueeze(1);
  const torch::Tensor source_mask = memory.mask.view({memory_rows, 1, 1, -1});
  TransformerDecoding decoding;
  torch::Tensor x = embed(target_embedding_, inputs, before);
  for (size_t l = 0; l < decoder_layers_.size(); ++l) {
    DecoderLayerOutput out = decoder_layers_[l](x, past.empty() ? KeysValues{} : past[l],
                                                memory.layers[l], causal, source_mask);
    x = std::move(out.states);
    decoding.past.push_back(std::move(out.past));
    decoding.self_attention.push_back(std::move(out.self_attention));
    decoding.cross_attention.push_back(std::move(out.cross_attention));
  }
  decoding.states = decoder_norm_(x);
  return decoding;
}

torch::Tensor TransformerImpl::logits(const torch::Tensor& states) {
  return mixed_linear(states, target_embedding_->weight, output_bias_);
}

torch::Tensor TransformerImpl::forward(const torch::Tensor& source, const torch::Tensor& lengths,
                                       const torch::Tensor& target_inputs,
                                       TransformerAttention* attention) {
  TransformerEncoding encoding = encode(source, lengths, attention != nullptr);
  TransformerDecoding decoding = decode(target_inputs, decoder_memory(encoding));
  if (attention != nullptr) {
    attention->encoder = std::move(encoding.self_attention);
    attention->decoder = std::move(decoding.self_attention);
    attention->cross = std::move(decoding.cross_attention);
  }
  return torch::log_softmax(logits(decoding.states), -1);
}

torch::Tensor TransformerImpl::loss(const torch::Tensor& source, const torch::Tensor& lengths,
                                    const torch::Tensor& target_inputs,
                                    const torch::Tensor& expected, double label_smoothing) {
  const TransformerDecoding decoding =
      decode(target_inputs, decoder_memory(encode(source, lengths)));
  // The output layer only at real positions: it is most of the arithmetic.
  const torch::Tensor keep = expected != Vocabulary::kPad;
  return linear_cross_entropy_sum({decoding.states.index({keep}), {}, {}},
                                  target_embedding_->weight, output_bias_,
                                  expected.masked_select(keep), label_smoothing);
}

}  // namespace attnscope
