#include "attnscope/word_alignment.h"

#include <algorithm>
#include <charconv>
#include <set>
#include <utility>

#include "attnscope/errors.h"

namespace attnscope {
namespace {

constexpr std::string_view kThresholdPrefix = "threshold:";

[[noreturn]] void bad_method(std::string_view text) {
  ATTNSCOPE_THROW_INVALID_ARGUMENT("alignment method '", text,
                                   "': expected argmax or threshold:X with 0 < X <= 1");
}

}  // namespace

AlignmentMethod parse_alignment_method(std::string_view text) {
  if (text == "argmax") return {};
  if (text.substr(0, kThresholdPrefix.size()) != kThresholdPrefix) bad_method(text);
  const std::string_view number = text.substr(kThresholdPrefix.size());
  // Digits and a point only: no sign, exponent, "inf" or "nan". from_chars ignores the locale
  // (the app's may write decimal commas).
  if (number.empty() || number.find_first_not_of("0123456789.") != std::string_view::npos)
    bad_method(text);
  double value = 0.0;
  const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (error != std::errc() || end != number.data() + number.size() ||
      !(value > 0.0 && value <= 1.0))
    bad_method(text);
  return {AlignmentMethod::kThreshold, static_cast<float>(value)};
}

std::vector<AlignmentLink> alignment_from_attention(const std::vector<std::vector<float>>& weights,
                                                    const AlignmentMethod& method) {
  std::vector<AlignmentLink> links;
  for (size_t t = 0; t < weights.size(); ++t) {
    const auto& row = weights[t];
    if (row.empty()) continue;
    if (method.kind == AlignmentMethod::kArgmax) {
      const auto peak = static_cast<size_t>(std::max_element(row.begin(), row.end()) - row.begin());
      // A row without weight on any word (all of it on "</s>", or a word the model never read)
      // links nothing.
      if (row[peak] > 0.0f) links.push_back({peak, t, true});
    } else {
      for (size_t s = 0; s < row.size(); ++s)
        if (row[s] >= method.threshold) links.push_back({s, t, true});
    }
  }
  std::sort(links.begin(), links.end(), [](const AlignmentLink& a, const AlignmentLink& b) {
    return std::pair(a.source, a.target) < std::pair(b.source, b.target);
  });
  return links;
}

std::string pharaoh_text(const std::vector<AlignmentLink>& links) {
  std::string text;
  for (const auto& link : links) {
    if (!text.empty()) text += ' ';
    text += std::to_string(link.source) + (link.sure ? '-' : '?') + std::to_string(link.target);
  }
  return text;
}

void AlignmentScore::add(const std::vector<AlignmentLink>& predicted_links,
                         const std::vector<AlignmentLink>& gold) {
  std::set<std::pair<size_t, size_t>> sure_links, possible_links, predicted_set;
  for (const auto& link : gold) {
    possible_links.emplace(link.source, link.target);  // P includes S
    if (link.sure) sure_links.emplace(link.source, link.target);
  }
  for (const auto& link : predicted_links) predicted_set.emplace(link.source, link.target);
  predicted += predicted_set.size();
  sure += sure_links.size();
  for (const auto& link : predicted_set) {
    sure_matches += sure_links.count(link);
    possible_matches += possible_links.count(link);
  }
}

double AlignmentScore::precision() const {
  return predicted == 0 ? 0.0 : static_cast<double>(possible_matches) / predicted;
}

double AlignmentScore::recall() const {
  return sure == 0 ? 0.0 : static_cast<double>(sure_matches) / sure;
}

double AlignmentScore::aer() const {
  if (predicted + sure == 0) return 0.0;
  return 1.0 - static_cast<double>(sure_matches + possible_matches) / (predicted + sure);
}

}  // namespace attnscope
