#include "model/score/score_registry.h"

#include <algorithm>

#include "attnscope/errors.h"
#include "attnscope/score_functions.h"
#include "model/score/additive_score.h"
#include "model/score/cosine_score.h"
#include "model/score/dot_score.h"
#include "model/score/general_score.h"
#include "model/score/location_score.h"
#include "model/score/no_attention.h"
#include "model/score/scaled_dot_score.h"

namespace attnscope {
namespace {

template <typename Score>
ScoreRegistration registration(const char* name) {
  return {name, [](const ScoreDimensions& dims) { return std::make_shared<Score>(dims); },
          &Score::multiply_adds};
}

}  // namespace

const std::vector<ScoreRegistration>& score_registrations() {
  // A new score function: its class (keys, scores, multiply_adds) in a file of its own, and one
  // line here. The order is the order the UI lists them in; the baseline without attention last.
  static const std::vector<ScoreRegistration> registrations = {
      registration<DotScore>("dot"),           registration<GeneralScore>("general"),
      registration<AdditiveScore>("additive"), registration<ScaledDotScore>("scaled_dot"),
      registration<CosineScore>("cosine"),     registration<LocationScore>("location"),
      registration<NoAttention>(kNoAttention),
  };
  return registrations;
}

const ScoreRegistration& score_registration(const std::string& name) {
  const auto& all = score_registrations();
  const auto it = std::find_if(all.begin(), all.end(),
                               [&](const ScoreRegistration& r) { return r.name == name; });
  if (it == all.end())
    ATTNSCOPE_THROW_INVALID_ARGUMENT("unknown score function '", name, "' (", score_function_list(),
                                     ")");
  return *it;
}

std::shared_ptr<ScoreFunction> make_score_function(const std::string& name,
                                                   const ScoreDimensions& dims) {
  return score_registration(name).make(dims);
}

const std::vector<std::string>& score_function_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> list;
    for (const auto& r : score_registrations()) list.push_back(r.name);
    return list;
  }();
  return names;
}

bool has_attention(const std::string& score) { return score != kNoAttention; }

bool is_score_function(const std::string& name) {
  const auto& names = score_function_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string score_function_list() {
  std::string list;
  for (const auto& name : score_function_names()) list += (list.empty() ? "" : ", ") + name;
  return list;
}

}  // namespace attnscope
