#pragma once
// Is a model's attention an explanation? Two tests over a test set, on each model's own greedy
// translations with their prefixes forced (Jain & Wallace 2019): does attention rank the source
// tokens as attribution does (Kendall τ-b against |integrated gradients| and |leave one out|),
// and does the output change when the attention row is permuted or made uniform (total
// variation distance, argmax changes)?
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "attnscope/translator.h"

namespace attnscope {

/// Kendall's τ-b of two equally long sequences: (concordant − discordant) pairs over
/// √((pairs − pairs tied in a)·(pairs − pairs tied in b)). NaN when undefined: fewer than 2
/// values, or every value of a (or of b) tied. Throws std::invalid_argument for unequal lengths.
double kendall_tau_b(const std::vector<double>& a, const std::vector<double>& b);

/// ½ Σ |p − q| of two distributions given as log-probabilities (natural log), in [0, 1]. Throws
/// std::invalid_argument for unequal lengths.
double total_variation_distance(const std::vector<float>& log_p, const std::vector<float>& log_q);

/// What reading one replacement attention row at one step did to the output distribution.
struct InterventionEffect {
  double tvd = 0;               // total variation distance from the model's own distribution
  bool argmax_changed = false;  // its most probable token is not the model's own
};

/// The rows to read in place of the model's own attention `row` at output step `step` (from 0),
/// each as long as `row`; none to leave the step alone.
using AttentionReplacements =
    std::function<std::vector<std::vector<float>>(int step, const std::vector<float>& row)>;

/// The model's greedy translation of `sentence`, step by step with its own prefix forced: per
/// step, one effect per row `replacements` gives. Editing a row to the model's own gives TVD 0.
/// Throws std::runtime_error when the model cannot have its attention edited (edit_support()),
/// std::invalid_argument for a replacement row of the wrong length.
std::vector<std::vector<InterventionEffect>> attention_interventions(
    const Translator& translator, const std::string& sentence,
    const AttentionReplacements& replacements, const TranslationOptions& options = {});

struct FaithfulnessOptions {
  static constexpr int kMaxPermutations = 1000;
  int permutations = 10;  // random permutations of each step's attention row (1..kMaxPermutations)
  uint64_t seed = 0;      // of the permutations; a sentence's draw depends on its line, not order
  int ig_steps = 32;      // integrated gradients' steps (AttributionOptions)
};

/// Mean Kendall τ-b between the attention row and the |attribution| row of each output step.
struct AttentionAgreement {
  std::string unavailable;  // why there is no figure ("" when there is one)
  double tau_sum = 0;
  size_t steps = 0;  // steps with a τ: 2 or more attributed source tokens, not all tied

  bool available() const { return unavailable.empty(); }
  /// The mean τ over the steps that had one; NaN when unavailable or none had one.
  double mean_tau() const;
};

/// How far the output moves when each step's attention row is replaced, the prefix forced.
struct AttentionIntervention {
  std::string unavailable;  // why there is no figure ("" when there is one)
  double tvd_sum = 0;       // total variation distance from the model's own distribution
  size_t argmax_changed = 0;
  size_t trials = 0;  // steps × replacements per step

  bool available() const { return unavailable.empty(); }
  /// Mean TVD per trial; NaN when unavailable or without trials.
  double mean_tvd() const;
  /// The share of trials (0..1) whose most probable token is not the model's own; NaN likewise.
  double argmax_changed_share() const;
};

struct ModelFaithfulness {
  std::string model;       // the model's name
  bool cancelled = false;  // the progress callback asked to stop; the figures are partial
  bool has_attention = true;
  size_t sentences = 0;  // measured (sources whose tokens were all dropped have no steps)
  size_t steps = 0;      // output steps of the greedy translations, the end token included
  int permutations = 0;
  int ig_steps = 0;
  AttentionAgreement ig;   // attention against |integrated gradients|
  AttentionAgreement loo;  // attention against |leave one out|
  AttentionIntervention permuted;
  AttentionIntervention uniform;
  double seconds = 0;  // wall time of the measurement
};

/// Called after each sentence with how many of `total` are measured; returning false stops (the
/// result then says cancelled).
using FaithfulnessProgress = std::function<bool(size_t done, size_t total)>;

/// Measures `translator` on `sources` (FaithfulnessOptions, the structs above). A model without
/// attention (the `none` baseline) or a TorchScript module without the optional methods gets
/// `unavailable` set to the reason instead of figures. Throws std::invalid_argument for options
/// out of range.
ModelFaithfulness evaluate_faithfulness(const Translator& translator,
                                        const std::vector<std::string>& sources,
                                        const FaithfulnessOptions& options = {},
                                        const FaithfulnessProgress& progress = {});

}  // namespace attnscope
