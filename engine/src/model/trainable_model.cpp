#include "model/trainable_model.h"

#include "model/seq2seq.h"
#include "model/transformer.h"

namespace attnscope {

int64_t TrainableModel::parameter_count() const {
  int64_t count = 0;
  for (const auto& p : parameters()) count += p.numel();
  return count;
}

std::shared_ptr<TrainableModel> make_model(const ModelConfig& config) {
  if (config.transformer()) return Transformer(config).ptr();
  return Seq2Seq(config).ptr();
}

}  // namespace attnscope
