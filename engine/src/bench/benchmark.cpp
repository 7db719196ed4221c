#include "attnscope/benchmark.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <filesystem>
#include <limits>

#include "attnscope/cpu_dispatch.h"
#include "attnscope/errors.h"
#include "attnscope/score_functions.h"
#include "attnscope/thread_settings.h"
#include "attnscope/translator.h"
#include "bench/python_random.h"
#include "decode/search.h"
#include "model/score/score_registry.h"
#include "model/seq2seq.h"
#include "train/allocator_tuning.h"
#include "train/data_parallel.h"
#include "train/fused_adam.h"
#include "train/parallel_corpus.h"

namespace attnscope {
namespace {

using Clock = std::chrono::steady_clock;

double elapsed_seconds(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Settings are named as BenchOptions names them; front ends map them onto their own controls.
void validate(const BenchOptions& o) {
  if (!is_score_function(o.score))
    ATTNSCOPE_THROW_SETTING("score", "unknown score function '", o.score, "' (",
                            score_function_list(), ")");
  if (o.embedding < 1)
    ATTNSCOPE_THROW_SETTING("embedding", "the embedding size must be at least 1");
  if (o.hidden < 1) ATTNSCOPE_THROW_SETTING("hidden", "the hidden size must be at least 1");
  if (o.batch_size < 1) ATTNSCOPE_THROW_SETTING("batch_size", "the batch size must be at least 1");
  if (o.min_frequency < 1)
    ATTNSCOPE_THROW_SETTING("min_frequency", "the minimum word frequency must be at least 1");
  if (o.train_batches < 1)
    ATTNSCOPE_THROW_SETTING("train_batches",
                            "the number of timed training batches must be at least 1");
  if (o.decode_sentences < 1)
    ATTNSCOPE_THROW_SETTING("decode_sentences",
                            "the number of decoded sentences must be at least 1");
  if (o.decode_steps < 1)
    ATTNSCOPE_THROW_SETTING("decode_steps", "the number of decoding steps must be at least 1");
  if (o.threads < 0) ATTNSCOPE_THROW_SETTING("threads", "the thread count must not be negative");
  parse_precision(o.precision);  // each throws for an unknown name
  parse_output_weights(o.output_weights);
}

std::string corpus_file(const BenchOptions& o, const char* name) {
  const std::filesystem::path path = std::filesystem::path(o.data_dir) / name;
  if (!std::filesystem::is_regular_file(path))
    ATTNSCOPE_THROW_RUNTIME_ERROR("benchmark corpus '", path.string(), "' not found");
  return path.string();
}

constexpr int kWarmupBatches = 3;  // as in the reference: first-call allocations stay untimed

}  // namespace

double training_flops(const ModelConfig& c, double source, double target, double source_x_target) {
  const double E = static_cast<double>(c.embedding), H = static_cast<double>(c.hidden);
  const double V = static_cast<double>(c.target_vocab);
  // Multiply-adds of one forward pass. Per source token: both encoder directions.
  double per_source = 2 * 3 * H * (E + H);
  double once = 2 * H * H;  // bridge
  // Per target step: decoder GRU cell on [embedding; context] and the output layer.
  double per_target = 3 * H * (E + 2 * H) + 3 * H * H;
  per_target += c.tied_readout ? (3 * H + E) * E + E * V : (3 * H + E) * V;
  // Per target step and source position: the context vector Σ aₛhₛ, plus the score's own work.
  double per_pair = 2 * H;
  const ScoreMultiplyAdds score = score_registration(c.score).multiply_adds(score_dimensions(c));
  per_source += static_cast<double>(score.per_source);
  per_target += static_cast<double>(score.per_target);
  per_pair += static_cast<double>(score.per_pair);
  const double forward_macs =
      once + per_source * source + per_target * target + per_pair * source_x_target;
  return 3.0 * 2.0 * forward_macs;  // forward + backward (2× forward), 2 FLOPs per MAC
}

double measure_gemm_gflops(int repeats, bool bfloat16) {
  torch::NoGradGuard no_grad;
  constexpr int64_t n = 2048;
  const auto type = bfloat16 ? torch::kBFloat16 : torch::kFloat;
  const torch::Tensor a = torch::randn({n, n}).to(type), b = torch::randn({n, n}).to(type);
  torch::Tensor c = torch::mm(a, b);
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i < std::max(1, repeats); ++i) {
    const auto start = Clock::now();
    torch::mm_out(c, a, b);
    best = std::min(best, elapsed_seconds(start));
  }
  return 2.0 * n * n * n / best / 1e9;
}

double measure_copy_gb_per_second(int64_t bytes) {
  torch::NoGradGuard no_grad;
  const int64_t count = std::max<int64_t>(1, bytes / 4);
  const torch::Tensor from = torch::rand({count}), to = torch::empty({count});
  to.copy_(from);
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i < 20; ++i) {
    const auto start = Clock::now();
    to.copy_(from);
    best = std::min(best, elapsed_seconds(start));
  }
  return static_cast<double>(count) * 4 / best / 1e9;
}

BenchResult run_benchmark(const BenchOptions& options) {
  validate(options);
  const std::string source_path = corpus_file(options, "train.en.gz");
  const std::string target_path = corpus_file(options, "train.de.gz");
  const ScopedThreadCount threads(options.threads);  // the caller's count back at the end
  torch::manual_seed(0);

  ModelConfig config;
  config.score = options.score;
  config.embedding = options.embedding;
  config.hidden = options.hidden;
  config.attention = options.hidden;
  config.tied_readout = false;  // the reference's single linear output layer
  config.dropout = 0.0;         // the reference has no dropout

  const TokenizedPairs text = read_parallel(source_path, target_path, config.max_source_length - 1);
  const Vocabulary source_vocabulary = Vocabulary::build(text.source, options.min_frequency);
  const Vocabulary target_vocabulary = Vocabulary::build(text.target, options.min_frequency);
  config.source_vocab = source_vocabulary.size();
  config.target_vocab = target_vocabulary.size();
  std::vector<IdPair> pairs = to_ids(text, source_vocabulary, target_vocabulary);
  // The reference sorts by source length only (a stable sort), cuts batches, shuffles them.
  std::stable_sort(pairs.begin(), pairs.end(), [](const IdPair& a, const IdPair& b) {
    return a.source.size() < b.source.size();
  });
  std::vector<std::vector<size_t>> batches;
  for (size_t start = 0; start < pairs.size(); start += static_cast<size_t>(options.batch_size)) {
    std::vector<size_t> batch;
    for (size_t i = start; i < std::min(pairs.size(), start + options.batch_size); ++i)
      batch.push_back(i);
    batches.push_back(std::move(batch));
  }
  PythonRandom(0).shuffle(batches);
  const int timed =
      std::min<int>(options.train_batches, static_cast<int>(batches.size()) - kWarmupBatches);
  if (timed < 1)
    ATTNSCOPE_THROW_INVALID_ARGUMENT("the corpus gives only ", batches.size(), " batches of ",
                                     options.batch_size, ": too few to time after ", kWarmupBatches,
                                     " warm-up batches");

  Seq2Seq model(config);
  BenchResult result;
  result.config = config;
  result.batch_size = options.batch_size;
  result.parameters = model->parameter_count();
  result.torch_version = TORCH_VERSION;
  result.threads = resolve_thread_count(options.threads);
  const Precision precision = parse_precision(options.precision);
  result.precision = precision_name(precision);
  result.kernel_isa = kernel_isa_summary();

  // Training: the engine's teacher-forcing path, as the trainer runs it.
  FusedAdam optimizer(model->parameters(), torch::optim::AdamOptions(1e-3));
  const AllocatorTuning allocator_tuning;  // as train() does, until the end
  model->train();
  int64_t sentences = 0, tokens = 0;
  double source_sum = 0, target_sum = 0, product_sum = 0;
  auto start = Clock::now();
  for (int i = 0; i < kWarmupBatches + timed; ++i) {
    if (i == kWarmupBatches) {
      start = Clock::now();
      sentences = tokens = 0;
    }
    const Batch batch = make_batch(pairs, batches[static_cast<size_t>(i)]);
    compute_gradients(*model, batch, 0.0, result.threads, 0, {}, precision);  // the trainer's step
    optimizer.clip_and_step(1.0);
    sentences += batch.source.size(0);
    tokens += batch.target_tokens;
    if (i >= kWarmupBatches) {
      for (size_t p : batches[static_cast<size_t>(i)]) {
        const double s = static_cast<double>(pairs[p].source.size());
        const double t = static_cast<double>(pairs[p].target.size() - 1);
        source_sum += s;
        target_sum += t;
        product_sum += s * t;
      }
    }
  }
  const double train_seconds = elapsed_seconds(start);
  result.train_sentences_per_second = static_cast<double>(sentences) / train_seconds;
  result.train_target_tokens_per_second = static_cast<double>(tokens) / train_seconds;
  result.mean_source_length = source_sum / static_cast<double>(sentences);
  result.mean_target_length = target_sum / static_cast<double>(sentences);
  result.mean_source_x_target = product_sum / static_cast<double>(sentences);

  // Decoding: greedy, one sentence at a time, a fixed number of steps, encoding included.
  std::vector<const IdPair*> decode_pairs;
  double decoded_source_tokens = 0;
  const size_t stride =
      std::max<size_t>(1, pairs.size() / static_cast<size_t>(options.decode_sentences));
  for (size_t i = 0;
       i < pairs.size() && decode_pairs.size() < static_cast<size_t>(options.decode_sentences);
       i += stride) {
    decode_pairs.push_back(&pairs[i]);
    decoded_source_tokens += static_cast<double>(pairs[i].source.size());
  }
  model->eval();
  {
    // Decode the model as the engine ships it: model files store half precision, so round the
    // weights once (what saving and loading does) and let the decoder use its half-precision
    // output path, exactly as a Translator loaded from a file would.
    {
      torch::NoGradGuard no_grad;
      for (auto& p : model->parameters()) p.copy_(p.to(torch::kHalf).to(torch::kFloat));
    }
    model->prepare_inference(parse_output_weights(options.output_weights));
    result.output_weights = options.output_weights;
    c10::InferenceMode inference;
    start = Clock::now();
    for (const IdPair* pair : decode_pairs) {
      const auto length = static_cast<int64_t>(pair->source.size());
      const EncodedBatch encoded =
          model->encode(torch::tensor(pair->source, torch::kLong).unsqueeze(0),
                        torch::full({1}, length, torch::kLong));
      torch::Tensor state = encoded.initial_state;
      torch::Tensor previous = torch::full({1}, Vocabulary::kBos, torch::kLong);
      for (int step = 0; step < options.decode_steps; ++step) {
        DecoderStep out = model->step(encoded.context, state, previous);
        state = out.state;
        previous = out.logits.argmax(1);
      }
    }
    const double decode_seconds = elapsed_seconds(start);
    const auto count = static_cast<double>(decode_pairs.size());
    result.decode_ms_per_sentence = decode_seconds * 1000.0 / count;
    result.decode_ms_per_token = result.decode_ms_per_sentence / options.decode_steps;
    // A token's own step, and its share of its sentence's encoding and per-sentence products
    // (both timed above).
    const auto mean_source = std::lround(decoded_source_tokens / count);
    const auto per_sentence = static_cast<double>(model->encoder()->bytes_read(mean_source) +
                                                  model->decoder()->bytes_read_per_sentence());
    result.decode_bytes_per_token =
        static_cast<double>(model->decoder()->bytes_read_per_step(mean_source)) +
        per_sentence / options.decode_steps;
  }
  result.copy_gb_per_second =
      measure_copy_gb_per_second(static_cast<int64_t>(result.decode_bytes_per_token));
  result.decode_floor_fraction = result.decode_bytes_per_token / (result.copy_gb_per_second * 1e9) /
                                 (result.decode_ms_per_token / 1000.0);

  result.train_flops_per_sentence = training_flops(
      config, result.mean_source_length, result.mean_target_length, result.mean_source_x_target);
  result.gemm_gflops = measure_gemm_gflops();
  if (precision == Precision::kBFloat16 || has_native_bfloat16())
    result.gemm_gflops_bf16 = measure_gemm_gflops(5, /*bfloat16=*/true);
  const double peak =
      precision == Precision::kBFloat16 ? result.gemm_gflops_bf16 : result.gemm_gflops;
  result.mfu = result.train_sentences_per_second * result.train_flops_per_sentence / (peak * 1e9);
  return result;
}

}  // namespace attnscope
