#include "model/score/cosine_score.h"

namespace attnscope {
namespace {
constexpr double kEpsilon = 1e-6;  // keeps the norm of an all-zero vector from dividing by 0
constexpr double kInitialSharpness = 5.0;  // cos ∈ [-1,1]; γ = 5 lets the softmax peak early on
}  // namespace

CosineScore::CosineScore(const ScoreDimensions&) {
  sharpness_ = register_parameter("sharpness", torch::full({1}, kInitialSharpness));
}

torch::Tensor CosineScore::keys(const torch::Tensor& encoder_states) {
  const torch::Tensor keys = sum_directions(encoder_states);
  return keys / (keys.norm(2, -1, true) + kEpsilon);
}

torch::Tensor CosineScore::keys_tangent(const torch::Tensor& encoder_states,
                                        const torch::Tensor& d_encoder_states) {
  // k = u / (|u| + ε): dk = du / (|u| + ε) − u (u · du) / (|u| (|u| + ε)²).
  const torch::Tensor u = sum_directions(encoder_states);
  const torch::Tensor du = sum_directions(d_encoder_states);
  const torch::Tensor norm = u.norm(2, -1, true);
  const torch::Tensor d_norm = (u * du).sum(-1, true) / norm.clamp_min(1e-30);
  return du / (norm + kEpsilon) - u * d_norm / (norm + kEpsilon).square();
}

torch::Tensor CosineScore::scores(const torch::Tensor& keys, const torch::Tensor& query) {
  const torch::Tensor unit_query = query / (query.norm(2, -1, true) + kEpsilon);
  return batched_dot(keys, unit_query) * sharpness_;
}

ScoreMultiplyAdds CosineScore::multiply_adds(const ScoreDimensions& d) {
  return {0, 0, d.query_size};  // as dot, plus norms that are not multiply-adds of note
}

}  // namespace attnscope
