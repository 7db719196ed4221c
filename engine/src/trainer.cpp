#include "attnscope/trainer.h"

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <numeric>
#include <random>
#include <sstream>

#include "attnscope/bleu.h"
#include "attnscope/errors.h"
#include "attnscope/model_catalog.h"
#include "attnscope/text.h"
#include "attnscope/translator.h"
#include "attnscope/corpus.h"
#include "allocator_tuning.h"
#include "checkpoint.h"
#include "data_parallel.h"
#include "fused_adam.h"
#include "parallel_corpus.h"
#include "search.h"
#include "training_loss.h"
#include "seq2seq.h"

namespace attnscope {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int64_t kMaxTrainDimension = 4096;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Fails now, not after an hour of training, when the model could not be written.
void check_writable(const std::string& output_path) {
  namespace fs = std::filesystem;
  if (output_path.empty()) ATTNSCOPE_THROW_INVALID_ARGUMENT("--out is empty: give a model file name");
  const fs::path path(output_path);
  if (fs::is_directory(path))
    ATTNSCOPE_THROW_INVALID_ARGUMENT("output '", output_path, "' is a directory, not a file name");
  // Saving renames a temporary file over these: never over a device, a FIFO or a folder.
  for (const std::string& target : {output_path, output_path + ".state"}) {
    std::error_code ec;
    const auto status = fs::status(target, ec);
    if (fs::exists(status) && !fs::is_regular_file(status))
      ATTNSCOPE_THROW_INVALID_ARGUMENT("output '", target, "' exists and is not a regular file");
  }
  const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
  if (!fs::is_directory(folder))
    ATTNSCOPE_THROW_INVALID_ARGUMENT("output folder '", folder.string(), "' does not exist");
  const std::string probe = (folder / (".attnscope-write-test." + std::to_string(::getpid()))).string();
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0)
    ATTNSCOPE_THROW_INVALID_ARGUMENT("cannot write to output folder '", folder.string(),
                                     "': ", std::strerror(errno));
  ::close(fd);
  ::unlink(probe.c_str());
}

// A loss for a message: NaN as "nan" whatever its sign bit (the fused loss can give -nan).
std::string loss_text(double loss) {
  if (std::isnan(loss)) return "nan";
  std::ostringstream text;
  text << loss;
  return text.str();
}

void notify(const TrainObserver& observer, const std::string& text) {
  if (observer.message) observer.message(text);
}

std::string optimizer_bytes(torch::optim::Adam& optimizer) {
  std::ostringstream out;
  torch::serialize::OutputArchive archive;
  optimizer.save(archive);
  archive.save_to(out);
  return out.str();
}

void load_optimizer(torch::optim::Adam& optimizer, const torch::Tensor& bytes) {
  std::istringstream in(std::string(static_cast<const char*>(bytes.data_ptr()),
                                    static_cast<size_t>(bytes.numel())));
  torch::serialize::InputArchive archive;
  archive.load_from(in);
  optimizer.load(archive);
}

void set_learning_rate(torch::optim::Adam& optimizer, double rate) {
  for (auto& group : optimizer.param_groups())
    static_cast<torch::optim::AdamOptions&>(group.options()).lr(rate);
}

// Where an interrupted run picks up.
struct ResumeState {
  int epochs_done = 0;
  int best_epoch = 0;
  double best_bleu = -1.0;
  double best_loss = 0.0;
  int bad_epochs = 0;
  double learning_rate = 0.0;
  double seconds = 0.0;
  bool stopped = false;  // early stopping already ended the run

  nlohmann::json to_json() const {
    return {{"epochs_done", epochs_done}, {"best_epoch", best_epoch}, {"best_bleu", best_bleu},
            {"best_loss", best_loss},     {"bad_epochs", bad_epochs}, {"learning_rate", learning_rate},
            {"seconds", seconds},         {"stopped", stopped}};
  }
  static ResumeState from_json(const nlohmann::json& j) {
    ResumeState s;
    s.epochs_done = j.at("epochs_done").get<int>();
    s.best_epoch = j.at("best_epoch").get<int>();
    s.best_bleu = j.at("best_bleu").get<double>();
    s.best_loss = j.at("best_loss").get<double>();
    s.bad_epochs = j.at("bad_epochs").get<int>();
    s.learning_rate = j.at("learning_rate").get<double>();
    s.seconds = j.at("seconds").get<double>();
    s.stopped = j.at("stopped").get<bool>();
    return s;
  }
};

struct Validation {
  double loss = 0.0;
  double bleu = 0.0;
};

class Trainer {
 public:
  Trainer(const TrainOptions& options, const TrainObserver& observer)
      : options_(options), observer_(observer) {}

  TrainingRecord run() {
    validate_options();
    check_writable(options_.output_path);
    const int64_t max_words = options_.model.max_source_length - 1;
    TokenizedPairs train_text = read_parallel(options_.source_path, options_.target_path, max_words);
    TokenizedPairs valid_text = read_parallel(options_.validation_source_path,
                                              options_.validation_target_path, max_words);
    // The test set is only used after the last epoch: a bad one must fail before the first.
    if (!options_.test_source_path.empty()) {
      test_sources_ = read_utf8_lines(options_.test_source_path);
      test_references_ = read_utf8_lines(options_.test_target_path);
      if (test_sources_.size() != test_references_.size())
        ATTNSCOPE_THROW_INVALID_ARGUMENT("'", options_.test_source_path, "' has ",
                                         test_sources_.size(), " lines but '",
                                         options_.test_target_path, "' has ",
                                         test_references_.size());
    }
    if (train_text.skipped > 0)
      notify(observer_, error_message("skipped ", train_text.skipped,
                                      " training pairs with an empty side or over ", max_words,
                                      " source words"));
    const std::string state_path = options_.output_path + ".state";
    torch::manual_seed(options_.seed);
    if (options_.resume && std::filesystem::exists(state_path)) {
      restore(state_path);
    } else {
      if (options_.resume) notify(observer_, "no training state '" + state_path + "' yet: starting afresh");
      start(train_text);
    }
    train_pairs_ = to_ids(train_text, source_vocabulary_, target_vocabulary_);
    valid_pairs_ = to_ids(valid_text, source_vocabulary_, target_vocabulary_);
    valid_references_ = valid_text.target;
    record_.corpus = error_message(std::filesystem::path(options_.source_path).filename().string(),
                                   " + ", std::filesystem::path(options_.target_path).filename().string(),
                                   " (", train_pairs_.size(), " pairs)");
    record_.command = options_.command;
    record_.seed = options_.seed;
    train_epochs(state_path);
    if (!options_.test_source_path.empty()) measure_test();
    return record_;
  }

 private:
  void validate_options() const {
    if (!is_score_function(options_.model.score))
      ATTNSCOPE_THROW_INVALID_ARGUMENT("unknown score function '", options_.model.score,
                                       "' (dot, general, additive, scaled_dot, cosine, location)");
    if (options_.epochs < 1) ATTNSCOPE_THROW_INVALID_ARGUMENT("--epochs must be at least 1");
    if (options_.batch_size < 1) ATTNSCOPE_THROW_INVALID_ARGUMENT("--batch must be at least 1");
    // The upper bound keeps a typo (--hidden 100000) from allocating tens of gigabytes.
    if (options_.model.embedding < 1 || options_.model.hidden < 1 ||
        options_.model.embedding > kMaxTrainDimension || options_.model.hidden > kMaxTrainDimension)
      ATTNSCOPE_THROW_INVALID_ARGUMENT("--emb and --hidden must be between 1 and ",
                                       kMaxTrainDimension);
    if (!(options_.model.dropout >= 0.0 && options_.model.dropout < 1.0))
      ATTNSCOPE_THROW_INVALID_ARGUMENT("--dropout must be at least 0 and below 1, not ",
                                       options_.model.dropout);
    if (!(options_.learning_rate > 0.0 && std::isfinite(options_.learning_rate)))
      ATTNSCOPE_THROW_INVALID_ARGUMENT("--lr must be a positive number, not ", options_.learning_rate);
    if (options_.test_source_path.empty() != options_.test_target_path.empty())
      ATTNSCOPE_THROW_INVALID_ARGUMENT("give both --test-src and --test-tgt, or neither");
  }

  void start(const TokenizedPairs& train_text) {
    source_vocabulary_ = Vocabulary::build(train_text.source, options_.min_frequency);
    target_vocabulary_ = Vocabulary::build(train_text.target, options_.min_frequency);
    config_ = options_.model;
    config_.source_vocab = source_vocabulary_.size();
    config_.target_vocab = target_vocabulary_.size();
    model_ = Seq2Seq(config_);
    optimizer_ = std::make_unique<FusedAdam>(model_->parameters(),
                                             torch::optim::AdamOptions(options_.learning_rate));
    state_.learning_rate = options_.learning_rate;
  }

  void restore(const std::string& state_path) {
    Checkpoint checkpoint = load_checkpoint(state_path);
    config_ = checkpoint.config;
    source_vocabulary_ = checkpoint.source_vocabulary;
    target_vocabulary_ = checkpoint.target_vocabulary;
    model_ = Seq2Seq(config_);
    load_parameters(*model_, checkpoint, state_path);
    optimizer_ = std::make_unique<FusedAdam>(model_->parameters(),
                                             torch::optim::AdamOptions(options_.learning_rate));
    for (const auto& [name, tensor] : checkpoint.tensors)
      if (name == "optimizer") load_optimizer(*optimizer_, tensor);
    try {
      state_ = ResumeState::from_json(checkpoint.extra.at("resume"));
    } catch (const nlohmann::json::exception&) {
      ATTNSCOPE_THROW_RUNTIME_ERROR("'", state_path, "' is not a training state file");
    }
    set_learning_rate(*optimizer_, state_.learning_rate);
    record_ = checkpoint.training;
    notify(observer_, error_message("resuming '", state_path, "' after epoch ", state_.epochs_done));
  }

  void train_epochs(const std::string& state_path) {
    const auto batches = length_buckets(train_pairs_, options_.batch_size);
    for (int epoch = state_.epochs_done + 1; epoch <= options_.epochs && !state_.stopped; ++epoch) {
      const auto start = Clock::now();
      const double train_loss = train_epoch(epoch, batches);
      const Validation validation = validate();
      // A diverged model can still score some BLEU; it must not replace the best one.
      if (!std::isfinite(validation.loss))
        ATTNSCOPE_THROW_RUNTIME_ERROR("training diverged: the validation loss is ", loss_text(validation.loss),
                                      " after epoch ", epoch, "; ", kept_model());
      EpochSummary summary{epoch, train_loss, validation.loss, std::exp(validation.loss),
                           validation.bleu, 0.0, state_.learning_rate, false};
      state_.epochs_done = epoch;
      if (validation.bleu > state_.best_bleu) {
        state_.best_bleu = validation.bleu;
        state_.best_loss = validation.loss;
        state_.best_epoch = epoch;
        state_.bad_epochs = 0;
        summary.best = true;
      } else {
        // Halving the step size on a plateau usually buys another BLEU point before stopping.
        state_.learning_rate *= 0.5;
        set_learning_rate(*optimizer_, state_.learning_rate);
        state_.stopped = ++state_.bad_epochs >= options_.patience;
      }
      summary.seconds = seconds_since(start);
      state_.seconds += summary.seconds;
      update_record();
      if (summary.best) save_model(options_.output_path);
      save_state(state_path);
      if (observer_.epoch_done) observer_.epoch_done(summary);
    }
    if (state_.best_epoch == 0)
      ATTNSCOPE_THROW_RUNTIME_ERROR("training ended without a model");
  }

  double train_epoch(int epoch, const std::vector<std::vector<size_t>>& buckets) {
    // Seeding per epoch makes an epoch's shuffle and dropout the same whether or not the run
    // was resumed, so a resumed run ends with the same model as an uninterrupted one.
    std::mt19937_64 rng(options_.seed * 1000003ull + static_cast<uint64_t>(epoch));
    std::vector<size_t> order(buckets.size());
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    torch::manual_seed(options_.seed * 7919ull + static_cast<uint64_t>(epoch));
    const int batches = options_.max_batches > 0
                            ? std::min<int>(options_.max_batches, static_cast<int>(order.size()))
                            : static_cast<int>(order.size());
    model_->train();
    const auto start = Clock::now();
    double loss_sum = 0.0;
    int64_t tokens = 0, sentences = 0;
    for (int i = 0; i < batches; ++i) {
      const Batch batch = make_batch(train_pairs_, buckets[order[static_cast<size_t>(i)]]);
      const double loss = train_batch(batch, epoch, i + 1);
      loss_sum += loss * static_cast<double>(batch.target_tokens);
      tokens += batch.target_tokens;
      sentences += batch.source.size(0);
      if (observer_.progress) {
        const double elapsed = seconds_since(start);
        observer_.progress({epoch, options_.epochs, i + 1, batches, loss_sum / tokens,
                            sentences / elapsed, elapsed / (i + 1) * (batches - i - 1)});
      }
    }
    return loss_sum / std::max<int64_t>(1, tokens);
  }

  double train_batch(const Batch& batch, int epoch, int index) {
    // One worker per torch thread (see data_parallel.h); worker seeds that depend only on the
    // seed, epoch and batch keep a resumed run equal to an uninterrupted one.
    const uint64_t seed = (options_.seed * 7919ull + static_cast<uint64_t>(epoch)) * 1000003ull +
                          static_cast<uint64_t>(index) * 1024ull;
    const double value = compute_gradients(model_, batch, options_.label_smoothing,
                                           torch::get_num_threads(), seed);
    if (!std::isfinite(value))
      ATTNSCOPE_THROW_RUNTIME_ERROR("training diverged: the loss is ", loss_text(value), " at epoch ", epoch,
                                    ", batch ", index, "; ", kept_model());
    optimizer_->clip_and_step(options_.gradient_clip);
    return value;
  }

  Validation validate() {
    torch::NoGradGuard no_grad;
    model_->eval();
    Validation result;
    double loss_sum = 0.0;
    int64_t tokens = 0;
    const auto buckets = length_buckets(valid_pairs_, 128);
    std::vector<std::vector<std::string>> hypotheses(valid_pairs_.size());
    for (const auto& indices : buckets) {
      const Batch batch = make_batch(valid_pairs_, indices);
      loss_sum += teacher_forced_loss(model_, batch, 0.0, /*sum=*/true).item<double>();
      tokens += batch.target_tokens;
      std::vector<std::vector<int64_t>> sources;
      std::vector<int> limits;
      for (size_t i : indices) {
        sources.push_back(valid_pairs_[i].source);
        limits.push_back(static_cast<int>(2 * valid_pairs_[i].source.size()) + 10);
      }
      const auto found = greedy_search(model_, sources, limits);
      for (size_t j = 0; j < indices.size(); ++j)
        for (int64_t id : found[j].tokens)
          if (id != Vocabulary::kEos) hypotheses[indices[j]].push_back(target_vocabulary_.token(id));
    }
    result.loss = loss_sum / std::max<int64_t>(1, tokens);
    result.bleu = corpus_bleu(hypotheses, valid_references_).bleu;
    return result;
  }

  // What a divergence leaves behind, for its message.
  std::string kept_model() const {
    if (state_.best_epoch == 0) return "no model was saved (try a smaller --lr)";
    return error_message("'", options_.output_path, "' keeps the best model, from epoch ",
                         state_.best_epoch, " (try a smaller --lr)");
  }

  void update_record() {
    record_.epochs = state_.epochs_done;
    record_.best_epoch = state_.best_epoch;
    record_.seconds = state_.seconds;
    record_.validation_bleu = state_.best_bleu;
    record_.validation_loss = state_.best_loss;
  }

  Checkpoint checkpoint() const {
    Checkpoint c;
    c.config = config_;
    c.source_vocabulary = source_vocabulary_;
    c.target_vocabulary = target_vocabulary_;
    c.training = record_;
    c.tensors = parameter_tensors(*model_);
    return c;
  }

  // The model file keeps half precision: the shipped models must fit in 64 MB together.
  void save_model(const std::string& path) const {
    save_checkpoint(path, checkpoint(), StoredPrecision::kFloat16);
  }

  void save_state(const std::string& path) {
    Checkpoint c = checkpoint();
    c.extra["resume"] = state_.to_json();
    const std::string bytes = optimizer_bytes(*optimizer_);
    torch::Tensor blob = torch::empty({static_cast<int64_t>(bytes.size())}, torch::kByte);
    std::memcpy(blob.data_ptr(), bytes.data(), bytes.size());
    c.tensors.emplace_back("optimizer", blob);
    save_checkpoint(path, c, StoredPrecision::kFloat32);
  }

  // Test BLEU of the saved (half-precision) model, stored in its file.
  void measure_test() {
    const std::vector<std::string>& sources = test_sources_;
    const std::vector<std::string>& references = test_references_;
    const Translator translator(options_.output_path);
    std::vector<std::vector<std::string>> reference_tokens;
    for (const auto& r : references) reference_tokens.push_back(tokenize(r));
    auto bleu_of = [&](int beam) {
      TranslationOptions translation_options;
      translation_options.beam_size = beam;
      std::vector<std::vector<std::string>> hypotheses;
      for (const auto& t : translator.translate_batch(sources, translation_options))
        hypotheses.push_back(t.words());
      return corpus_bleu(hypotheses, reference_tokens).bleu;
    };
    record_.test_bleu = bleu_of(1);
    record_.test_bleu_beam5 = bleu_of(5);
    record_.test_corpus = std::filesystem::path(options_.test_source_path).filename().string();
    Checkpoint best = load_checkpoint(options_.output_path);
    best.training = record_;
    save_checkpoint(options_.output_path, best, StoredPrecision::kFloat16);
  }

  const TrainOptions& options_;
  const TrainObserver& observer_;
  ModelConfig config_;
  Vocabulary source_vocabulary_, target_vocabulary_;
  Seq2Seq model_{nullptr};
  std::unique_ptr<FusedAdam> optimizer_;
  ResumeState state_;
  TrainingRecord record_;
  std::vector<IdPair> train_pairs_, valid_pairs_;
  std::vector<std::vector<std::string>> valid_references_;
  std::vector<std::string> test_sources_, test_references_;
};

}  // namespace

TrainingRecord train(const TrainOptions& options, const TrainObserver& observer) {
  keep_freed_memory_for_reuse();
  return Trainer(options, observer).run();
}

}  // namespace attnscope
