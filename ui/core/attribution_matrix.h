#pragma once
// An attribution (how much each output token's log-probability depends on each source token)
// as a heatmap draws it: shaped like the attention, titled with its method, in words or pieces.
#include <attnscope/explanation.h>

#include <QString>

#include "core/attention_matrix.h"

namespace attnscope::ui {

/// "gradient", "leave one out", "integrated gradients (64 steps, gap 0.6%)"; integrated gradients
/// short of the completeness target say so on a line of their own (a narrow plot elides each
/// line, and a warning at the end of one long line was cut off): "gap above 1%: refining…" while
/// `refining`, else "gap above 1%: refining stopped (time limit, or you moved on)".
QString attributionTitle(const Attribution& attribution, bool refining = false);

/// Whether the method's values may be negative (a colour scale centred on 0): all but the
/// gradient's norm.
bool isSignedMethod(AttributionMethod method);

/// Why a cell of the method has no value (NaN), for hover texts.
QString noValueReason(AttributionMethod method);

/// What a cell's value is, beside the colour scale and in hover texts.
QString attributionValueName(AttributionMethod method);

/// Integrated gradients' completeness at output step `step`, both numbers: "row sum 1.204 vs
/// log p − baseline log p = … = 1.201 (gap 0.003)"; "" for the other methods.
QString completenessText(const Attribution& attribution, int step);

/// The first `steps` rows of `attribution` (all when negative or more than it has) as a matrix,
/// titled attributionTitle(), in words when `view` says so for a subword model (a word's source
/// pieces summed, its target pieces' rows averaged, as the attention's).
AttentionMatrix attributionMatrix(const Attribution& attribution, int steps,
                                  const AttentionView& view, bool refining = false);

/// Step `step`'s row over the source: tokens, or words (a word's pieces summed) when `words`.
std::vector<float> attributionRow(const Attribution& attribution, int step, bool words);

}  // namespace attnscope::ui
