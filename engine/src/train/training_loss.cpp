#include "train/training_loss.h"

#include "attnscope/vocabulary.h"

namespace attnscope {

torch::Tensor teacher_forced_loss(TrainableModel& model, const Batch& batch, double label_smoothing,
                                  bool sum) {
  const int64_t steps = batch.target.size(1) - 1;
  const torch::Tensor expected = batch.target.narrow(1, 1, steps);
  const torch::Tensor loss = model.loss(
      batch.source, batch.lengths, batch.target.narrow(1, 0, steps), expected, label_smoothing);
  return sum ? loss : loss / (expected != Vocabulary::kPad).sum();
}

torch::Tensor stepwise_loss(Seq2Seq& model, const Batch& batch, double label_smoothing) {
  const int64_t steps = batch.target.size(1) - 1;
  EncodedBatch encoded = model->encode(batch.source, batch.lengths);
  torch::Tensor state = encoded.initial_state;
  std::vector<torch::Tensor> logits;
  for (int64_t t = 0; t < steps; ++t) {
    DecoderStep step = model->step(encoded.context, state, batch.target.select(1, t));
    logits.push_back(step.logits);
    state = step.state;
  }
  const torch::Tensor all = torch::stack(logits, 1);
  return torch::nn::functional::cross_entropy(all.reshape({-1, all.size(-1)}),
                                              batch.target.narrow(1, 1, steps).reshape(-1),
                                              torch::nn::functional::CrossEntropyFuncOptions()
                                                  .label_smoothing(label_smoothing)
                                                  .ignore_index(Vocabulary::kPad));
}

}  // namespace attnscope
