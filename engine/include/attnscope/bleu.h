#pragma once
#include <string>
#include <vector>

namespace attnscope {

struct BleuScore {
  double bleu = 0.0;                    // 0..100
  double precisions[4] = {0, 0, 0, 0};  // modified n-gram precisions, 0..100
  double brevity_penalty = 0.0;
  long hypothesis_length = 0;
  long reference_length = 0;
};

/// Corpus BLEU-4 (Papineni et al. 2002) over already tokenised sentences, one reference each,
/// uniform weights, brevity penalty on the corpus lengths, no smoothing.
BleuScore corpus_bleu(const std::vector<std::vector<std::string>>& hypotheses,
                      const std::vector<std::vector<std::string>>& references);

/// BLEU of one sentence, smoothed as BLEU+1 (Lin & Och 2004: 1 added to the matches and totals
/// of 2- to 4-grams), so a sentence without a matching 4-gram still gets a score that ranks it.
BleuScore sentence_bleu(const std::vector<std::string>& hypothesis,
                        const std::vector<std::string>& reference);

}  // namespace attnscope
