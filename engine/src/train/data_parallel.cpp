#include "train/data_parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <limits>
#include <numeric>
#include <optional>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "attnscope/thread_settings.h"
#include "attnscope/vocabulary.h"
#include "ops/deferred_weight_gradient.h"
#include "ops/dropout.h"
#include "ops/mixed_precision.h"
#include "ops/output_gradient_sum.h"
#include "train/training_loss.h"

namespace attnscope {
namespace {

using Gradients = std::vector<torch::Tensor>;

// One share's gradients of (its summed loss / all the batch's target tokens), so that the
// shares' gradients add up to the gradient of the batch's mean loss.
Gradients share_gradients(TrainableModel& model, const Batch& share, double label_smoothing,
                          double batch_tokens, Precision precision, double* loss_sum) {
  const MatmulPrecisionScope products(precision);  // backward runs on this thread too
  DeferWeightGradients deferred;
  const torch::Tensor sum = teacher_forced_loss(model, share, label_smoothing, /*sum=*/true);
  *loss_sum = sum.item<double>();
  const std::vector<torch::Tensor> parameters = model.parameters();
  Gradients gradients = torch::autograd::grad({sum / batch_tokens}, parameters,
                                              /*grad_outputs=*/{}, /*retain_graph=*/false,
                                              /*create_graph=*/false, /*allow_unused=*/true);
  deferred.add_deferred_gradients(parameters, gradients);
  return gradients;
}

// The given rows of a batch, in that order, trimmed to their own longest source and target.
Batch select_rows(const Batch& batch, const std::vector<int64_t>& rows) {
  const torch::Tensor index = torch::tensor(rows, torch::kLong);
  const torch::Tensor lengths = batch.lengths.index_select(0, index);
  const torch::Tensor target_rows = batch.target.index_select(0, index);
  const torch::Tensor real = target_rows != Vocabulary::kPad;
  const int64_t target_length = real.sum(1).max().item<int64_t>();
  Batch share;
  share.source = batch.source.index_select(0, index).narrow(1, 0, lengths.max().item<int64_t>());
  share.lengths = lengths;
  share.target = target_rows.narrow(1, 0, target_length);
  share.target_tokens = real.narrow(1, 1, target_length - 1).sum().item<int64_t>();
  return share;
}

}  // namespace

std::vector<Batch> split_batch(const Batch& batch, int64_t shares) {
  const int64_t n = batch.source.size(0);
  shares = std::clamp<int64_t>(shares, 1, n);
  const torch::Tensor target_lengths = (batch.target != Vocabulary::kPad).sum(1).contiguous();
  const torch::Tensor source_lengths = batch.lengths.to(torch::kLong).contiguous();
  const auto* target = target_lengths.data_ptr<int64_t>();
  const auto* source = source_lengths.data_ptr<int64_t>();
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return target[a] < target[b]; });
  // A share's time, in units of one target token through the output layer: its tokens, plus
  // its decoder and encoder steps, which run every row to the share's longest sentence. A
  // least-squares fit over 200 shares at the reference's shape (two workers) gave ~0.13 per
  // row and decoder step; encoder steps, nearly as many, were lost in the noise.
  std::vector<int64_t> tokens(static_cast<size_t>(n) + 1, 0);
  for (int64_t i = 0; i < n; ++i) tokens[i + 1] = tokens[i] + target[order[i]];
  auto cost = [&](int64_t begin, int64_t end) {  // rows order[begin, end)
    int64_t longest_source = 0;
    for (int64_t i = begin; i < end; ++i)
      longest_source = std::max(longest_source, source[order[i]]);
    const double rows = static_cast<double>(end - begin);
    return static_cast<double>(tokens[end] - tokens[begin]) +
           0.13 * rows * static_cast<double>(target[order[end - 1]]) +
           0.05 * rows * static_cast<double>(longest_source);
  };
  // Sorted by target length, the shares are contiguous runs; the cut that minimises the
  // slowest share's cost is found exactly (n is a batch size, shares a core count).
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<std::vector<double>> best(static_cast<size_t>(shares) + 1,
                                        std::vector<double>(static_cast<size_t>(n) + 1, inf));
  std::vector<std::vector<int64_t>> cut(best.size(), std::vector<int64_t>(best[0].size(), 0));
  best[0][0] = 0.0;
  for (int64_t w = 1; w <= shares; ++w)
    for (int64_t end = w; end <= n - (shares - w); ++end)
      for (int64_t begin = w - 1; begin < end; ++begin) {
        const double slowest = std::max(best[w - 1][begin], cost(begin, end));
        if (slowest < best[w][end]) {
          best[w][end] = slowest;
          cut[w][end] = begin;
        }
      }
  std::vector<Batch> result(static_cast<size_t>(shares));
  for (int64_t w = shares, end = n; w >= 1; end = cut[w][end], --w) {
    const std::vector<int64_t> rows(order.begin() + cut[w][end], order.begin() + end);
    result[static_cast<size_t>(w - 1)] = select_rows(batch, rows);
  }
  return result;
}

namespace {

// Waits until `count` threads have arrived. It spins (yielding) rather than sleeping: a thread
// woken from sleep was often queued on its waker's core and started only at the next scheduler
// tick, 4 ms later, while the other core sat idle (seen as 4.0 and 8.0 ms gaps per batch).
class SpinBarrier {
 public:
  explicit SpinBarrier(int64_t count) : count_(count) {}
  void arrive_and_wait() {
    arrived_.fetch_add(1);
    while (arrived_.load() < count_) std::this_thread::yield();
  }

 private:
  const int64_t count_;
  std::atomic<int64_t> arrived_{0};
};

// The parameters' gradients: the shares' gradients summed in share order, so the result does
// not depend on thread timing. autograd::grad may hand two parameters one tensor (a gradient
// passed through unchanged), views of one buffer, or an expanded view; the sum goes in place
// into the first share's gradient only when it is contiguous and its memory is used nowhere
// else, otherwise into a copy. Clipping and the optimizer then see contiguous, unaliased
// gradients, as backward() would leave them.
class GradientSum {
 public:
  explicit GradientSum(const std::vector<Gradients>& shares) : shares_(shares) {
    std::unordered_map<const void*, int> uses;
    for (const Gradients& share : shares)
      for (const torch::Tensor& g : share)
        if (g.defined()) ++uses[g.storage().data()];
    const size_t count = shares.front().size();
    totals_.resize(count);
    first_.assign(count, shares.size());
    for (size_t p = 0; p < count; ++p)
      for (size_t s = 0; s < shares.size() && first_[p] == shares.size(); ++s)
        if (const torch::Tensor& g = shares[s][p]; g.defined()) {
          first_[p] = s;
          totals_[p] = g.is_contiguous() && uses[g.storage().data()] == 1
                           ? g
                           : g.clone(torch::MemoryFormat::Contiguous);
        }
  }

  // Adds the other shares into part `part` of `parts` of every total (each thread its own part).
  void add_part(int64_t part, int64_t parts) {
    torch::NoGradGuard no_grad;
    for (size_t p = 0; p < totals_.size(); ++p) {
      if (!totals_[p].defined()) continue;
      const int64_t n = totals_[p].numel(), begin = n * part / parts, end = n * (part + 1) / parts;
      torch::Tensor slice = totals_[p].view(-1).narrow(0, begin, end - begin);
      for (size_t s = first_[p] + 1; s < shares_.size(); ++s)
        if (const torch::Tensor& g = shares_[s][p]; g.defined())
          slice.add_(g.reshape(-1).narrow(0, begin, end - begin));
    }
  }

  const Gradients& totals() const { return totals_; }

 private:
  const std::vector<Gradients>& shares_;
  Gradients totals_;
  std::vector<size_t> first_;  // the first share with a gradient for each parameter
};

}  // namespace

double compute_gradients(TrainableModel& model, const Batch& batch, double label_smoothing,
                         int workers, uint64_t seed, BatchPart part, Precision precision) {
  std::vector<Batch> parts;
  uint64_t first_share = 0;  // the global index of this process's first share: its seed offset
  if (part.total_shares == 0) {
    parts = workers > 1 ? split_batch(batch, workers) : std::vector<Batch>{batch};
  } else {
    std::vector<Batch> all = split_batch(batch, part.total_shares);
    const size_t begin = std::min(all.size(), static_cast<size_t>(part.first_share));
    const size_t end = std::min(all.size(), begin + static_cast<size_t>(workers));
    parts.assign(std::make_move_iterator(all.begin() + begin),
                 std::make_move_iterator(all.begin() + end));
    first_share = begin;
  }
  const auto shares = static_cast<int64_t>(parts.size());
  const auto batch_tokens = static_cast<double>(batch.target_tokens);
  auto parameters = model.parameters();
  if (shares == 0) {
    for (auto& parameter : parameters) parameter.mutable_grad() = torch::Tensor();
    return 0.0;
  }
  std::vector<Gradients> gradients(static_cast<size_t>(shares));
  std::vector<double> loss_sums(static_cast<size_t>(shares), 0.0);
  std::unique_ptr<GradientSum> sum;
  // In bfloat16 with several workers the output weight's gradient comes from its products
  // apart from autograd (output_gradient_sum.h).
  OutputGradientSum output_sum(shares);
  if (shares == 1) {
    // One process alone keeps torch's global generator; a rank of several draws as the thread
    // of one process with every rank's threads would.
    std::optional<ThreadGenerator> generator;
    if (part.total_shares > 0) generator.emplace(seed + first_share);
    gradients[0] =
        share_gradients(model, parts[0], label_smoothing, batch_tokens, precision, &loss_sums[0]);
    sum = std::make_unique<GradientSum>(gradients);
  } else {
    // Every worker computes its share's gradients, then (once all are done and the first has
    // set up the totals) adds its part of every parameter: the sum runs on the threads that
    // are already running, one per core.
    std::vector<std::exception_ptr> errors(static_cast<size_t>(shares));
    std::atomic<bool> failed{false};
    SpinBarrier computed(shares), totals_ready(shares);
    std::vector<std::thread> threads;
    for (int64_t w = 0; w < shares; ++w) {
      threads.emplace_back([&, w] {
        const auto i = static_cast<size_t>(w);
        try {
          set_thread_count(1);  // this thread's own setting: one core per worker
          ThreadGenerator generator(seed + first_share + static_cast<uint64_t>(w));
          const OutputGradientSum::Scope output_part(output_sum, w);
          gradients[i] = share_gradients(model, parts[i], label_smoothing, batch_tokens, precision,
                                         &loss_sums[i]);
        } catch (...) {
          errors[i] = std::current_exception();
          failed = true;
        }
        // Every worker passes both barriers, failed or not, so none waits forever.
        computed.arrive_and_wait();
        if (w == 0 && !failed) {
          try {
            // The output weight's other gradients (a tied embedding's) go to its own sum.
            std::vector<torch::Tensor> others;
            if (const torch::Tensor weight = output_sum.left_weight(); weight.defined())
              for (size_t p = 0; p < parameters.size(); ++p)
                if (parameters[p].is_same(weight))
                  for (Gradients& share : gradients) others.push_back(std::exchange(share[p], {}));
            output_sum.prepare(std::move(others));
            sum = std::make_unique<GradientSum>(gradients);
          } catch (...) {
            errors[i] = std::current_exception();
            failed = true;
          }
        }
        totals_ready.arrive_and_wait();
        if (failed) return;
        try {
          sum->add_part(w, shares);
          output_sum.add_rows(w, shares);
        } catch (...) {
          errors[i] = std::current_exception();
        }
      });
    }
    for (auto& thread : threads) thread.join();
    for (const auto& error : errors)
      if (error) std::rethrow_exception(error);
  }
  for (size_t p = 0; p < parameters.size(); ++p)
    parameters[p].mutable_grad() =
        parameters[p].is_same(output_sum.weight()) ? output_sum.gradient() : sum->totals()[p];
  double loss_sum = 0.0;
  for (double s : loss_sums) loss_sum += s;
  return loss_sum / batch_tokens;
}

}  // namespace attnscope
