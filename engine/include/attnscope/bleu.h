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

}  // namespace attnscope
