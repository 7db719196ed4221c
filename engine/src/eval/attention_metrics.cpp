#include "attnscope/attention_metrics.h"

#include <algorithm>
#include <cmath>

#include "attnscope/errors.h"
#include "attnscope/translation.h"

namespace attnscope {
namespace {

double mean(double sum, size_t count) { return count == 0 ? 0.0 : sum / count; }

}  // namespace

void AttentionMetrics::add(const std::vector<std::vector<float>>& attention, int end_column) {
  if (attention.empty()) return;
  const size_t columns = attention.front().size();
  for (const auto& row : attention)
    if (row.size() != columns)
      ATTNSCOPE_THROW_INVALID_ARGUMENT("attention rows of ", columns, " and ", row.size(),
                                       " source tokens in one matrix");
  if (columns == 0) return;
  if (end_column >= static_cast<int>(columns))
    ATTNSCOPE_THROW_INVALID_ARGUMENT("end token at column ", end_column, " of a source of ",
                                     columns, " tokens");
  const size_t rows = attention.size();
  std::vector<double> received(columns, 0.0);
  for (size_t t = 0; t < rows; ++t) {
    const auto& row = attention[t];
    for (size_t j = 0; j < columns; ++j) received[j] += row[j];
    entropy_sum += attention_entropy(row);  // the step panel's measure, in nats
    const auto peak = static_cast<size_t>(std::max_element(row.begin(), row.end()) - row.begin());
    diagonality_sum +=
        std::abs(static_cast<double>(peak) / columns - static_cast<double>(t) / rows);
    // The last step is where attending to "</s>" is expected: only earlier steps count as sink.
    if (end_column >= 0 && t + 1 < rows) {
      end_sink_sum += row[end_column];
      ++sink_steps;
    }
  }
  steps += rows;
  for (double r : received) coverage_sum += std::abs(r - 1.0);
  source_tokens += columns;
}

void AttentionMetrics::add(const AttentionMetrics& other) {
  entropy_sum += other.entropy_sum;
  diagonality_sum += other.diagonality_sum;
  steps += other.steps;
  end_sink_sum += other.end_sink_sum;
  sink_steps += other.sink_steps;
  coverage_sum += other.coverage_sum;
  source_tokens += other.source_tokens;
}

double AttentionMetrics::mean_entropy() const { return mean(entropy_sum, steps); }
double AttentionMetrics::mean_end_sink() const { return mean(end_sink_sum, sink_steps); }
double AttentionMetrics::mean_diagonality() const { return mean(diagonality_sum, steps); }
double AttentionMetrics::mean_coverage_spread() const { return mean(coverage_sum, source_tokens); }

std::string LengthBucket::label() const {
  return last == 0 ? std::to_string(first) + "+"
                   : std::to_string(first) + "\u2013" + std::to_string(last);
}

const std::vector<LengthBucket>& length_buckets() {
  static const std::vector<LengthBucket> buckets = {{1, 10}, {11, 20}, {21, 30}, {31, 0}};
  return buckets;
}

size_t length_bucket_of(size_t words) {
  const auto& buckets = length_buckets();
  for (size_t b = 0; b + 1 < buckets.size(); ++b)
    if (words <= static_cast<size_t>(buckets[b].last)) return b;
  return buckets.size() - 1;
}

}  // namespace attnscope
