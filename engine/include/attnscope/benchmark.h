#pragma once
// Speed figures of the engine, measured the way the Python reference implementation measures
// itself (bench/compare.sh runs both), so the two can be compared line by line.
#include <cstdint>
#include <string>

#include "attnscope/model_config.h"

namespace attnscope {

/// What to benchmark; the defaults are the reference script's.
struct BenchOptions {
  std::string data_dir;  // holds train.en.gz and train.de.gz
  std::string score = "additive";
  int64_t embedding = 256;
  int64_t hidden = 256;  // also the additive score's inner size, as in the reference
  int batch_size = 64;
  int min_frequency = 2;
  int train_batches = 40;     // timed, after 3 untimed warm-up batches
  int decode_sentences = 50;  // greedy, batch 1
  int decode_steps = 20;      // fixed per sentence: decoding does not stop at </s>
  int threads = 0;            // 0 = every core
  // Training's matrix products (cpu_dispatch.h): "auto", "fp32" or "bf16". Decoding runs as
  // a model loaded from a file does, in either case.
  std::string precision = "auto";
  // Decoding's output layer: "int8" (cpu_dispatch.h; what one-sentence decoding uses by
  // default, in the app and `translate`) or "stored" (half precision, as the file).
  std::string output_weights = "int8";
};

struct BenchResult {
  std::string torch_version;
  int threads = 0;
  ModelConfig config;  // the benchmarked model (vocabulary sizes filled in)
  int batch_size = 0;
  int64_t parameters = 0;
  double train_sentences_per_second = 0.0;
  double train_target_tokens_per_second = 0.0;  // predicted tokens: </s> counted, <s> not
  double decode_ms_per_token = 0.0;
  double decode_ms_per_sentence = 0.0;
  // Mean lengths over the timed training sentences: source tokens with </s>, predicted target
  // tokens, and the mean of their product (attention cost grows with it).
  double mean_source_length = 0.0;
  double mean_target_length = 0.0;
  double mean_source_x_target = 0.0;
  double train_flops_per_sentence = 0.0;  // forward + backward, see training_flops()
  std::string precision;                  // of training's products: "fp32" or "bf16"
  std::string output_weights;             // decoding's output layer: "stored" or "int8"
  std::string kernel_isa;    // kernel_isa_summary(): the kernels' path and the CPU's features
  double gemm_gflops = 0.0;  // 2048 × 2048 float matmul at the same thread count, best of 5
  // The same in bfloat16 (oneDNN: AMX or AVX512-BF16 where the CPU has them); 0 when training
  // ran in float32 and the CPU has no native bfloat16.
  double gemm_gflops_bf16 = 0.0;
  // train_sentences_per_second · train_flops_per_sentence / the GEMM peak of training's
  // precision (the roofline fraction of training).
  double mfu = 0.0;
  // Decoding's roofline: bytes a greedy token reads (its step's, plus its share of encoding
  // its sentence and of the per-sentence products, at the decoded sentences' mean length), the
  // read bandwidth of a copy of that many bytes (so from the same cache level) with decoding's
  // threads, and the floor they give over the time.
  double decode_bytes_per_token = 0.0;
  double copy_gb_per_second = 0.0;
  double decode_floor_fraction = 0.0;  // (bytes / bandwidth) / decode time per token
};

/// Trains the model for options.train_batches batches (Adam 1e-3, clipping 1.0, cross-entropy
/// without label smoothing, no dropout), then decodes greedily one sentence at a time, and times
/// both. Batching and sentence selection follow the reference script exactly, including its
/// Python random.seed(0) batch shuffle. Throws SettingError for bad options and
/// std::runtime_error when the corpus cannot be read.
BenchResult run_benchmark(const BenchOptions& options);

/// Matrix-multiply FLOPs (2 per multiply-add) of one training sentence, forward and backward
/// (backward counted as twice the forward), for the model's mathematical definition: encoder
/// GRUs, bridge, score function, context vector, decoder GRU cell and output layer. Element-wise
/// work, softmax and embedding lookups are not counted. Lengths are per-sentence means.
double training_flops(const ModelConfig& config, double mean_source_length,
                      double mean_target_length, double mean_source_x_target);

/// GFLOP/s of a 2048 × 2048 matrix product (float32, or bfloat16 operands and result) with
/// torch's current thread count, best of `repeats` after one warm-up.
double measure_gemm_gflops(int repeats = 5, bool bfloat16 = false);

/// GB/s read by copying a buffer of `bytes` with torch's current thread count, best of 20 after
/// one warm-up: the bandwidth of the cache level (or memory) that holds that many bytes.
double measure_copy_gb_per_second(int64_t bytes);

}  // namespace attnscope
