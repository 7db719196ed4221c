#include <c10/core/InferenceMode.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "attnscope/explanation.h"
#include "decode/search.h"
#include "decode/translator_impl.h"
#include "explain/gradient_model.h"

namespace attnscope {

const std::vector<AttributionMethod>& attribution_methods() {
  static const std::vector<AttributionMethod> methods{
      AttributionMethod::kGradient, AttributionMethod::kGradientTimesInput,
      AttributionMethod::kIntegratedGradients, AttributionMethod::kLeaveOneOut};
  return methods;
}

std::string attribution_method_name(AttributionMethod method) {
  switch (method) {
    case AttributionMethod::kGradient:
      return "grad";
    case AttributionMethod::kGradientTimesInput:
      return "gradxinput";
    case AttributionMethod::kIntegratedGradients:
      return "ig";
    case AttributionMethod::kLeaveOneOut:
      return "loo";
  }
  return "";
}

std::string attribution_method_title(AttributionMethod method) {
  switch (method) {
    case AttributionMethod::kGradient:
      return "gradient";
    case AttributionMethod::kGradientTimesInput:
      return "gradient \u00d7 input";
    case AttributionMethod::kIntegratedGradients:
      return "integrated gradients";
    case AttributionMethod::kLeaveOneOut:
      return "leave one out";
  }
  return "";
}

AttributionMethod parse_attribution_method(const std::string& name) {
  for (AttributionMethod method : attribution_methods())
    if (attribution_method_name(method) == name) return method;
  throw std::invalid_argument("attribution method '" + name +
                              "' is not one of grad, gradxinput, ig, loo");
}

namespace {

// The largest |row sum − (log p − baseline log p)| over the rows, each divided by what `scale`
// makes of that difference.
template <typename Scale>
float largest_row_gap(const Attribution& a, Scale scale) {
  if (a.method != AttributionMethod::kIntegratedGradients) return 0.0f;
  double worst = 0.0;
  for (size_t t = 0; t < a.values.size(); ++t) {
    double sum = 0.0;
    for (float v : a.values[t]) sum += v;
    const double expected = a.log_probabilities[t] - a.baseline_log_probabilities[t];
    worst = std::max(worst, std::abs(sum - expected) / scale(expected));
  }
  return static_cast<float>(worst);
}

}  // namespace

float Attribution::completeness_gap() const {
  return largest_row_gap(*this, [](double) { return 1.0; });
}

float Attribution::relative_completeness_gap() const {
  return largest_row_gap(*this, [](double d) { return std::max(std::abs(d), 1e-4); });
}

std::string attribution_support(const Translator& translator, AttributionMethod method) {
  if (method == AttributionMethod::kLeaveOneOut) return "";
  std::string why_not;
  return gradient_model_of(*translator.impl().model, &why_not) ? "" : why_not;
}

namespace {

constexpr float kUndefined = std::numeric_limits<float>::quiet_NaN();

// What is explained: the source and the output, as ids.
struct Explained {
  SourceText source;
  std::vector<int64_t> source_ids;
  Hypothesis output;
};

// The output to explain: `target` (ids, the end token included when wanted), or the model's
// greedy translation when there is none.
Explained what_to_explain(const Translator::Impl& impl, const std::string& sentence,
                          const std::optional<std::vector<int64_t>>& target) {
  c10::InferenceMode inference;
  Explained e;
  e.source = impl.tokens.prepare_source(sentence);
  if (impl.tokens.is_empty(e.source)) return e;
  e.source_ids = impl.tokens.source_ids(e.source);
  const int longest = impl.max_length(e.source, TranslationOptions());
  if (target && static_cast<int>(target->size()) > longest)
    throw std::invalid_argument("the target has " + std::to_string(target->size()) +
                                " tokens; attribution reads at most " + std::to_string(longest) +
                                " for a source of " + std::to_string(e.source_ids.size()) +
                                " tokens (2 × its tokens + 10)");
  e.output = target ? forced_decode(*impl.model, e.source_ids, *target)
                    : greedy_search(*impl.model, {e.source_ids}, {longest}).front();
  return e;
}

std::vector<std::vector<float>> to_rows(const torch::Tensor& matrix) {
  const torch::Tensor m = matrix.detach().contiguous();
  std::vector<std::vector<float>> rows;
  for (int64_t t = 0; t < m.size(0); ++t) rows.push_back(tensor_row(m, t, m.size(1)));
  return rows;
}

std::vector<float> to_vector(const torch::Tensor& v) {
  const torch::Tensor c = v.detach().contiguous();
  return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
}

void attribute_by_gradients(const Translator::Impl& impl, const Explained& e,
                            const AttributionOptions& options, Attribution& result) {
  std::string why_not;
  std::unique_ptr<GradientModel> model = gradient_model_of(*impl.model, &why_not);
  if (!model) throw std::runtime_error(why_not);
  // Gradients need autograd, which a caller's InferenceMode would switch off.
  c10::InferenceMode no_inference(false);
  torch::AutoGradMode grad_mode(true);
  const torch::Tensor x = model->embed(e.source_ids);  // [S,E]
  if (options.method == AttributionMethod::kIntegratedGradients) {
    // Points on the straight path from the all-zero baseline to x; the trapezoid rule weighs
    // the two ends half.
    using Clock = std::chrono::steady_clock;
    const Clock::time_point start = Clock::now();
    int n = options.ig_steps;
    const torch::Tensor alphas = torch::linspace(0.0, 1.0, n + 1);
    torch::Tensor weights = torch::full({n + 1}, 1.0 / n);
    weights[0] = weights[n] = 0.5 / n;
    const PathGradients g =
        model->path_gradients(alphas.view({-1, 1, 1}) * x.unsqueeze(0), weights, e.output.tokens,
                              x);  // (x − 0) · ∫ ∇
    torch::Tensor attribution = g.attribution.detach();
    result.log_probabilities = to_vector(g.log_probs[n]);
    result.baseline_log_probabilities = to_vector(g.log_probs[0]);
    result.values = to_rows(attribution);
    result.ig_steps = n;
    // Doubling the intervals: the 2n-rule weighs the n-rule's points half as much and adds the
    // n midpoints at 1 / 2n each, so only the midpoints are computed.
    double seconds_per_point =
        std::chrono::duration<double>(Clock::now() - start).count() / (n + 1);
    const auto next_fits_in_time = [&] {
      if (options.ig_seconds <= 0) return true;
      const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
      return elapsed + seconds_per_point * n <= options.ig_seconds;
    };
    const auto refines = [&] {
      return options.ig_tolerance > 0 &&
             result.relative_completeness_gap() > options.ig_tolerance &&
             2 * n <= AttributionOptions::kMaxIgSteps && next_fits_in_time() &&
             !(options.stop_refining && options.stop_refining());
    };
    while (refines()) {
      if (options.on_refining) {
        result.ig_cut_short = true;  // as it stands: short of the tolerance, refined further
        options.on_refining(result);
      }
      const Clock::time_point pass = Clock::now();
      const torch::Tensor midpoints = (torch::arange(n, torch::kFloat) + 0.5) / n;
      const PathGradients m = model->path_gradients(midpoints.view({-1, 1, 1}) * x.unsqueeze(0),
                                                    torch::full({n}, 0.5 / n), e.output.tokens, x);
      attribution = 0.5 * attribution + m.attribution.detach();
      seconds_per_point = std::chrono::duration<double>(Clock::now() - pass).count() / n;
      n *= 2;
      result.values = to_rows(attribution);
      result.ig_steps = n;
    }
    // Short of the tolerance with steps to spare: the time limit or the caller stopped it.
    result.ig_cut_short = options.ig_tolerance > 0 &&
                          result.relative_completeness_gap() > options.ig_tolerance &&
                          2 * n <= AttributionOptions::kMaxIgSteps;
    return;
  }
  const TargetGradients g = model->gradients(x.unsqueeze(0), torch::ones({1}), e.output.tokens);
  result.values = to_rows(options.method == AttributionMethod::kGradient
                              ? g.weighted_sum.norm(2, -1)
                              : (g.weighted_sum * x.unsqueeze(0)).sum(-1));
  result.log_probabilities = to_vector(g.log_probs[0]);
}

// log p(target[t] | source, target[<t]) of each source of a batch, the target forced: [B,T].
torch::Tensor forced_log_probs(StepModel& model, const std::vector<std::vector<int64_t>>& sources,
                               const std::vector<int64_t>& target) {
  const auto batch = static_cast<int64_t>(sources.size());
  std::shared_ptr<const DecoderRows> rows = model.encode(sources);
  std::vector<torch::Tensor> steps;
  int64_t previous = model.bos();
  for (int64_t token : target) {
    StepOutput out = model.step(*rows, torch::full({batch}, previous, torch::kLong));
    steps.push_back(out.log_probs.select(1, token));
    rows = std::move(out.next);
    previous = token;
  }
  return torch::stack(steps, 1);
}

void attribute_by_leaving_out(const Translator::Impl& impl, const Explained& e,
                              Attribution& result) {
  c10::InferenceMode inference;
  const auto S = static_cast<int64_t>(e.source_ids.size());
  // The appended end token is not a word of the sentence: it stays in every variant.
  const int64_t words = impl.tokens.appends_end() ? S - 1 : S;
  // The original and every variant in one batch, so all values come from the same arithmetic.
  std::vector<std::vector<int64_t>> sources{e.source_ids};
  std::vector<int64_t> left_out;  // the position each variant leaves out
  for (int64_t i = 0; i < words; ++i) {
    if (S == 1) break;  // leaving out the only token leaves nothing to encode
    std::vector<int64_t> variant = e.source_ids;
    variant.erase(variant.begin() + i);
    sources.push_back(std::move(variant));
    left_out.push_back(i);
  }
  const torch::Tensor lp = forced_log_probs(*impl.model, sources, e.output.tokens);  // [B,T]
  const auto T = static_cast<int64_t>(e.output.tokens.size());
  result.log_probabilities = tensor_row(lp, 0, T);
  result.values.assign(static_cast<size_t>(T), std::vector<float>(S, kUndefined));
  const auto access = lp.accessor<float, 2>();
  for (size_t v = 0; v < left_out.size(); ++v)
    for (int64_t t = 0; t < T; ++t)
      result.values[t][left_out[v]] = access[0][t] - access[static_cast<int64_t>(v) + 1][t];
}

}  // namespace

namespace {

Attribution attribute_ids(const Translator& translator, const std::string& sentence,
                          const AttributionOptions& options,
                          const std::optional<std::vector<int64_t>>& target) {
  if (options.method == AttributionMethod::kIntegratedGradients &&
      (options.ig_steps < 1 || options.ig_steps > AttributionOptions::kMaxIgSteps))
    throw std::invalid_argument("integrated gradients' steps must be 1 to " +
                                std::to_string(AttributionOptions::kMaxIgSteps) + ", not " +
                                std::to_string(options.ig_steps));
  if (!(options.ig_seconds >= 0))
    throw std::invalid_argument(
        "integrated gradients' time limit must be 0 (none) or positive, "
        "not " +
        std::to_string(options.ig_seconds));
  if (!(options.ig_tolerance >= 0 && options.ig_tolerance < 1))
    throw std::invalid_argument(
        "integrated gradients' tolerance must be 0 (fixed steps) or a "
        "fraction below 1, not " +
        std::to_string(options.ig_tolerance));
  const Translator::Impl& impl = translator.impl();
  if (options.method != AttributionMethod::kLeaveOneOut) {
    const std::string why_not = attribution_support(translator, options.method);
    if (!why_not.empty()) throw std::runtime_error(why_not);
  }
  const Explained e = what_to_explain(impl, sentence, target);
  Attribution result;
  result.method = options.method;
  result.translation = impl.to_translation(e.source, e.output, UnknownWords::kCopy);
  if (e.source_ids.empty() || e.output.tokens.empty()) return result;
  if (options.method == AttributionMethod::kLeaveOneOut)
    attribute_by_leaving_out(impl, e, result);
  else
    attribute_by_gradients(impl, e, options, result);
  return result;
}

}  // namespace

Attribution attribute(const Translator& translator, const std::string& sentence,
                      const AttributionOptions& options, const std::optional<std::string>& target) {
  std::optional<std::vector<int64_t>> ids;
  if (target) ids = translator.impl().tokens.target_ids(*target);
  return attribute_ids(translator, sentence, options, ids);
}

Attribution attribute_tokens(const Translator& translator, const std::string& sentence,
                             const AttributionOptions& options,
                             const std::vector<std::string>& target_tokens) {
  std::vector<int64_t> ids;
  for (const std::string& token : target_tokens)
    ids.push_back(translator.impl().tokens.target_id(token));
  return attribute_ids(translator, sentence, options, ids);
}

}  // namespace attnscope
