#include "data_parallel.h"

#include <algorithm>
#include <exception>
#include <thread>
#include <unordered_set>
#include <vector>

#include "attnscope/vocabulary.h"
#include "dropout.h"
#include "training_loss.h"

namespace attnscope {
namespace {

using Gradients = std::vector<torch::Tensor>;

// One share's gradients of (its summed loss / all the batch's target tokens), so that the
// shares' gradients add up to the gradient of the batch's mean loss.
Gradients share_gradients(Seq2Seq& model, const Batch& share, double label_smoothing,
                          double batch_tokens, double* loss_sum) {
  const torch::Tensor sum = teacher_forced_loss(model, share, label_smoothing, /*sum=*/true);
  *loss_sum = sum.item<double>();
  return torch::autograd::grad({sum / batch_tokens}, model->parameters(), /*grad_outputs=*/{},
                               /*retain_graph=*/false, /*create_graph=*/false,
                               /*allow_unused=*/true);
}

}  // namespace

Batch slice_batch(const Batch& batch, int64_t begin, int64_t end) {
  const int64_t rows = end - begin;
  const torch::Tensor lengths = batch.lengths.narrow(0, begin, rows);
  const torch::Tensor target_rows = batch.target.narrow(0, begin, rows);
  const torch::Tensor real = target_rows != Vocabulary::kPad;
  const int64_t target_length = real.sum(1).max().item<int64_t>();
  Batch share;
  share.source = batch.source.narrow(0, begin, rows).narrow(1, 0, lengths.max().item<int64_t>());
  share.lengths = lengths;
  share.target = target_rows.narrow(1, 0, target_length);
  share.target_tokens = real.narrow(1, 1, target_length - 1).sum().item<int64_t>();
  return share;
}

double compute_gradients(Seq2Seq& model, const Batch& batch, double label_smoothing, int workers,
                         uint64_t seed) {
  const int64_t rows = batch.source.size(0);
  const int64_t shares = std::clamp<int64_t>(workers, 1, rows);
  const auto batch_tokens = static_cast<double>(batch.target_tokens);
  std::vector<Gradients> gradients(static_cast<size_t>(shares));
  std::vector<double> loss_sums(static_cast<size_t>(shares), 0.0);
  if (shares == 1) {
    gradients[0] = share_gradients(model, batch, label_smoothing, batch_tokens, &loss_sums[0]);
  } else {
    std::vector<std::exception_ptr> errors(static_cast<size_t>(shares));
    std::vector<std::thread> threads;
    for (int64_t w = 0; w < shares; ++w) {
      threads.emplace_back([&, w] {
        const auto i = static_cast<size_t>(w);
        try {
          torch::set_num_threads(1);  // this thread's own OpenMP setting: one core per worker
          ThreadGenerator generator(seed + static_cast<uint64_t>(w));
          const Batch share = slice_batch(batch, rows * w / shares, rows * (w + 1) / shares);
          gradients[i] = share_gradients(model, share, label_smoothing, batch_tokens, &loss_sums[i]);
        } catch (...) {
          errors[i] = std::current_exception();
        }
      });
    }
    for (auto& thread : threads) thread.join();
    for (const auto& error : errors)
      if (error) std::rethrow_exception(error);
  }
  torch::NoGradGuard no_grad;
  auto parameters = model->parameters();
  // autograd::grad may hand two parameters one tensor (a gradient passed through unchanged) or
  // an expanded view; clipping scales gradients in place, so every parameter gets a contiguous
  // tensor of its own, as backward() would give it.
  std::unordered_set<const void*> taken;
  for (size_t p = 0; p < parameters.size(); ++p) {
    torch::Tensor total;
    for (const Gradients& share : gradients) {
      const torch::Tensor& g = share[p];
      if (g.defined()) total = total.defined() ? total + g : g;
    }
    if (total.defined() && !total.is_contiguous())
      total = total.contiguous();
    else if (total.defined() && !taken.insert(total.data_ptr()).second)
      total = total.clone();
    parameters[p].mutable_grad() = total;
  }
  double loss_sum = 0.0;
  for (double s : loss_sums) loss_sum += s;
  return loss_sum / batch_tokens;
}

}  // namespace attnscope
