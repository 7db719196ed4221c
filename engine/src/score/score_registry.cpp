#include <map>

#include "attnscope/errors.h"
#include "score/additive_score.h"
#include "score/cosine_score.h"
#include "score/dot_score.h"
#include "score/general_score.h"
#include "score/location_score.h"
#include "score/scaled_dot_score.h"

namespace attnscope {
namespace {

template <typename Score>
ScoreFactory factory() {
  return [](const ScoreDimensions& dims) { return std::make_shared<Score>(dims); };
}

const std::map<std::string, ScoreFactory>& registry() {
  static const std::map<std::string, ScoreFactory> factories = {
      {"dot", factory<DotScore>()},           {"general", factory<GeneralScore>()},
      {"additive", factory<AdditiveScore>()}, {"scaled_dot", factory<ScaledDotScore>()},
      {"cosine", factory<CosineScore>()},     {"location", factory<LocationScore>()},
  };
  return factories;
}

}  // namespace

std::shared_ptr<ScoreFunction> make_score_function(const std::string& name,
                                                   const ScoreDimensions& dims) {
  const auto it = registry().find(name);
  if (it == registry().end())
    ATTNSCOPE_THROW_INVALID_ARGUMENT("unknown score function '", name,
                                     "' (dot, general, additive, scaled_dot, cosine, location)");
  return it->second(dims);
}

torch::Tensor sum_directions(const torch::Tensor& encoder_states) {
  const int64_t half = encoder_states.size(-1) / 2;
  return encoder_states.narrow(-1, 0, half) + encoder_states.narrow(-1, half, half);
}

torch::Tensor batched_dot(const torch::Tensor& keys, const torch::Tensor& query) {
  return torch::bmm(keys, query.unsqueeze(2)).squeeze(2);
}

}  // namespace attnscope
