#include "ops/gru_cell.h"

namespace attnscope {
namespace {

using torch::Tensor;
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

class GruCell : public torch::autograd::Function<GruCell> {
 public:
  static Tensor forward(AutogradContext* ctx, const Tensor& input_gates, const Tensor& hidden_gates,
                        const Tensor& h) {
    const int64_t H = h.size(1);
    const Tensor reset_update =
        (input_gates.narrow(1, 0, 2 * H) + hidden_gates.narrow(1, 0, 2 * H)).sigmoid_();
    const Tensor hidden_candidate = hidden_gates.narrow(1, 2 * H, H);
    const Tensor candidate = torch::addcmul(input_gates.narrow(1, 2 * H, H),
                                            reset_update.narrow(1, 0, H), hidden_candidate)
                                 .tanh_();
    ctx->save_for_backward({reset_update, candidate, hidden_candidate, h});
    return torch::lerp(candidate, h, reset_update.narrow(1, H, H));
  }

  static variable_list backward(AutogradContext* ctx, variable_list grad_outputs) {
    const variable_list saved = ctx->get_saved_variables();
    const Tensor &reset_update = saved[0], &candidate = saved[1], &hidden_candidate = saved[2],
                 &h = saved[3];
    const int64_t H = h.size(1);
    const Tensor& grad = grad_outputs[0];
    const Tensor reset = reset_update.narrow(1, 0, H), update = reset_update.narrow(1, H, H);
    // h' = n + z (h − n): ∂h'/∂n = 1 − z, ∂h'/∂z = h − n, ∂h'/∂h = z.
    const Tensor grad_h = grad * update;
    const Tensor grad_candidate_input = torch::tanh_backward(grad - grad_h, candidate);
    const Tensor grad_update = grad * (h - candidate);
    const Tensor grad_reset = grad_candidate_input * hidden_candidate;
    const Tensor grad_reset_update_input =
        torch::sigmoid_backward(torch::cat({grad_reset, grad_update}, 1), reset_update);
    const Tensor grad_input_gates = torch::cat({grad_reset_update_input, grad_candidate_input}, 1);
    const Tensor grad_hidden_gates =
        torch::cat({grad_reset_update_input, grad_candidate_input * reset}, 1);
    return {grad_input_gates, grad_hidden_gates, grad_h};
  }
};

}  // namespace

torch::Tensor gru_cell(const torch::Tensor& input_gates, const torch::Tensor& hidden_gates,
                       const torch::Tensor& h) {
  return GruCell::apply(input_gates, hidden_gates, h);
}

}  // namespace attnscope
