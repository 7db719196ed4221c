#include "train/parallel_corpus.h"

#include <algorithm>
#include <numeric>

#include "attnscope/corpus.h"
#include "attnscope/errors.h"
#include "attnscope/text.h"

namespace attnscope {

TokenizedPairs read_parallel(const std::string& source_path, const std::string& target_path,
                             int64_t max_source_tokens, bool cased) {
  const std::vector<std::string> source = read_utf8_lines(source_path);
  const std::vector<std::string> target = read_utf8_lines(target_path);
  if (source.size() != target.size())
    ATTNSCOPE_THROW_INVALID_ARGUMENT("'", source_path, "' has ", source.size(), " lines but '",
                                     target_path, "' has ", target.size(),
                                     ": a parallel corpus needs one line per sentence in both");
  TokenizedPairs pairs;
  for (size_t i = 0; i < source.size(); ++i) {
    std::vector<std::string> s = model_words(source[i], cased);
    std::vector<std::string> t = model_words(target[i], cased);
    if (s.empty() || t.empty() || static_cast<int64_t>(s.size()) > max_source_tokens) {
      ++pairs.skipped;
      continue;
    }
    pairs.source.push_back(std::move(s));
    pairs.target.push_back(std::move(t));
  }
  if (pairs.source.empty())
    ATTNSCOPE_THROW_INVALID_ARGUMENT("'", source_path, "' and '", target_path,
                                     "' hold no usable sentence pair");
  return pairs;
}

TokenizedPairs split_into_pieces(const TokenizedPairs& words, const SubwordModel& source,
                                 const SubwordModel& target, int64_t max_source_tokens,
                                 std::vector<size_t>& kept) {
  TokenizedPairs pieces;
  kept.clear();
  for (size_t i = 0; i < words.source.size(); ++i) {
    std::vector<std::string> s = source.encode(words.source[i]);
    if (static_cast<int64_t>(s.size()) > max_source_tokens) {
      ++pieces.skipped;
      continue;
    }
    pieces.source.push_back(std::move(s));
    pieces.target.push_back(target.encode(words.target[i]));
    kept.push_back(i);
  }
  return pieces;
}

std::vector<IdPair> to_ids(const TokenizedPairs& pairs, const Vocabulary& source_vocabulary,
                           const Vocabulary& target_vocabulary) {
  std::vector<IdPair> ids(pairs.source.size());
  for (size_t i = 0; i < ids.size(); ++i) {
    for (const auto& w : pairs.source[i]) ids[i].source.push_back(source_vocabulary.id(w));
    ids[i].source.push_back(Vocabulary::kEos);
    ids[i].target.push_back(Vocabulary::kBos);
    for (const auto& w : pairs.target[i]) ids[i].target.push_back(target_vocabulary.id(w));
    ids[i].target.push_back(Vocabulary::kEos);
  }
  return ids;
}

std::vector<std::vector<size_t>> length_buckets(const std::vector<IdPair>& pairs, int batch_size) {
  std::vector<size_t> order(pairs.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const auto key = [&](size_t i) {
      return std::make_pair(pairs[i].source.size(), pairs[i].target.size());
    };
    return key(a) < key(b);
  });
  std::vector<std::vector<size_t>> batches;
  for (size_t start = 0; start < order.size(); start += static_cast<size_t>(batch_size)) {
    const size_t end = std::min(order.size(), start + static_cast<size_t>(batch_size));
    batches.emplace_back(order.begin() + start, order.begin() + end);
  }
  return batches;
}

Batch make_batch(const std::vector<IdPair>& pairs, const std::vector<size_t>& indices) {
  const auto batch = static_cast<int64_t>(indices.size());
  size_t source_length = 0, target_length = 0;
  for (size_t i : indices) {
    source_length = std::max(source_length, pairs[i].source.size());
    target_length = std::max(target_length, pairs[i].target.size());
  }
  Batch b;
  b.source =
      torch::full({batch, static_cast<int64_t>(source_length)}, Vocabulary::kPad, torch::kLong);
  b.target =
      torch::full({batch, static_cast<int64_t>(target_length)}, Vocabulary::kPad, torch::kLong);
  b.lengths = torch::empty({batch}, torch::kLong);
  auto source = b.source.accessor<int64_t, 2>();
  auto target = b.target.accessor<int64_t, 2>();
  auto lengths = b.lengths.accessor<int64_t, 1>();
  for (int64_t row = 0; row < batch; ++row) {
    const IdPair& pair = pairs[indices[static_cast<size_t>(row)]];
    for (size_t j = 0; j < pair.source.size(); ++j)
      source[row][static_cast<int64_t>(j)] = pair.source[j];
    for (size_t j = 0; j < pair.target.size(); ++j)
      target[row][static_cast<int64_t>(j)] = pair.target[j];
    lengths[row] = static_cast<int64_t>(pair.source.size());
    b.target_tokens += static_cast<int64_t>(pair.target.size()) - 1;
  }
  return b;
}

}  // namespace attnscope
