// Every score function against a hand computation on small tensors.
#include <attnscope/model_catalog.h>
#include <gtest/gtest.h>

#include <cmath>

#include "model/score/score_registry.h"

namespace attnscope {
namespace {

constexpr int64_t kHalf = 2;  // H: the decoder size; encoder states have 2H = 4 features
const ScoreDimensions kDims{2 * kHalf, kHalf, 3, 5};

using Vector = std::vector<float>;
using Matrix = std::vector<Vector>;

const Matrix kStates = {{1, 2, 3, 4}, {0, 1, 0, -1}, {2, 0, 1, 1}};  // one source, S = 3
const Vector kQuery = {0.5f, -1.0f};

torch::Tensor states_tensor() {
  torch::Tensor t = torch::empty({1, 3, 4});
  for (int s = 0; s < 3; ++s)
    for (int d = 0; d < 4; ++d) t[0][s][d] = kStates[s][d];
  return t;
}

Matrix parameter(ScoreFunction& score, const std::string& name) {
  torch::Tensor p = score.named_parameters()[name];
  if (p.dim() == 1) p = p.unsqueeze(0);
  Matrix m(p.size(0), Vector(p.size(1)));
  for (int64_t i = 0; i < p.size(0); ++i)
    for (int64_t j = 0; j < p.size(1); ++j) m[i][j] = p[i][j].item<float>();
  return m;
}

Vector mat_vec(const Matrix& m, const Vector& v) {
  Vector out(m.size(), 0.0f);
  for (size_t i = 0; i < m.size(); ++i)
    for (size_t j = 0; j < v.size(); ++j) out[i] += m[i][j] * v[j];
  return out;
}

float dot(const Vector& a, const Vector& b) {
  float sum = 0;
  for (size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
  return sum;
}

Vector summed(const Vector& state) { return {state[0] + state[2], state[1] + state[3]}; }

Vector computed(const std::string& name, std::shared_ptr<ScoreFunction>* out = nullptr) {
  torch::manual_seed(3);
  auto score = make_score_function(name, kDims);
  if (out) *out = score;
  torch::NoGradGuard no_grad;
  torch::Tensor query = torch::tensor(kQuery).unsqueeze(0);
  const torch::Tensor scores = score->scores(score->keys(states_tensor()), query);
  EXPECT_EQ(scores.sizes(), (std::vector<int64_t>{1, 3}));
  return Vector(scores.data_ptr<float>(), scores.data_ptr<float>() + 3);
}

void expect_near(const Vector& actual, const Vector& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) EXPECT_NEAR(actual[i], expected[i], 1e-5) << i;
}

TEST(ScoreFunction, DotSumsTheDirections) { expect_near(computed("dot"), {-4.0f, 0.0f, 0.5f}); }

TEST(ScoreFunction, ScaledDotDividesBySqrtH) {
  const float r = 1.0f / std::sqrt(2.0f);
  expect_near(computed("scaled_dot"), {-4.0f * r, 0.0f, 0.5f * r});
}

TEST(ScoreFunction, GeneralIsQueryTimesWTimesState) {
  std::shared_ptr<ScoreFunction> score;
  const Vector actual = computed("general", &score);
  const Matrix w = parameter(*score, "weight.weight");  // H x 2H
  Vector expected;
  for (const auto& h : kStates) expected.push_back(dot(kQuery, mat_vec(w, h)));
  expect_near(actual, expected);
}

TEST(ScoreFunction, AdditiveIsVTanhW1hPlusW2s) {
  std::shared_ptr<ScoreFunction> score;
  const Vector actual = computed("additive", &score);
  const Matrix w1 = parameter(*score, "key_weight.weight");
  const Matrix w2 = parameter(*score, "query_weight.weight");
  const Vector v = parameter(*score, "vector.weight")[0];
  Vector expected;
  for (const auto& h : kStates) {
    const Vector a = mat_vec(w1, h), b = mat_vec(w2, kQuery);
    Vector hidden(a.size());
    for (size_t i = 0; i < a.size(); ++i) hidden[i] = std::tanh(a[i] + b[i]);
    expected.push_back(dot(v, hidden));
  }
  expect_near(actual, expected);
}

TEST(ScoreFunction, CosineIsSharpnessTimesCosine) {
  const float q_norm = std::sqrt(dot(kQuery, kQuery));
  Vector expected;
  for (const auto& h : kStates) {
    const Vector k = summed(h);
    const float k_norm = std::sqrt(dot(k, k));
    expected.push_back(k_norm == 0 ? 0.0f : 5.0f * dot(kQuery, k) / (q_norm * k_norm));
  }
  expect_near(computed("cosine"), expected);
}

TEST(ScoreFunction, LocationIgnoresContentAndCutsToTheSourceLength) {
  std::shared_ptr<ScoreFunction> score;
  const Vector actual = computed("location", &score);
  const Matrix w = parameter(*score, "positions.weight");  // max_positions x H
  const Vector b = parameter(*score, "positions.bias")[0];
  Vector expected = mat_vec(w, kQuery);
  expected.resize(3);
  for (size_t i = 0; i < 3; ++i) expected[i] += b[i];
  expect_near(actual, expected);
  // Different content, same scores.
  torch::NoGradGuard no_grad;
  const torch::Tensor other =
      score->scores(score->keys(torch::randn({1, 3, 4})), torch::tensor(kQuery).unsqueeze(0));
  expect_near(Vector(other.data_ptr<float>(), other.data_ptr<float>() + 3), actual);
}

TEST(ScoreFunction, RegistryBuildsEveryListedNameAndRejectsOthers) {
  for (const auto& name : score_function_names())
    EXPECT_NE(make_score_function(name, kDims), nullptr) << name;
  EXPECT_THROW(make_score_function("bilinear", kDims), std::invalid_argument);
}

}  // namespace
}  // namespace attnscope
