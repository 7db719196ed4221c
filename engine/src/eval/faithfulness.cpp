#include "attnscope/faithfulness.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>

#include "attnscope/errors.h"
#include "attnscope/explanation.h"
#include "decode/translator_impl.h"

namespace attnscope {
namespace {

constexpr double kUndefined = std::numeric_limits<double>::quiet_NaN();

int sign_of(double x) { return (x > 0) - (x < 0); }

// SplitMix64: a sentence's permutations depend on the seed and its line only, so a run over a
// prefix of a test set draws what the full run draws for those lines.
uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Fisher–Yates with our own generator: std::shuffle's draws differ between standard libraries.
std::vector<int64_t> random_permutation(int64_t n, uint64_t& state) {
  std::vector<int64_t> p(static_cast<size_t>(n));
  std::iota(p.begin(), p.end(), 0);
  for (int64_t i = n - 1; i > 0; --i) {
    state = splitmix64(state);
    std::swap(p[static_cast<size_t>(i)],
              p[static_cast<size_t>(state % static_cast<uint64_t>(i + 1))]);
  }
  return p;
}

std::vector<float> row_values(const torch::Tensor& row) {
  const torch::Tensor r = row.to(torch::kFloat).contiguous();
  return {r.data_ptr<float>(), r.data_ptr<float>() + r.numel()};
}

// The model's greedy decoding of `ids`, and at each step the rows `replacements` gives for its
// attention row read in its place, from the same decoder state and previous token.
std::vector<std::vector<InterventionEffect>> intervene(const Translator::Impl& impl,
                                                       const std::vector<int64_t>& ids,
                                                       int max_length,
                                                       const AttentionReplacements& replacements) {
  c10::InferenceMode inference;
  StepModel& model = *impl.model;
  const auto source_length = static_cast<int64_t>(ids.size());
  std::shared_ptr<const DecoderRows> rows = model.encode({ids});
  int64_t previous = model.bos();
  std::vector<std::vector<InterventionEffect>> effects;
  for (int t = 0; t < max_length; ++t) {
    const torch::Tensor previous_tensor = torch::full({1}, previous, torch::kLong);
    StepOutput own = model.step(*rows, previous_tensor);
    const int64_t chosen = own.log_probs[0].argmax().item<int64_t>();
    const std::vector<float> row = row_values(own.attention[0].slice(0, 0, source_length));
    const std::vector<std::vector<float>> edited = replacements(t, row);
    std::vector<InterventionEffect> step_effects;
    if (!edited.empty()) {
      // The model's own row is read in the same batch as the replacements and is what they are
      // compared with: rows of one batch share their arithmetic, so the own row given back
      // measures exactly 0, where a batch of one and a batch of many differ in the last bits.
      const auto k = static_cast<int64_t>(edited.size());
      torch::Tensor attention = torch::empty({k + 1, source_length}, torch::kFloat);
      attention[k] = torch::tensor(row, torch::kFloat);
      for (int64_t i = 0; i < k; ++i) {
        const auto& e = edited[static_cast<size_t>(i)];
        if (static_cast<int64_t>(e.size()) != source_length)
          ATTNSCOPE_THROW_INVALID_ARGUMENT("a replacement attention row of step ", t + 1, " has ",
                                           e.size(), " weights for ", source_length,
                                           " source tokens");
        attention[i] = torch::tensor(e, torch::kFloat);
      }
      const auto batch = model.select(*rows, std::vector<int64_t>(static_cast<size_t>(k + 1), 0));
      const StepOutput out = model.step_with_attention(
          *batch, previous_tensor.expand({k + 1}).contiguous(), attention);
      // In double, so that equal distributions come out as exactly 0.
      const torch::Tensor p = out.log_probs.to(torch::kDouble).exp();
      const torch::Tensor tvd = 0.5 * (p.narrow(0, 0, k) - p[k]).abs().sum(1);
      const torch::Tensor argmax = out.log_probs.argmax(1);
      const int64_t own_argmax = argmax[k].item<int64_t>();
      for (int64_t i = 0; i < k; ++i)
        step_effects.push_back(
            {std::min(1.0, tvd[i].item<double>()), argmax[i].item<int64_t>() != own_argmax});
    }
    effects.push_back(std::move(step_effects));
    rows = std::move(own.next);
    previous = chosen;
    if (chosen == model.eos()) break;
  }
  return effects;
}

void add_agreement(const Attribution& a, AttentionAgreement& agreement) {
  const auto& attention = a.translation.attention;
  for (size_t t = 0; t < a.values.size() && t < attention.size(); ++t) {
    std::vector<double> weights, magnitudes;
    for (size_t s = 0; s < a.values[t].size() && s < attention[t].size(); ++s) {
      if (std::isnan(a.values[t][s])) continue;
      weights.push_back(attention[t][s]);
      magnitudes.push_back(std::fabs(a.values[t][s]));
    }
    if (weights.size() < 2) continue;
    const double tau = kendall_tau_b(weights, magnitudes);
    if (std::isnan(tau)) continue;
    agreement.tau_sum += tau;
    ++agreement.steps;
  }
}

void add_effects(const std::vector<InterventionEffect>& effects, size_t first, size_t last,
                 AttentionIntervention& into) {
  for (size_t i = first; i < last && i < effects.size(); ++i) {
    into.tvd_sum += effects[i].tvd;
    into.argmax_changed += effects[i].argmax_changed ? 1 : 0;
    ++into.trials;
  }
}

}  // namespace

double kendall_tau_b(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size())
    ATTNSCOPE_THROW_INVALID_ARGUMENT("Kendall's tau of ", a.size(), " and ", b.size(), " values");
  const size_t n = a.size();
  if (n < 2) return kUndefined;
  double concordant = 0, discordant = 0, tied_a = 0, tied_b = 0;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j) {
      const int sa = sign_of(a[i] - a[j]), sb = sign_of(b[i] - b[j]);
      if (sa == 0) tied_a += 1;
      if (sb == 0) tied_b += 1;
      if (sa * sb > 0) concordant += 1;
      if (sa * sb < 0) discordant += 1;
    }
  const double pairs = static_cast<double>(n) * (n - 1) / 2;
  const double denominator = (pairs - tied_a) * (pairs - tied_b);
  if (denominator <= 0) return kUndefined;
  return (concordant - discordant) / std::sqrt(denominator);
}

double total_variation_distance(const std::vector<float>& log_p, const std::vector<float>& log_q) {
  if (log_p.size() != log_q.size())
    ATTNSCOPE_THROW_INVALID_ARGUMENT("total variation distance of distributions over ",
                                     log_p.size(), " and ", log_q.size(), " outcomes");
  double sum = 0;
  for (size_t i = 0; i < log_p.size(); ++i)
    sum += std::fabs(std::exp(static_cast<double>(log_p[i])) -
                     std::exp(static_cast<double>(log_q[i])));
  return std::min(1.0, sum / 2);
}

double AttentionAgreement::mean_tau() const {
  return available() && steps > 0 ? tau_sum / static_cast<double>(steps) : kUndefined;
}

double AttentionIntervention::mean_tvd() const {
  return available() && trials > 0 ? tvd_sum / static_cast<double>(trials) : kUndefined;
}

double AttentionIntervention::argmax_changed_share() const {
  return available() && trials > 0
             ? static_cast<double>(argmax_changed) / static_cast<double>(trials)
             : kUndefined;
}

std::vector<std::vector<InterventionEffect>> attention_interventions(
    const Translator& translator, const std::string& sentence,
    const AttentionReplacements& replacements, const TranslationOptions& options) {
  const std::string why_not = edit_support(translator);
  if (!why_not.empty()) throw std::runtime_error(why_not);
  const Translator::Impl& impl = translator.impl();
  const SourceText source = impl.tokens.prepare_source(sentence);
  if (impl.tokens.is_empty(source)) return {};
  return intervene(impl, impl.tokens.source_ids(source), impl.max_length(source, options),
                   replacements);
}

ModelFaithfulness evaluate_faithfulness(const Translator& translator,
                                        const std::vector<std::string>& sources,
                                        const FaithfulnessOptions& options,
                                        const FaithfulnessProgress& progress) {
  if (options.permutations < 1 || options.permutations > FaithfulnessOptions::kMaxPermutations)
    ATTNSCOPE_THROW_SETTING("permutations", options.permutations, " permutations a step: use 1 to ",
                            FaithfulnessOptions::kMaxPermutations);
  if (options.ig_steps < 1 || options.ig_steps > AttributionOptions::kMaxIgSteps)
    ATTNSCOPE_THROW_SETTING("ig_steps", options.ig_steps, " integrated-gradient steps: use 1 to ",
                            AttributionOptions::kMaxIgSteps);
  const auto start = std::chrono::steady_clock::now();
  ModelFaithfulness result;
  result.model = translator.info().name;
  result.has_attention = translator.info().has_attention;
  result.permutations = options.permutations;
  result.ig_steps = options.ig_steps;
  if (!result.has_attention) {
    // One reason for every figure: attributions exist, but no attention to hold them against.
    result.ig.unavailable = result.loo.unavailable = result.permuted.unavailable =
        result.uniform.unavailable = "the model '" + result.model +
                                     "' has no attention: nothing to rank against attribution "
                                     "or to permute";
  } else {
    result.ig.unavailable =
        attribution_support(translator, AttributionMethod::kIntegratedGradients);
    result.loo.unavailable = attribution_support(translator, AttributionMethod::kLeaveOneOut);
    result.permuted.unavailable = result.uniform.unavailable = edit_support(translator);
  }

  const Translator::Impl& impl = translator.impl();
  const TranslationOptions decoding;  // greedy, as the translations evaluate_corpus measures
  const auto k = static_cast<size_t>(options.permutations);
  for (size_t line = 0; line < sources.size(); ++line) {
    const SourceText source = impl.tokens.prepare_source(sources[line]);
    if (!impl.tokens.is_empty(source)) {
      ++result.sentences;
      size_t steps = 0;
      for (auto [method, agreement] :
           {std::pair{AttributionMethod::kIntegratedGradients, &result.ig},
            std::pair{AttributionMethod::kLeaveOneOut, &result.loo}}) {
        if (!agreement->available()) continue;
        AttributionOptions attribution;
        attribution.method = method;
        attribution.ig_steps = options.ig_steps;
        const Attribution a = attribute(translator, sources[line], attribution);
        steps = a.values.size();
        add_agreement(a, *agreement);
      }
      if (result.permuted.available()) {
        uint64_t state = splitmix64(options.seed ^ splitmix64(line));
        const auto effects =
            intervene(impl, impl.tokens.source_ids(source), impl.max_length(source, decoding),
                      [&](int, const std::vector<float>& row) {
                        std::vector<std::vector<float>> rows;
                        const auto n = static_cast<int64_t>(row.size());
                        for (size_t p = 0; p < k; ++p) {
                          std::vector<float> shuffled(row.size());
                          const std::vector<int64_t> order = random_permutation(n, state);
                          for (size_t s = 0; s < row.size(); ++s)
                            shuffled[s] = row[static_cast<size_t>(order[s])];
                          rows.push_back(std::move(shuffled));
                        }
                        rows.emplace_back(row.size(), 1.0f / static_cast<float>(row.size()));
                        return rows;
                      });
        for (const auto& step : effects) {
          add_effects(step, 0, k, result.permuted);
          add_effects(step, k, k + 1, result.uniform);
        }
        steps = effects.size();
      } else if (steps == 0) {
        steps = translator.translate(sources[line], decoding).tokens.size();
      }
      result.steps += steps;
    }
    if (progress && !progress(line + 1, sources.size())) {
      result.cancelled = true;
      break;
    }
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace attnscope
