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

// N-gram matches and totals, summed over sentences, and the lengths.
struct NgramStatistics {
  long matches[4] = {0, 0, 0, 0};
  long totals[4] = {0, 0, 0, 0};
  long hypothesis_length = 0;
  long reference_length = 0;

  void add(const std::vector<std::string>& hypothesis, const std::vector<std::string>& reference) {
    hypothesis_length += static_cast<long>(hypothesis.size());
    reference_length += static_cast<long>(reference.size());
    for (size_t n = 1; n <= 4; ++n) {
      const NgramCounts hyp = count_ngrams(hypothesis, n);
      const NgramCounts ref = count_ngrams(reference, n);
      for (const auto& [gram, count] : hyp) {
        const auto it = ref.find(gram);
        if (it != ref.end()) matches[n - 1] += std::min(count, it->second);
        totals[n - 1] += count;
      }
    }
  }
};

// `plus_one`: BLEU+1 of Lin & Och (2004), 1 added to the matches and totals of 2- to 4-grams, so
// one sentence without a matching 4-gram does not score 0.
BleuScore score(const NgramStatistics& s, bool plus_one) {
  BleuScore score;
  score.hypothesis_length = s.hypothesis_length;
  score.reference_length = s.reference_length;
  double log_sum = 0.0;
  bool zero = false;
  for (int n = 0; n < 4; ++n) {
    const long add = plus_one && n > 0 ? 1 : 0;
    const long matches = s.matches[n] + add, totals = s.totals[n] + add;
    score.precisions[n] = totals > 0 ? 100.0 * matches / totals : 0.0;
    if (matches == 0)
      zero = true;
    else
      log_sum += std::log(static_cast<double>(matches) / totals);
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

}  // namespace

BleuScore corpus_bleu(const std::vector<std::vector<std::string>>& hypotheses,
                      const std::vector<std::vector<std::string>>& references) {
  if (hypotheses.size() != references.size())
    ATTNSCOPE_THROW_INVALID_ARGUMENT("BLEU needs one reference per hypothesis: ", hypotheses.size(),
                                     " hypotheses, ", references.size(), " references");
  NgramStatistics statistics;
  for (size_t s = 0; s < hypotheses.size(); ++s) statistics.add(hypotheses[s], references[s]);
  return score(statistics, false);
}

BleuScore sentence_bleu(const std::vector<std::string>& hypothesis,
                        const std::vector<std::string>& reference) {
  NgramStatistics statistics;
  statistics.add(hypothesis, reference);
  return score(statistics, true);
}

}  // namespace attnscope
