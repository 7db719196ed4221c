#include "engine/scripted_modules.h"

#include <torch/script.h>

#include <algorithm>
#include <cmath>

#include "engine/test_models.h"

namespace attnscope::testing {

std::string write_scripted_module(const ScriptedModuleSpec& spec, const std::string& name) {
  torch::jit::Module m("ToyCopy");
  auto skipped = [&](const std::string& attribute) {
    return std::find(spec.without_attributes.begin(), spec.without_attributes.end(), attribute) !=
           spec.without_attributes.end();
  };
  auto add = [&](const std::string& attribute, const c10::TypePtr& type, const c10::IValue& value) {
    if (!skipped(attribute)) m.register_attribute(attribute, type, value);
  };
  c10::List<std::string> vocabulary;
  for (const auto& token : spec.vocabulary) vocabulary.push_back(token);
  add("src_vocab", c10::ListType::ofStrings(), vocabulary);
  add("tgt_vocab", c10::ListType::ofStrings(), vocabulary.copy());
  // step() sizes its output by this, so the protocol's attributes can each be left out.
  m.register_attribute("toy_vocabulary_size", c10::IntType::get(),
                       static_cast<int64_t>(spec.vocabulary.size()));
  add("bos_id", c10::IntType::get(), spec.bos);
  add("eos_id", c10::IntType::get(), spec.eos);
  add("unk_id", c10::IntType::get(), spec.unk);
  add("src_append_eos", c10::BoolType::get(), true);
  add("tokenizer", c10::StringType::get(), spec.tokenizer);
  add("name", c10::StringType::get(), name);
  if (spec.protocol != 1)
    add("attnscope_protocol", c10::IntType::get(), static_cast<int64_t>(spec.protocol));
  if (!spec.subword_marker.empty())
    add("subword_marker", c10::StringType::get(), spec.subword_marker);
  if (!spec.source_language.empty()) add("src_lang", c10::StringType::get(), spec.source_language);
  if (!spec.examples.empty()) {
    c10::List<std::string> examples;
    for (const auto& example : spec.examples) examples.push_back(example);
    add("examples", c10::ListType::ofStrings(), examples);
  }

  const std::string attention =
      spec.layers == 0
          ? "        attention = torch.softmax(-0.5 * distance, dim=0)\n"
          : "        sharpness = (torch.arange(" + std::to_string(spec.layers * spec.heads) +
                ").float() + 1.0).reshape([" + std::to_string(spec.layers) + ", " +
                std::to_string(spec.heads) +
                ", 1]) * 0.5\n"
                "        attention = torch.softmax(-sharpness * distance, dim=-1)\n";
  std::string source =
      "def encode(self, src: Tensor) -> List[Tensor]:\n"
      "    return [src, torch.zeros_like(src[:1])]\n";
  if (spec.with_step)
    source +=
        "def step(self, state: List[Tensor], prev: Tensor) -> Tuple[Tensor, Tensor, "
        "List[Tensor]]:\n"
        "        src = state[0]\n"
        "        t = state[1]\n"
        "        n = src.size(0)\n"
        "        position = torch.clamp(t, max=n - 1)\n"
        "        distance = (torch.arange(n) - position).abs().float()\n" +
        attention +
        "        scores = torch.zeros([self.toy_vocabulary_size]).index_fill_(0, "
        "src.index_select(0, position), 5.0)\n"
        "        log_probs = torch.log_softmax(scores, dim=0)\n" +
        spec.break_step + "        return log_probs, attention, [src, t + 1]\n";
  m.define(source);
  const std::string path = temporary_folder() + "/" + name + ".pt";
  m.save(path);
  return path;
}

std::vector<float> toy_attention(int t, int n, float sharpness) {
  const int position = std::min(t, n - 1);
  std::vector<float> row(static_cast<size_t>(n));
  float total = 0.0f;
  for (int s = 0; s < n; ++s)
    total += row[static_cast<size_t>(s)] =
        std::exp(-sharpness * static_cast<float>(std::abs(s - position)));
  for (float& value : row) value /= total;
  return row;
}

}  // namespace attnscope::testing
