#pragma once
// Batch-1 decoding's small per-step operations on plain float arrays (issue 32).
//
// Why: one sentence's decoder step is a few dozen operations on vectors of a few hundred
// floats. As torch operations each costs its dispatch, allocation and bookkeeping (~2–4 µs),
// which added up to a third of a token's time, more than their arithmetic. These loops do the
// same arithmetic (torch's formulas, float32) without that cost; the large products stay in
// the kernels of half_matrix.h and int8_matrix.h.
#include <torch/torch.h>

#include <cstdint>
#include <memory>

#include "ops/half_matrix.h"

namespace attnscope::step_kernels {

/// out = (1 − z) ⊙ n + z ⊙ h, with r = σ(gᵢʳ + gₕʳ), z = σ(gᵢᶻ + gₕᶻ), n = tanh(gᵢⁿ + r ⊙ gₕⁿ):
/// torch's GRU update (gate order r, z, n) from input gates [3H], hidden gates [3H] and h [H].
/// `out` may not alias the gates; it may alias h.
void gru_update(const float* input_gates, const float* hidden_gates, const float* h, float* out,
                int64_t hidden);

/// out[j] += Σᵢ weights[i] · rows[i·width + j] for i < count: a weighted sum of rows (the context
/// vector, the context's gates and logits, all weighted by attention).
void add_weighted_rows(const float* weights, const float* rows, int64_t count, int64_t width,
                       float* out);

/// Σᵢ a[i] · b[i] for i < count.
float dot(const float* a, const float* b, int64_t count);

/// values[i] = tanh(values[i]).
void tanh_in_place(float* values, int64_t count);

/// The indices of the k largest values (k ≤ kMaxLargest, at most count), largest first.
constexpr int64_t kMaxLargest = 16;
int64_t largest(const float* values, int64_t count, int64_t k, int64_t* indices);

/// y = bias + W x for a weight the decoder reads every step: its half-precision copy when
/// prepare_inference() made one (`half`), else the weight itself in float32 (any strides).
void matrix_vector(const std::shared_ptr<HalfMatrix>& half, const torch::Tensor& weight,
                   const float* x, const float* bias, float* y);

}  // namespace attnscope::step_kernels
