#include "attnscope/bleu.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "attnscope/errors.h"

namespace attnscope {
namespace {

using NgramCounts = std::map<std::vector<std::string>, int>;

NgramCounts count_ngrams(const std::vector<std::string>& tokens, size_t n) {
  NgramCounts counts;
  for (size_t i = 0; i + n <= tokens.size(); ++i)
    ++counts[std::vector<std::string>(tokens.begin() + i, tokens.begin() + i + n)];
  return counts;
}

}  // namespace

BleuScore corpus_bleu(const std::vector<std::vector<std::string>>& hypotheses,
                      const std::vector<std::vector<std::string>>& references) {
  if (hypotheses.size() != references.size())
    ATTNSCOPE_THROW_INVALID_ARGUMENT("BLEU needs one reference per hypothesis: ", hypotheses.size(),
                                     " hypotheses, ", references.size(), " references");
  long matches[4] = {0, 0, 0, 0};
  long totals[4] = {0, 0, 0, 0};
  BleuScore score;
  for (size_t s = 0; s < hypotheses.size(); ++s) {
    score.hypothesis_length += static_cast<long>(hypotheses[s].size());
    score.reference_length += static_cast<long>(references[s].size());
    for (size_t n = 1; n <= 4; ++n) {
      const NgramCounts hyp = count_ngrams(hypotheses[s], n);
      const NgramCounts ref = count_ngrams(references[s], n);
      for (const auto& [gram, count] : hyp) {
        const auto it = ref.find(gram);
        if (it != ref.end()) matches[n - 1] += std::min(count, it->second);
        totals[n - 1] += count;
      }
    }
  }
  double log_sum = 0.0;
  bool zero = false;
  for (int n = 0; n < 4; ++n) {
    score.precisions[n] = totals[n] > 0 ? 100.0 * matches[n] / totals[n] : 0.0;
    if (matches[n] == 0)
      zero = true;
    else
      log_sum += std::log(static_cast<double>(matches[n]) / totals[n]);
  }
  if (score.hypothesis_length == 0) {
    score.brevity_penalty = 0.0;
  } else if (score.hypothesis_length >= score.reference_length) {
    score.brevity_penalty = 1.0;
  } else {
    score.brevity_penalty =
        std::exp(1.0 - static_cast<double>(score.reference_length) / score.hypothesis_length);
  }
  score.bleu = zero ? 0.0 : 100.0 * score.brevity_penalty * std::exp(log_sum / 4.0);
  return score;
}

}  // namespace attnscope
