#include "attnscope/explanation_benchmark.h"

#include <algorithm>
#include <chrono>
#include <sstream>
#include <stdexcept>

#include "attnscope/corpus.h"
#include "attnscope/model_catalog.h"
#include "attnscope/thread_settings.h"

namespace attnscope {
namespace {

int word_count(const std::string& line) {
  std::istringstream in(line);
  std::string word;
  int count = 0;
  while (in >> word) ++count;
  return count;
}

}  // namespace

std::vector<ExplainTiming> run_explain_benchmark(const ExplainBenchOptions& options) {
  set_thread_count(options.threads);
  const Translator translator(resolve_model(options.model));
  const std::vector<std::string> lines = read_utf8_lines(options.sentences);
  std::vector<ExplainTiming> timings;
  for (int words : options.lengths) {
    const auto found = std::find_if(lines.begin(), lines.end(),
                                    [words](const auto& l) { return word_count(l) == words; });
    if (found == lines.end())
      throw std::runtime_error("'" + options.sentences + "' has no sentence of " +
                               std::to_string(words) + " words");
    for (AttributionMethod method : attribution_methods()) {
      if (!attribution_support(translator, method).empty()) continue;
      AttributionOptions o;
      o.method = method;
      o.ig_steps = options.ig_steps;
      Attribution a = attribute(translator, *found, o);  // warm-up: first-call allocations
      std::vector<double> ms;
      for (int r = 0; r < std::max(1, options.repeats); ++r) {
        const auto start = std::chrono::steady_clock::now();
        a = attribute(translator, *found, o);
        ms.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count());
      }
      std::sort(ms.begin(), ms.end());
      timings.push_back({method, words, static_cast<int>(a.translation.source.tokens.size()),
                         static_cast<int>(a.translation.tokens.size()), ms[ms.size() / 2]});
    }
  }
  return timings;
}

}  // namespace attnscope
