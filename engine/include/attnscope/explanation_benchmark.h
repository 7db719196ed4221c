#pragma once
// How long attributions take (layer bench): the figures behind `attnscope-cli bench --explain`.
#include <string>
#include <vector>

#include "attnscope/explanation.h"

namespace attnscope {

struct ExplainBenchOptions {
  std::string model;                     // a shipped model's name or a model file
  std::string sentences;                 // a file of English sentences (.gz or plain), one per line
  std::vector<int> lengths{10, 20, 25};  // words per timed sentence (the first found of each)
  int repeats = 3;                       // timed runs per method and sentence, after one warm-up
  int ig_steps = 32;
  int threads = 0;  // 0 = every core
};

struct ExplainTiming {
  AttributionMethod method = AttributionMethod::kIntegratedGradients;
  int words = 0;          // words in the sentence (space-separated, as the file has them)
  int source_tokens = 0;  // what the model read, "</s>" included
  int output_tokens = 0;
  double median_ms = 0.0;  // of the timed runs
};

/// Times every attribution method on the first sentence of each length in the file. Throws
/// std::runtime_error when the file cannot be read or has no sentence of a length.
std::vector<ExplainTiming> run_explain_benchmark(const ExplainBenchOptions& options);

}  // namespace attnscope
