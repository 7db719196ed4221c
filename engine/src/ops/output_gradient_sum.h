#pragma once
// The output layer's weight gradient summed over a batch's workers straight from their
// bfloat16 products.
//
// Why: in bfloat16 each worker's weight gradient (V × F, 8 M elements at the reference's shape)
// comes out of its product in bfloat16; through autograd each worker widened it to a float32
// matrix, and then the workers' matrices were added: three passes over 32 MB matrices per
// batch, ~5% of it. Here the workers leave their products as they are, and the sum widens and
// adds them in one pass, each worker its share of the rows. The result has the same bits: a
// sum in float32 of the same widened values, in worker order.
#include <torch/torch.h>

#include <memory>
#include <vector>

namespace attnscope {

class OutputGradientSum {
 public:
  explicit OutputGradientSum(int64_t workers);

  /// While alive on worker `worker`'s thread, leave_output_gradient() keeps that worker's part.
  class Scope {
   public:
    Scope(OutputGradientSum& sum, int64_t worker);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
  };

  /// After every worker's backward, on one thread: the weight the workers left parts of
  /// (undefined when none did).
  torch::Tensor left_weight() const;

  /// Then, on the same thread: makes the float32 gradient that add_rows() fills. others[w] is
  /// worker w's other gradient of that weight from autograd (a tied embedding's) or undefined:
  /// it is added to the worker's part first, as autograd would have added them, so the sum
  /// is the same as that of the workers' whole gradients.
  void prepare(std::vector<torch::Tensor> others);

  /// Rows part·V/parts … (part + 1)·V/parts − 1 of the sum. Each worker calls it for its own
  /// part, after prepare().
  void add_rows(int64_t part, int64_t parts);

  /// The weight the parts are the gradient of, and the sum (both undefined when no part came).
  const torch::Tensor& weight() const { return weight_; }
  const torch::Tensor& gradient() const { return gradient_; }

  struct Part;  // one worker's: the bfloat16 products of its gradient's column blocks

 private:
  std::vector<std::shared_ptr<Part>> parts_;
  std::vector<torch::Tensor> others_;  // contiguous float32 [V,F] or undefined, per worker
  torch::Tensor weight_, gradient_;
};

/// In bfloat16 inside an OutputGradientSum::Scope: keeps `weight`'s gradient as its column
/// blocks' bfloat16 products (blocks[i] [V, F_i] dense; together all F columns in order) and
/// returns true; elsewhere returns false and the caller returns the gradient itself.
bool leave_output_gradient(const torch::Tensor& weight, std::vector<torch::Tensor> blocks);

}  // namespace attnscope
