#include <attnscope/benchmark.h>
#include <attnscope/explanation_benchmark.h>
#include <attnscope/model_catalog.h>

#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "cli/command.h"

namespace attnscope::cli {
namespace {

// Like Python's round(x, digits), ties to even (nearbyint in the default rounding mode), so
// both implementations print figures alike; Python rounds the exact decimal value, which can
// differ in the last digit for values that are not exact in binary.
double rounded(double value, int digits) {
  const double scale = std::pow(10.0, digits);
  return std::nearbyint(value * scale) / scale;
}

// The reference script's keys, in its order, then the engine's extra figures.
std::string to_json_line(const BenchResult& r) {
  nlohmann::ordered_json j;
  j["impl"] = "attnscope-cpp";
  j["torch"] = r.torch_version;
  j["threads"] = r.threads;
  j["emb"] = r.config.embedding;
  j["hidden"] = r.config.hidden;
  j["score"] = r.config.score;
  j["batch"] = r.batch_size;
  j["src_vocab"] = r.config.source_vocab;
  j["tgt_vocab"] = r.config.target_vocab;
  j["params"] = r.parameters;
  j["train_sent_per_s"] = rounded(r.train_sentences_per_second, 2);
  j["train_tgt_tok_per_s"] = rounded(r.train_target_tokens_per_second, 1);
  j["decode_ms_per_token"] = rounded(r.decode_ms_per_token, 4);
  j["decode_ms_per_sent"] = rounded(r.decode_ms_per_sentence, 3);
  j["train_flops_per_sent"] = std::llround(r.train_flops_per_sentence);
  j["precision"] = r.precision;
  j["output_weights"] = r.output_weights;
  j["kernels"] = r.kernel_isa;
  j["gemm_gflops"] = rounded(r.gemm_gflops, 2);
  if (r.gemm_gflops_bf16 > 0) j["gemm_gflops_bf16"] = rounded(r.gemm_gflops_bf16, 2);
  j["mfu"] = rounded(r.mfu, 4);
  j["decode_bytes_per_token"] = std::llround(r.decode_bytes_per_token);
  j["copy_gb_per_s"] = rounded(r.copy_gb_per_second, 2);
  j["decode_floor_fraction"] = rounded(r.decode_floor_fraction, 4);
  return j.dump();
}

// BenchOptions' names for the settings this command's flags set.
const FlagNames kBenchFlags = {
    {"score", "--score"},
    {"embedding", "--emb"},
    {"hidden", "--hidden"},
    {"batch_size", "--batch"},
    {"min_frequency", "--min-freq"},
    {"train_batches", "--train-batches"},
    {"decode_sentences", "--decode-sentences"},
    {"decode_steps", "--decode-steps"},
    {"threads", "--threads"},
    {"precision", "--precision"},
    {"output_weights", "--output-weights"},
};

std::string to_json_line(const ExplainTiming& t, const ExplainBenchOptions& o) {
  nlohmann::ordered_json j;
  j["impl"] = "attnscope-cpp";
  j["model"] = o.model;
  j["threads"] = o.threads;
  j["method"] = attribution_method_name(t.method);
  if (t.method == AttributionMethod::kIntegratedGradients) j["ig_steps"] = o.ig_steps;
  j["words"] = t.words;
  j["source_tokens"] = t.source_tokens;
  j["output_tokens"] = t.output_tokens;
  j["median_ms"] = rounded(t.median_ms, 1);
  return j.dump();
}

}  // namespace

Action add_bench_command(CLI::App& app) {
  auto o = std::make_shared<BenchOptions>();
  o->data_dir = "../shared/data/multi30k";
  app.add_option("--data", o->data_dir, "folder with Multi30k's train.en.gz and train.de.gz")
      ->capture_default_str();
  app.add_option("--emb", o->embedding, "embedding size")->capture_default_str();
  app.add_option("--hidden", o->hidden, "GRU size")->capture_default_str();
  app.add_option("--score", o->score, "attention score function")
      ->check(CLI::IsMember(score_function_names()))
      ->capture_default_str();
  app.add_option("--batch", o->batch_size, "sentences per training batch")->capture_default_str();
  app.add_option("--min-freq", o->min_frequency, "vocabulary: minimum word count")
      ->capture_default_str();
  app.add_option("--train-batches", o->train_batches, "timed training batches (after 3 warm-up)")
      ->capture_default_str();
  app.add_option("--decode-sentences", o->decode_sentences, "sentences decoded greedily, batch 1")
      ->capture_default_str();
  app.add_option("--decode-steps", o->decode_steps, "fixed greedy steps per sentence")
      ->capture_default_str();
  app.add_option("--precision", o->precision,
                 "training's matrix products: auto (bf16 where the CPU has AVX512-BF16 or AMX), "
                 "fp32 or bf16")
      ->check(CLI::IsMember({"auto", "fp32", "bf16"}))
      ->capture_default_str();
  app.add_option("--output-weights", o->output_weights,
                 "decoding's output layer: int8 (8-bit integers, its largest logits computed "
                 "again from the stored weights; what one-sentence decoding uses by default) or "
                 "stored (half precision, as a model file)")
      ->check(CLI::IsMember({"stored", "int8"}))
      ->capture_default_str();
  add_threads_option(app, o->threads);
  auto explain = std::make_shared<ExplainBenchOptions>();
  auto* explain_flag =
      app.add_flag("--explain",
                   "time attributions instead (explain's methods; the first test_2016_flickr "
                   "sentence of 10, 20 and 25 words; median of 3 runs)");
  app.add_option("--model", explain->model, "with --explain: a shipped model's name or a file")
      ->default_val("additive");
  app.add_option("--ig-steps", explain->ig_steps, "with --explain: integrated gradients' steps")
      ->check(CLI::Range(1, AttributionOptions::kMaxIgSteps))
      ->capture_default_str();
  return [o, explain, explain_flag] {
    if (*explain_flag) {
      explain->threads = o->threads;
      explain->sentences = (std::filesystem::path(o->data_dir) / "test_2016_flickr.en.gz").string();
      for (const ExplainTiming& t : run_explain_benchmark(*explain))
        std::cout << to_json_line(t, *explain) << std::endl;
      return 0;
    }
    if (!std::filesystem::is_directory(o->data_dir))
      throw std::invalid_argument("data folder '" + o->data_dir +
                                  "' not found; give --data DIR with train.en.gz and train.de.gz");
    return run_with_flags(kBenchFlags, [&] {
      std::cout << to_json_line(run_benchmark(*o)) << std::endl;
      return 0;
    });
  };
}

}  // namespace attnscope::cli
