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

torch::Tensor OutputGradientSum::left_weight() const {
  torch::Tensor weight;
  for (const auto& part : parts_)
    if (part->weight.defined()) {
      TORCH_CHECK(!weight.defined() || weight.is_same(part->weight),
                  "OutputGradientSum: the workers' parts are of different weights");
      weight = part->weight;
    }
  return weight;
}

void OutputGradientSum::prepare(std::vector<torch::Tensor> others) {
  weight_ = left_weight();
  if (!weight_.defined()) return;
  others.resize(parts_.size());
  for (size_t w = 0; w < parts_.size(); ++w) {
    const torch::Tensor& other = others[w];
    TORCH_CHECK(!other.defined() || other.sizes() == weight_.sizes(),
                "OutputGradientSum: another gradient of a different shape");
    TORCH_CHECK(!other.defined() || parts_[w]->weight.defined(),
                "OutputGradientSum: a worker's other gradient without its part");
    others_.push_back(other.defined() ? other.to(torch::kFloat).contiguous() : other);
  }
  gradient_ = torch::empty(weight_.sizes(), torch::kFloat);
}

void OutputGradientSum::add_rows(int64_t part, int64_t parts) {
  if (!gradient_.defined()) return;
  const int64_t V = gradient_.size(0), F = gradient_.size(1);
  const int64_t begin = V * part / parts, rows = V * (part + 1) / parts - begin;
  float* out = gradient_.data_ptr<float>() + begin * F;
  // Column block by column block, the workers' parts in worker order.
  std::vector<size_t> given;
  for (size_t w = 0; w < parts_.size(); ++w)
    if (parts_[w]->weight.defined()) given.push_back(w);
  const size_t blocks = parts_[given.front()]->blocks.size();
  int64_t column = 0;
  for (size_t b = 0; b < blocks; ++b) {
    const int64_t width = parts_[given.front()]->blocks[b].size(1);
    std::vector<const uint16_t*> sources;
    std::vector<const float*> addends;
    for (const size_t w : given) {
      const torch::Tensor& block = parts_[w]->blocks.at(b);
      TORCH_CHECK(block.size(1) == width, "OutputGradientSum: the workers' blocks differ");
      sources.push_back(reinterpret_cast<const uint16_t*>(block.data_ptr()) + begin * width);
      addends.push_back(others_[w].defined() ? others_[w].data_ptr<float>() + begin * F + column
                                             : nullptr);
    }
    add_bfloat16_rows(sources, addends, F, rows, width, out + column, F);
    column += width;
  }
  TORCH_CHECK(column == F, "OutputGradientSum: the blocks do not cover the weight's columns");
}

}  // namespace attnscope
