#include "ops/output_gradient_sum.h"

#include "ops/bfloat16_conversion.h"
#include "ops/mixed_precision.h"

namespace attnscope {

struct OutputGradientSum::Part {
  torch::Tensor weight;
  std::vector<torch::Tensor> blocks;  // bfloat16 [V, F_i]
};

namespace {

// The part that the worker on this thread fills, if any.
thread_local std::shared_ptr<OutputGradientSum::Part>* active_part = nullptr;

}  // namespace

OutputGradientSum::OutputGradientSum(int64_t workers) {
  for (int64_t w = 0; w < workers; ++w) parts_.push_back(std::make_shared<Part>());
}

OutputGradientSum::Scope::Scope(OutputGradientSum& sum, int64_t worker) {
  TORCH_CHECK(active_part == nullptr, "OutputGradientSum scopes do not nest");
  active_part = &sum.parts_.at(static_cast<size_t>(worker));
}

OutputGradientSum::Scope::~Scope() { active_part = nullptr; }

bool leave_output_gradient(const torch::Tensor& weight, std::vector<torch::Tensor> blocks) {
  if (active_part == nullptr || matmul_precision() != Precision::kBFloat16) return false;
  OutputGradientSum::Part& part = **active_part;
  TORCH_CHECK(!part.weight.defined(), "one output layer per OutputGradientSum");
  for (const auto& block : blocks)
    TORCH_CHECK(block.scalar_type() == torch::kBFloat16 && block.is_contiguous() &&
                    block.size(0) == weight.size(0),
                "leave_output_gradient: dense bfloat16 blocks of the weight's rows expected");
  part.weight = weight;
  part.blocks = std::move(blocks);
  return true;
}

void OutputGradientSum::prepare() {
  for (const auto& part : parts_)
    if (part->weight.defined()) {
      TORCH_CHECK(!weight_.defined() || weight_.is_same(part->weight),
                  "OutputGradientSum: the workers' parts are of different weights");
      weight_ = part->weight;
    }
  if (weight_.defined()) gradient_ = torch::empty(weight_.sizes(), torch::kFloat);
}

void OutputGradientSum::add_rows(int64_t part, int64_t parts, const torch::Tensor& base) {
  if (!gradient_.defined()) return;
  const int64_t V = gradient_.size(0), F = gradient_.size(1);
  const int64_t begin = V * part / parts, rows = V * (part + 1) / parts - begin;
  torch::Tensor out = gradient_.narrow(0, begin, rows);
  if (base.defined()) out.copy_(base.narrow(0, begin, rows));
  // Column block by column block, the workers' parts in worker order.
  std::vector<const Part*> given;
  for (const auto& p : parts_)
    if (p->weight.defined()) given.push_back(p.get());
  int64_t column = 0;
  for (size_t b = 0; b < given.front()->blocks.size(); ++b) {
    const int64_t width = given.front()->blocks[b].size(1);
    std::vector<const uint16_t*> sources;
    for (const Part* p : given) {
      const torch::Tensor& block = p->blocks.at(b);
      TORCH_CHECK(block.size(1) == width, "OutputGradientSum: the workers' blocks differ");
      sources.push_back(reinterpret_cast<const uint16_t*>(block.data_ptr()) + begin * width);
    }
    add_bfloat16_rows(sources, rows, width, out.data_ptr<float>() + column, F, base.defined());
    column += width;
  }
  TORCH_CHECK(column == F, "OutputGradientSum: the blocks do not cover the weight's columns");
}

}  // namespace attnscope
