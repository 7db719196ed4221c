#pragma once
// The registry of score functions: the one list the catalog, the trainer, the benchmark and
// every error message take their names from (see score_registry.cpp).
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "model/score/score_function.h"

namespace attnscope {

struct ScoreRegistration {
  std::string name;
  std::function<std::shared_ptr<ScoreFunction>(const ScoreDimensions&)> make;
  std::function<ScoreMultiplyAdds(const ScoreDimensions&)> multiply_adds;
};

/// Every score function, in the order they are listed.
const std::vector<ScoreRegistration>& score_registrations();

/// Throws std::invalid_argument naming the known score functions for an unknown name.
const ScoreRegistration& score_registration(const std::string& name);

/// Builds a score function by name; throws like score_registration().
std::shared_ptr<ScoreFunction> make_score_function(const std::string& name,
                                                   const ScoreDimensions& dims);

}  // namespace attnscope
