#include "ops/step_kernels.h"

#include <algorithm>
#include <cmath>

namespace attnscope::step_kernels {
namespace {

float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

}  // namespace

void gru_update(const float* input_gates, const float* hidden_gates, const float* h, float* out,
                int64_t hidden) {
  for (int64_t j = 0; j < hidden; ++j) {
    const float r = sigmoid(input_gates[j] + hidden_gates[j]);
    const float z = sigmoid(input_gates[hidden + j] + hidden_gates[hidden + j]);
    const float n = std::tanh(input_gates[2 * hidden + j] + r * hidden_gates[2 * hidden + j]);
    // torch's lerp(n, h, z), whose two forms keep either end exact.
    out[j] = z < 0.5f ? n + z * (h[j] - n) : h[j] - (h[j] - n) * (1.0f - z);
  }
}

void add_weighted_rows(const float* weights, const float* rows, int64_t count, int64_t width,
                       float* out) {
  for (int64_t i = 0; i < count; ++i) {
    const float w = weights[i];
    const float* row = rows + i * width;
    for (int64_t j = 0; j < width; ++j) out[j] += w * row[j];
  }
}

float dot(const float* a, const float* b, int64_t count) {
  float total = 0.0f;
  for (int64_t i = 0; i < count; ++i) total += a[i] * b[i];
  return total;
}

void tanh_in_place(float* values, int64_t count) {
  for (int64_t i = 0; i < count; ++i) values[i] = std::tanh(values[i]);
}

int64_t largest(const float* values, int64_t count, int64_t k, int64_t* indices) {
  k = std::min({k, count, kMaxLargest});
  if (k <= 0) return 0;
  float best[kMaxLargest];
  int64_t found = 0;
  for (int64_t i = 0; i < count; ++i) {
    const float v = values[i];
    if (found == k && !(v > best[k - 1])) continue;  // also skips NaN
    int64_t at = found < k ? found++ : k - 1;
    while (at > 0 && best[at - 1] < v) {
      best[at] = best[at - 1];
      indices[at] = indices[at - 1];
      --at;
    }
    best[at] = v;
    indices[at] = i;
  }
  return found;
}

void matrix_vector(const std::shared_ptr<HalfMatrix>& half, const torch::Tensor& weight,
                   const float* x, const float* bias, float* y) {
  if (half) return half->multiply(x, bias, y);
  const int64_t rows = weight.size(0), columns = weight.size(1);
  auto vector = [](const float* data, int64_t n) {
    return torch::from_blob(const_cast<float*>(data), {n}, torch::kFloat);
  };
  torch::Tensor out = vector(y, rows);
  torch::addmv_out(out, vector(bias, rows), weight, vector(x, columns));
}

}  // namespace attnscope::step_kernels
