#pragma once
// How the trainer measures a model: validation loss and greedy BLEU after each epoch, and the
// test set's BLEU of the saved model at the end.
#include <memory>
#include <string>
#include <vector>

#include "model/trainable_model.h"
#include "train/parallel_corpus.h"

namespace attnscope {

struct Validation {
  double loss = 0.0;   // per target token, without label smoothing
  double bleu = 0.0;   // greedy
  double exact = 0.0;  // share of greedy outputs equal to their reference, word for word
};

/// Teacher-forced loss, greedy-search BLEU and exact matches of `model` (either architecture) on
/// `pairs` against
/// `references` (words). A subword model's output pieces are joined into words first, as
/// Translation::words() joins them (`subword_marker`: "▁"; "" for a word model). A cased
/// model's words (`cased`) are compared as bleu_words(), without case.
Validation validate(const std::shared_ptr<TrainableModel>& model, const std::vector<IdPair>& pairs,
                    const std::vector<std::vector<std::string>>& references,
                    const Vocabulary& target_vocabulary, const std::string& subword_marker,
                    bool cased = false);

struct TestBleu {
  double greedy = 0.0;
  double beam5 = 0.0;
};

/// BLEU of the model file at `model_path` (as saved: half precision) on a test set.
TestBleu test_bleu(const std::string& model_path, const std::vector<std::string>& sources,
                   const std::vector<std::string>& references);

}  // namespace attnscope
