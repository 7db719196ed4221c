#pragma once
// Testing what attention shows (layer explain, above decode): how much each output token's
// log-probability depends on each source token (attribution), and decoding with attention rows
// replaced by other distributions (editing attention).
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "attnscope/translation.h"
#include "attnscope/translator.h"

namespace attnscope {

enum class AttributionMethod {
  kGradient,             // ‖∂ log p(y_t) / ∂ e_i‖₂ of source embedding e_i
  kGradientTimesInput,   // ∂ log p(y_t) / ∂ e_i · e_i (signed)
  kIntegratedGradients,  // from the all-zero embedding to e_i, trapezoid rule (signed)
  kLeaveOneOut,          // log p(y_t | x) − log p(y_t | x without token i), target forced
};

/// Every method, in the order menus list them.
const std::vector<AttributionMethod>& attribution_methods();
/// "grad", "gradxinput", "ig", "loo": the command line's and JSON's names.
std::string attribution_method_name(AttributionMethod method);
/// "gradient", "gradient × input", "integrated gradients", "leave one out": for titles.
std::string attribution_method_title(AttributionMethod method);
/// The method named `name` (attribution_method_name()); throws std::invalid_argument that lists
/// the names.
AttributionMethod parse_attribution_method(const std::string& name);

struct Attribution;

struct AttributionOptions {
  static constexpr int kMaxIgSteps = 1024;  // bounds the time and memory of one sentence
  // The completeness the app and `explain` refine to by default (ig_tolerance below).
  static constexpr double kCompleteWithin = 0.01;
  AttributionMethod method = AttributionMethod::kIntegratedGradients;
  int ig_steps = 32;  // integrated gradients: intervals of the path (1..kMaxIgSteps)
  // Integrated gradients, when > 0: the steps double from `ig_steps` (each doubling computes
  // only the new midpoints) until every row's completeness gap is within this fraction of its
  // log p − baseline log p, or kMaxIgSteps is reached. A model whose attention is nearly one-hot
  // jumps from word to word along the path and needs far more steps than a soft one.
  double ig_tolerance = 0.0;
  // With ig_tolerance: no doubling that would end, by the time the last pass took per point,
  // more than this many seconds after the attribution started (0: no limit). An interactive
  // caller bounds its wait so; the gap left is in the result (relative_completeness_gap()).
  double ig_seconds = 0.0;
  // With ig_tolerance: asked before each doubling; true stops there (a caller whose request
  // was superseded). The result so far is returned.
  std::function<bool()> stop_refining;
  // With ig_tolerance: handed the result so far after each pass that leaves it short of the
  // tolerance and goes on refining (its ig_cut_short true), so a caller can show it at once.
  std::function<void(const Attribution&)> on_refining;
};

struct Attribution {
  AttributionMethod method = AttributionMethod::kIntegratedGradients;
  Translation translation;  // what is explained (its attention included)
  // One row per output token, one value per source token; NaN where the method gives none
  // (leave one out: the appended end token, or a source of one token).
  std::vector<std::vector<float>> values;
  std::vector<float> log_probabilities;  // log p(y_t | x, y<t) per output token
  // Integrated gradients: log p(y_t | all-zero source embeddings, y<t); empty otherwise.
  std::vector<float> baseline_log_probabilities;
  int ig_steps = 0;
  // Integrated gradients refined to a tolerance (AttributionOptions::ig_tolerance) that stopped
  // short of it with steps to spare: its time limit (ig_seconds) or stop_refining ended it.
  bool ig_cut_short = false;

  /// Integrated gradients' completeness: each row should sum to log p − baseline log p. The
  /// largest |row sum − that difference| over the rows (0 for the other methods).
  float completeness_gap() const;
  /// The same gap relative to that difference: the largest |row sum − difference| / |difference|
  /// (rows whose difference is below 1e-4 count by their gap alone; 0 for the other methods).
  float relative_completeness_gap() const;
};

/// "" when `translator`'s model supports `method`, else why not (one line naming what is
/// missing). Leave one out needs only decoding, so every model supports it.
std::string attribution_support(const Translator& translator, AttributionMethod method);

/// The attribution of the model's own greedy translation of `sentence`, or of `target` by forced
/// decoding ("</s>" appended). Throws std::invalid_argument for options out of range and
/// std::runtime_error when the model does not support the method (attribution_support()).
Attribution attribute(const Translator& translator, const std::string& sentence,
                      const AttributionOptions& options,
                      const std::optional<std::string>& target = std::nullopt);
/// The same for output tokens as the model emits them (a step-wise session's, "<unk>" and
/// subword pieces as they are), nothing appended: end them with "</s>" when the output ended.
/// A target longer than the model would decode for this source (2 × its tokens + 10) is
/// refused with std::invalid_argument, which bounds time and memory.
Attribution attribute_tokens(const Translator& translator, const std::string& sentence,
                             const AttributionOptions& options,
                             const std::vector<std::string>& target_tokens);

/// Replaces one step's attention row by another distribution (over the same source tokens).
struct AttentionEdit {
  enum class Kind {
    kUniform,  // every source token the same weight
    kZero,     // the model's row with `positions` set to 0, renormalised
    kOneHot,   // all weight on positions[0]
    kShuffle,  // the model's row permuted at random (seeded by `seed`)
    kWeights,  // `weights`, renormalised
  };
  static constexpr int kEveryStep = -1;

  int step = kEveryStep;  // output step counted from 0, or kEveryStep
  Kind kind = Kind::kUniform;
  std::vector<int> positions;  // source tokens from 0 (kZero, kOneHot)
  uint64_t seed = 0;           // kShuffle
  std::vector<float> weights;  // kWeights: one per source token

  bool applies_to(int output_step) const { return step == kEveryStep || step == output_step; }
  /// The command line's spelling ("3:zero=1,2", steps from 1), which parse_attention_edit reads.
  std::string spec() const;
  /// The row this edit makes of the model's own `row`. Throws std::invalid_argument naming the
  /// problem: a position past the row, weights of the wrong count, negative, NaN or summing to
  /// 0, or zeroing every weight of the row.
  std::vector<float> apply(const std::vector<float>& row) const;
};

/// Parses STEP:uniform, STEP:zero=I[,J…], STEP:onehot=I, STEP:shuffle=SEED or
/// STEP:weights=W0,W1,… (STEP from 1, or "all"; positions from 0). Throws std::invalid_argument
/// "attention edit 'SPEC': PROBLEM".
AttentionEdit parse_attention_edit(const std::string& spec);

/// A decoding to try: attention edits, and tokens the caller chose at some steps (as a step-wise
/// session forces them).
struct WhatIf {
  std::vector<AttentionEdit> edits;
  std::map<int, std::string> forced;  // output step from 0 → target token
};

struct EditedTranslation {
  Translation translation;  // its attention holds the rows the steps read (edited ones included)
  std::vector<int> edited_steps;                  // output steps whose row was edited
  std::vector<std::vector<float>> original_rows;  // the model's own row at each edited step
};

/// "" when `translator`'s model can have its attention edited, else why not.
std::string edit_support(const Translator& translator);

/// Greedy decoding of `sentence` with `what_if` applied; the other steps read the model's own
/// attention. Editing a step to the model's own row changes nothing. Throws std::runtime_error
/// when the model cannot be edited (edit_support()), std::invalid_argument "attention edit
/// 'SPEC': PROBLEM" when an edit does not fit its row, its step is never reached or the sentence
/// is empty, and when two edits edit one step. An `all` edit applies before a step's own edit.
EditedTranslation translate_with_edits(const Translator& translator, const std::string& sentence,
                                       const WhatIf& what_if,
                                       const TranslationOptions& options = {});

}  // namespace attnscope
