#include <cmath>
#include <cstdint>
#include <sstream>
#include <stdexcept>

#include "attnscope/explanation.h"
#include "attnscope/text.h"

namespace attnscope {
namespace {

constexpr int kLargestStep = 1000000;  // past any translation; keeps the number an int

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator)) parts.push_back(part);
  if (!text.empty() && text.back() == separator) parts.emplace_back();
  return parts;
}

// A whole non-negative number no larger than `largest`, or -1.
long long whole_number(const std::string& text, long long largest) {
  if (text.empty() || text.size() > 18) return -1;  // 18 digits cannot overflow a long long
  long long value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return -1;
    value = value * 10 + (c - '0');
  }
  return value <= largest ? value : -1;
}

// A spec as a message quotes it: a 30,000-weight spec would make a 60 KB error line.
std::string quoted(const std::string& spec) {
  constexpr size_t kShown = 60;
  if (spec.size() <= kShown) return "'" + spec + "'";
  size_t cut = kShown;
  while (cut > 0 && (static_cast<unsigned char>(spec[cut]) & 0xC0) == 0x80) --cut;  // whole UTF-8
  return "'" + spec.substr(0, cut) + "…' (" + std::to_string(spec.size()) + " characters)";
}

std::string join(const std::vector<int>& values) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) out += (i ? "," : "") + std::to_string(values[i]);
  return out;
}

std::vector<float> normalised(std::vector<float> row) {
  double sum = 0.0;
  for (float v : row) sum += v;
  for (float& v : row) v = static_cast<float>(v / sum);
  return row;
}

}  // namespace

std::string AttentionEdit::spec() const {
  std::string out = step == kEveryStep ? "all" : std::to_string(step + 1);
  switch (kind) {
    case Kind::kUniform:
      return out + ":uniform";
    case Kind::kZero:
      return out + ":zero=" + join(positions);
    case Kind::kOneHot:
      return out + ":onehot=" + join(positions);
    case Kind::kShuffle:
      return out + ":shuffle=" + std::to_string(seed);
    case Kind::kWeights: {
      std::ostringstream w;
      for (size_t i = 0; i < weights.size(); ++i) w << (i ? "," : "") << weights[i];
      return out + ":weights=" + w.str();
    }
  }
  return out;
}

std::vector<float> AttentionEdit::apply(const std::vector<float>& row) const {
  const auto n = static_cast<int>(row.size());
  auto fail = [this](const std::string& problem) {
    throw std::invalid_argument("attention edit " + quoted(spec()) + ": " + problem);
  };
  if (n == 0) fail("the row has no source token");
  for (int p : positions)
    if (p < 0 || p >= n)
      fail("position " + std::to_string(p) + " is outside the source's tokens (0 to " +
           std::to_string(n - 1) + ")");
  switch (kind) {
    case Kind::kUniform:
      return std::vector<float>(row.size(), 1.0f / static_cast<float>(n));
    case Kind::kOneHot: {
      if (positions.size() != 1) fail("onehot takes one position");
      std::vector<float> edited(row.size(), 0.0f);
      edited[static_cast<size_t>(positions.at(0))] = 1.0f;
      return edited;
    }
    case Kind::kZero: {
      std::vector<float> edited = row;
      for (int p : positions) edited[static_cast<size_t>(p)] = 0.0f;
      double left = 0.0;
      for (float v : edited) left += v;
      if (!(left > 0.0)) fail("zeroing position(s) " + join(positions) + " leaves no weight");
      return normalised(edited);
    }
    case Kind::kShuffle: {
      // Fisher–Yates with a fixed generator and no std distribution, whose algorithms differ
      // between standard libraries: a seed gives the same permutation everywhere.
      std::vector<float> edited = row;
      uint64_t state = seed;
      for (size_t i = edited.size() - 1; i > 0; --i) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;  // Knuth's LCG
        std::swap(edited[i], edited[static_cast<size_t>((state >> 33) % (i + 1))]);
      }
      return edited;
    }
    case Kind::kWeights: {
      if (static_cast<int>(weights.size()) != n)
        fail("gives " + std::to_string(weights.size()) + " weights for a source of " +
             std::to_string(n) + " tokens");
      for (float w : weights)
        if (!std::isfinite(w) || w < 0.0f) fail("weights must be finite and not negative");
      // Weights that already sum to 1 (a row the model made, as float rounding leaves it) are
      // read as given: dividing by a sum one ulp off 1 would change bits of an identity edit.
      double sum = 0.0;
      for (float w : weights) sum += w;
      if (!(sum > 0.0)) fail("the weights sum to 0");
      return std::abs(sum - 1.0) <= 1e-5 ? weights : normalised(weights);
    }
  }
  return row;
}

AttentionEdit parse_attention_edit(const std::string& spec) {
  auto fail = [&spec](const std::string& problem) -> AttentionEdit {
    throw std::invalid_argument("attention edit " + quoted(spec) + ": " + problem);
  };
  const std::string usage =
      "expected STEP:uniform, STEP:zero=I[,J...], STEP:onehot=I, STEP:shuffle=SEED or "
      "STEP:weights=W0,W1,... (STEP from 1, or all)";
  const size_t colon = spec.find(':');
  if (colon == std::string::npos) return fail(usage);
  AttentionEdit edit;
  const std::string step = spec.substr(0, colon);
  if (step == "all") {
    edit.step = AttentionEdit::kEveryStep;
  } else {
    const long long number = whole_number(step, kLargestStep);
    if (number < 1)
      return fail("step '" + step + "' is not a step number (1 to " + std::to_string(kLargestStep) +
                  ") or all");
    edit.step = static_cast<int>(number - 1);
  }
  const std::string rest = spec.substr(colon + 1);
  const size_t equals = rest.find('=');
  const std::string kind = rest.substr(0, equals);
  const std::string argument = equals == std::string::npos ? "" : rest.substr(equals + 1);
  const bool has_argument = equals != std::string::npos;
  auto positions = [&]() {
    std::vector<int> out;
    for (const std::string& part : split(argument, ',')) {
      const long long p = whole_number(part, 1000000);
      if (p < 0) fail("position '" + part + "' is not a source position (0, 1, ...)");
      out.push_back(static_cast<int>(p));
    }
    if (out.empty()) fail("gives no position");
    return out;
  };
  if (kind == "uniform" && !has_argument) {
    edit.kind = AttentionEdit::Kind::kUniform;
  } else if (kind == "zero" && has_argument) {
    edit.kind = AttentionEdit::Kind::kZero;
    edit.positions = positions();
  } else if (kind == "onehot" && has_argument) {
    edit.kind = AttentionEdit::Kind::kOneHot;
    edit.positions = positions();
    if (edit.positions.size() != 1) return fail("onehot takes one position");
  } else if (kind == "shuffle" && has_argument) {
    edit.kind = AttentionEdit::Kind::kShuffle;
    const long long seed = whole_number(argument, 999999999999999999LL);
    if (seed < 0) return fail("seed '" + argument + "' is not a whole number");
    edit.seed = static_cast<uint64_t>(seed);
  } else if (kind == "weights" && has_argument) {
    edit.kind = AttentionEdit::Kind::kWeights;
    double sum = 0.0;
    for (const std::string& part : split(argument, ',')) {
      const std::optional<double> w = decimal_number(part);
      if (!w) return fail("weight '" + part.substr(0, 40) + "' is not a decimal number");
      if (*w < 0.0) return fail("weight " + part.substr(0, 40) + " is negative");
      edit.weights.push_back(static_cast<float>(*w));
      sum += *w;
    }
    if (!(sum > 0.0)) return fail("the weights sum to 0");
  } else {
    return fail(usage);
  }
  return edit;
}

}  // namespace attnscope
