#include "decode/scripted_step_model.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

namespace attnscope {
namespace {

struct ScriptedRow {
  std::vector<torch::Tensor> state;  // what the module's encode() or step() returned
  int64_t source_length = 0;
};

struct ScriptedRows : DecoderRows {
  std::vector<ScriptedRow> rows;
};

}  // namespace

std::shared_ptr<const DecoderRows> ScriptedStepModel::encode(
    const std::vector<std::vector<int64_t>>& sources) {
  auto rows = std::make_shared<ScriptedRows>();
  for (const auto& source : sources)
    rows->rows.push_back({model_->encode(source), static_cast<int64_t>(source.size())});
  return rows;
}

StepOutput ScriptedStepModel::step(const DecoderRows& rows, const torch::Tensor& previous) {
  return run_step(rows, previous, torch::Tensor());
}

StepOutput ScriptedStepModel::step_with_attention(const DecoderRows& rows,
                                                  const torch::Tensor& previous,
                                                  const torch::Tensor& attention) {
  if (!model_->has_edit_method()) throw std::logic_error(edit_support());
  return run_step(rows, previous, attention);
}

// `attention`: [B,S] rows to read, or undefined for the model's own.
StepOutput ScriptedStepModel::run_step(const DecoderRows& rows, const torch::Tensor& previous,
                                       const torch::Tensor& attention) {
  const auto& scripted = static_cast<const ScriptedRows&>(rows);
  const auto batch = static_cast<int64_t>(scripted.rows.size());
  int64_t longest = 0;
  for (const auto& row : scripted.rows) longest = std::max(longest, row.source_length);
  const int64_t heads_per_row = static_cast<int64_t>(layers()) * heads();

  StepOutput out;
  std::vector<torch::Tensor> log_probs;
  out.attention = torch::zeros({batch, longest});
  torch::Tensor heads = torch::zeros({batch, heads_per_row, longest});
  auto next = std::make_shared<ScriptedRows>();
  const auto* previous_ids = previous.data_ptr<int64_t>();
  for (int64_t b = 0; b < batch; ++b) {
    const ScriptedRow& row = scripted.rows[static_cast<size_t>(b)];
    const torch::Tensor given =
        attention.defined() ? attention[b].narrow(0, 0, row.source_length) : torch::Tensor();
    // The model's own row given back must change nothing. With one head the module reproduces
    // step() itself (the protocol asks it); with several, every head reading the heads' mean is
    // another computation, so the row is compared with step()'s first.
    std::optional<ScriptedStep> s;
    if (!given.defined() || heads_per_row > 1) {
      s = model_->step(row.state, previous_ids[b], row.source_length);
      if (given.defined() && !torch::equal(given, s->attention[-1].mean(0))) s.reset();
    }
    if (!s) s = model_->step_with_attention(row.state, previous_ids[b], given, row.source_length);
    log_probs.push_back(s->log_probs);
    // What a single-matrix view shows of a multi-head model: its last layer, heads averaged.
    out.attention[b].narrow(0, 0, row.source_length).copy_(s->attention[-1].mean(0));
    heads[b].narrow(1, 0, row.source_length).copy_(s->attention.reshape({heads_per_row, -1}));
    next->rows.push_back({std::move(s->state), row.source_length});
  }
  out.log_probs = torch::stack(log_probs);
  if (heads_per_row > 1) out.heads = heads;
  out.next = std::move(next);
  return out;
}

std::shared_ptr<const DecoderRows> ScriptedStepModel::select(const DecoderRows& rows,
                                                             const std::vector<int64_t>& which) {
  const auto& scripted = static_cast<const ScriptedRows&>(rows);
  auto selected = std::make_shared<ScriptedRows>();
  for (int64_t i : which) selected->rows.push_back(scripted.rows.at(static_cast<size_t>(i)));
  return selected;
}

}  // namespace attnscope
