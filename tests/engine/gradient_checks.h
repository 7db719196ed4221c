#pragma once
// Checks of a model's gradients in training's bfloat16 products against float32's, for every
// architecture (engine-internal headers: engine tests only).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "attnscope/cpu_dispatch.h"
#include "model/trainable_model.h"
#include "train/data_parallel.h"

namespace attnscope::testing {

/// `model`'s loss and gradients for `batch` (label smoothing 0.1, one worker) in bfloat16
/// products lie near float32's: the loss within 1%, every parameter's gradient within 5% of its
/// norm; and some gradient differs, so the bfloat16 products ran.
inline void expect_bfloat16_gradients_near_float32(TrainableModel& model, const Batch& batch) {
  const auto gradients = [&] {
    std::vector<torch::Tensor> g;
    for (const auto& p : model.parameters()) g.push_back(p.grad().clone());
    return g;
  };
  const double exact = compute_gradients(model, batch, 0.1, 2, 0, {}, Precision::kFloat32);
  const auto reference = gradients();
  const double mixed = compute_gradients(model, batch, 0.1, 2, 0, {}, Precision::kBFloat16);
  const auto rounded = gradients();
  EXPECT_NEAR(mixed, exact, 0.01 * exact);
  const auto names = model.named_parameters().keys();
  bool any_differs = false;
  for (size_t p = 0; p < reference.size(); ++p) {
    const double error = (rounded[p] - reference[p]).norm().item<double>() /
                         std::max(1e-12, reference[p].norm().item<double>());
    EXPECT_LT(error, 0.05) << names[p];
    any_differs = any_differs || !torch::equal(rounded[p], reference[p]);
  }
  EXPECT_TRUE(any_differs);
}

}  // namespace attnscope::testing
