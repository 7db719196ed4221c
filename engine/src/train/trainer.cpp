#include "attnscope/trainer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <optional>
#include <random>
#include <sstream>

#include "attnscope/corpus.h"
#include "attnscope/cpu_dispatch.h"
#include "attnscope/errors.h"
#include "attnscope/score_functions.h"
#include "attnscope/text.h"
#include "attnscope/thread_settings.h"
#include "attnscope/training_tasks.h"
#include "decode/search.h"
#include "decode/step_model_factory.h"
#include "model/model_file.h"
#include "model/trainable_model.h"
#include "train/allocator_tuning.h"
#include "train/data_parallel.h"
#include "train/evaluation.h"
#include "train/fused_adam.h"
#include "train/output_path.h"
#include "train/parallel_corpus.h"
#include "train/plateau_schedule.h"
#include "train/resume_state.h"
#include "train/seeding.h"
#include "train/task_corpus.h"
#include "train/training_group.h"
#include "train/warmup_schedule.h"

namespace attnscope {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int64_t kMaxTrainDimension = 4096;
// More layers than any Transformer this app trains on a CPU; 64 would already take days.
constexpr int64_t kMaxTrainLayers = 64;
// Below ~100 pieces a corpus's characters alone fill the vocabulary; above 64000 a vocabulary
// is larger than any corpus this trains on needs (and the output layer the largest cost).
constexpr int kMinSubwords = 100, kMaxSubwords = 64000;
// Torch would try to start a million threads for a million and never return.
constexpr int kMaxThreads = 1024;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
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

// Bytes as a uint8 tensor: how a state file stores the optimizer's serialised state.
torch::Tensor byte_tensor(const std::string& bytes) {
  torch::Tensor tensor = torch::empty({static_cast<int64_t>(bytes.size())}, torch::kByte);
  std::memcpy(tensor.data_ptr(), bytes.data(), bytes.size());
  return tensor;
}

void set_learning_rate(torch::optim::Adam& optimizer, double rate) {
  for (auto& group : optimizer.param_groups())
    static_cast<torch::optim::AdamOptions&>(group.options()).lr(rate);
}

// A task generates its examples, so the settings that describe a corpus do not apply.
void validate_task_options(const TrainOptions& o) {
  try {
    training_task(o.task);
  } catch (const std::invalid_argument& e) {
    ATTNSCOPE_THROW_SETTING("task", e.what());
  }
  for (const auto& [setting, path] :
       {std::pair{"source_path", &o.source_path}, std::pair{"target_path", &o.target_path},
        std::pair{"validation_source_path", &o.validation_source_path},
        std::pair{"validation_target_path", &o.validation_target_path},
        std::pair{"test_source_path", &o.test_source_path},
        std::pair{"test_target_path", &o.test_target_path}})
    if (!path->empty())
      ATTNSCOPE_THROW_SETTING(setting, "task '", o.task,
                              "' generates its own examples: give a task or corpus files, not "
                              "both");
  if (o.subwords != 0)
    ATTNSCOPE_THROW_SETTING("subwords", "task '", o.task,
                            "' has its own vocabulary: subwords are for corpora");
  // A million examples of the longest task take ~100 MB; more is a typo, not a lesson.
  if (o.task_examples < 0 || o.task_examples > 1000000)
    ATTNSCOPE_THROW_SETTING("task_examples",
                            "the number of task examples must be between 1 and 1000000 (or 0 for "
                            "the task's default), not ",
                            o.task_examples);
}

void validate_distributed_options(const DistributedOptions& d) {
  // 1024 ranks is far beyond what a ring all-reduce of these models gains from.
  if (d.world_size < 1 || d.world_size > 1024)
    ATTNSCOPE_THROW_SETTING("distributed.world_size",
                            "the world size must be between 1 and 1024, not ", d.world_size);
  if (d.rank < 0 || d.rank >= d.world_size)
    ATTNSCOPE_THROW_SETTING("distributed.rank", "the rank must be between 0 and ", d.world_size - 1,
                            " (world size ", d.world_size, "), not ", d.rank);
  if (d.world_size == 1) return;
  if (d.master_address.empty())
    ATTNSCOPE_THROW_SETTING("distributed.master_address", "the master address is empty");
  if (d.master_port < 1 || d.master_port > 65535)
    ATTNSCOPE_THROW_SETTING("distributed.master_port",
                            "the master port must be between 1 and 65535, not ", d.master_port);
  if (!(d.timeout_seconds > 0.0 && d.timeout_seconds <= 86400.0))
    ATTNSCOPE_THROW_SETTING("distributed.timeout_seconds",
                            "the timeout must be above 0 and at most 86400 seconds, not ",
                            d.timeout_seconds);
  if (d.checksum_every < 1)
    ATTNSCOPE_THROW_SETTING("distributed.checksum_every",
                            "weights are compared every N batches: N must be at least 1, not ",
                            d.checksum_every);
}

// A Transformer's shape: the keys only it reads, and what its model needs of the others.
void validate_transformer_options(const TrainOptions& o) {
  const ModelConfig& m = o.model;
  if (m.score != kTransformerScore)
    ATTNSCOPE_THROW_SETTING("model.score", "a Transformer's attention is ", kTransformerScore,
                            ", not '", m.score, "'");
  if (m.hidden != m.embedding)
    ATTNSCOPE_THROW_SETTING("model.hidden", "a Transformer's hidden size is its model size, the ",
                            "embedding size ", m.embedding, ", not ", m.hidden);
  if (m.layers < 1 || m.layers > kMaxTrainLayers)
    ATTNSCOPE_THROW_SETTING("model.layers", "the number of layers must be between 1 and ",
                            kMaxTrainLayers, ", not ", m.layers);
  if (m.heads < 1 || m.embedding % m.heads != 0)
    ATTNSCOPE_THROW_SETTING("model.heads", "the number of heads must divide the model size ",
                            m.embedding, ", and ", m.heads, " does not");
  if (m.feed_forward < 1 || m.feed_forward > 4 * kMaxTrainDimension)
    ATTNSCOPE_THROW_SETTING("model.feed_forward", "the feed-forward size must be between 1 and ",
                            4 * kMaxTrainDimension, ", not ", m.feed_forward);
}

// Settings are named as TrainOptions names them; front ends map them onto their own controls.
void validate_options(const TrainOptions& o) {
  if (!is_arch(o.model.arch))
    ATTNSCOPE_THROW_SETTING("model.arch", "unknown architecture '", o.model.arch, "' (", kRnnArch,
                            " or ", kTransformerArch, ")");
  if (o.model.transformer()) validate_transformer_options(o);
  if (!is_score_function(o.model.score))
    ATTNSCOPE_THROW_SETTING("model.score", "unknown score function '", o.model.score, "' (",
                            score_function_list(), ")");
  if (!is_decoder_kind(o.model.decoder))
    ATTNSCOPE_THROW_SETTING("model.decoder", "unknown decoder '", o.model.decoder, "' (",
                            kGruDecoder, " or ", kConditionalGruDecoder, ")");
  if (o.epochs < 1) ATTNSCOPE_THROW_SETTING("epochs", "the number of epochs must be at least 1");
  if (!(o.label_smoothing >= 0.0 && o.label_smoothing < 1.0))
    ATTNSCOPE_THROW_SETTING("label_smoothing",
                            "label smoothing must be at least 0 and below 1, "
                            "not ",
                            o.label_smoothing);
  if (o.batch_size < 1) ATTNSCOPE_THROW_SETTING("batch_size", "the batch size must be at least 1");
  if (o.min_frequency < 1)
    ATTNSCOPE_THROW_SETTING("min_frequency", "the minimum word frequency must be at least 1");
  if (!o.subwords_from.empty() && (o.subwords != 0 || o.joint_subwords))
    ATTNSCOPE_THROW_SETTING("subwords_from", "the subword models come from '", o.subwords_from,
                            "': give them or a number of pieces to learn (subwords), not both");
  if (!o.init_from.empty() && (o.subwords != 0 || o.joint_subwords || !o.subwords_from.empty()))
    ATTNSCOPE_THROW_SETTING("init_from", "the vocabulary comes from '", o.init_from,
                            "': give it or a vocabulary (subwords, subwords_from), not both");
  if (!o.init_from.empty() && !o.task.empty())
    ATTNSCOPE_THROW_SETTING("init_from",
                            "a task's model learns its symbols afresh: it starts from no model");
  if (o.model.cased && o.subwords == 0 && o.subwords_from.empty() && o.init_from.empty())
    ATTNSCOPE_THROW_SETTING("model.cased",
                            "a cased model reads text as written with SentencePiece: it needs a "
                            "number of pieces (subwords)");
  if (o.joint_subwords && o.subwords == 0)
    ATTNSCOPE_THROW_SETTING("joint_subwords",
                            "a joint subword model needs a number of pieces (subwords)");
  if (o.subwords != 0 && (o.subwords < kMinSubwords || o.subwords > kMaxSubwords))
    ATTNSCOPE_THROW_SETTING("subwords", "the number of subword pieces must be between ",
                            kMinSubwords, " and ", kMaxSubwords, " (or 0 for words), not ",
                            o.subwords);
  // The upper bound keeps a typo (a hidden size of 100000) from allocating tens of gigabytes.
  if (o.model.embedding < 1 || o.model.embedding > kMaxTrainDimension)
    ATTNSCOPE_THROW_SETTING("model.embedding", "the embedding size must be between 1 and ",
                            kMaxTrainDimension, ", not ", o.model.embedding);
  if (o.model.hidden < 1 || o.model.hidden > kMaxTrainDimension)
    ATTNSCOPE_THROW_SETTING("model.hidden", "the hidden size must be between 1 and ",
                            kMaxTrainDimension, ", not ", o.model.hidden);
  if (!(o.model.dropout >= 0.0 && o.model.dropout < 1.0))
    ATTNSCOPE_THROW_SETTING("model.dropout", "the dropout must be at least 0 and below 1, not ",
                            o.model.dropout);
  if (!(o.learning_rate > 0.0 && std::isfinite(o.learning_rate)))
    ATTNSCOPE_THROW_SETTING("learning_rate", "the learning rate must be a positive number, not ",
                            o.learning_rate);
  // A million batches of warm-up is longer than any run: a typo.
  if (o.warmup_steps < 0 || o.warmup_steps > 1000000)
    ATTNSCOPE_THROW_SETTING("warmup_steps",
                            "the warm-up must be between 1 and 1000000 batches (or 0 for none), "
                            "not ",
                            o.warmup_steps);
  if (o.threads < 0 || o.threads > kMaxThreads)
    ATTNSCOPE_THROW_SETTING("threads", "the number of threads must be between 1 and ", kMaxThreads,
                            " (or 0 for one per core), not ", o.threads);
  parse_precision(o.precision);  // throws for an unknown name
  if (o.snapshot_every < 0)
    ATTNSCOPE_THROW_SETTING("snapshot_every",
                            "snapshots are taken every N batches: N must be at least 1 (or 0 for "
                            "none), not ",
                            o.snapshot_every);
  if (!o.snapshots_path.empty() && o.snapshot_every == 0)
    ATTNSCOPE_THROW_SETTING("snapshot_every",
                            "snapshots written to a file need a snapshot every N batches, N at "
                            "least 1");
  if (!o.task.empty()) validate_task_options(o);
  validate_distributed_options(o.distributed);
  if (o.test_source_path.empty() != o.test_target_path.empty())
    ATTNSCOPE_THROW_SETTING(o.test_source_path.empty() ? "test_source_path" : "test_target_path",
                            "a test set needs both its source and its target file");
}

class Trainer {
 public:
  Trainer(const TrainOptions& options, const TrainObserver& observer)
      : options_(options), observer_(observer) {}

  TrainingRecord run() {
    validate_options(options_);
    // This run's threads and allocator settings, given back when it ends: in the app, the other
    // tabs' workers keep theirs.
    const ScopedThreadCount run_threads(options_.threads);
    const AllocatorTuning allocator_tuning;
    workers_ = resolve_thread_count(options_.threads);
    precision_ = parse_precision(options_.precision);
    if (!options_.init_from.empty()) load_initial_model();
    // Only rank 0 writes; the others' machines need not have the output folder.
    if (options_.distributed.world_size > 1) {
      if (options_.distributed.rank == 0) {
        check_output_path(options_.output_path);
        check_outputs_spare_inputs(options_);
      }
      group_ = std::make_unique<TrainingGroup>(options_.distributed);
    } else {
      check_output_path(options_.output_path);
      check_outputs_spare_inputs(options_);
    }
    const int64_t max_words = options_.model.max_source_length - 1;
    TokenizedPairs train_text, valid_text;
    if (task()) {
      TaskCorpus corpus = make_task_corpus(task_spec(), task_examples(), options_.seed);
      train_text = std::move(corpus.train);
      valid_text = std::move(corpus.validation);
      valid_references_ = std::move(corpus.validation_references);
    } else {
      const bool cased = options_.model.cased;
      train_text = read_parallel(options_.source_path, options_.target_path, max_words, cased);
      valid_text = read_parallel(options_.validation_source_path, options_.validation_target_path,
                                 max_words, cased);
      valid_references_ = valid_text.target;
    }
    // The test set is only used after the last epoch: a bad one must fail before the first.
    if (!options_.test_source_path.empty()) {
      LinePairs test = read_line_pairs(options_.test_source_path, options_.test_target_path);
      test_sources_ = std::move(test.first);
      test_references_ = std::move(test.second);
    }
    if (train_text.skipped > 0)
      note(error_message("skipped ", train_text.skipped,
                         " training pairs with an empty side or over ", max_words,
                         " source words"));
    settings_ = training_settings(options_, train_text, valid_text);
    // Which unit multiplies, and apart from it the engine's own kernels' path: "kernels avx512"
    // alone read, on a CPU with AMX, as if AMX went unused.
    const char* unit = cpu_features().amx_bf16 ? "AMX" : "AVX512-BF16";
    note(std::string("matrix products in ") +
         (precision_ == Precision::kBFloat16
              ? std::string("bfloat16 (oneDNN on ") + unit + "), float32 accumulation and weights"
              : std::string("float32")) +
         "; hand-written kernels " + kernel_isa_summary());
    const std::string state_path = options_.output_path + ".state";
    torch::manual_seed(options_.seed);
    if (group_) {
      // Ranks may have different numbers of threads: rank r's shares of every batch start
      // after the threads of the ranks before it.
      const std::vector<int> threads = group_->check_same_settings(group_settings(), workers_);
      for (int r = 0; r < group_->size(); ++r) {
        if (r < group_->rank()) batch_part_.first_share += threads[static_cast<size_t>(r)];
        batch_part_.total_shares += threads[static_cast<size_t>(r)];
      }
      start_group(train_text, state_path);
    } else if (options_.resume && std::filesystem::exists(state_path)) {
      restore(load_model_file(state_path), state_path);
    } else {
      if (options_.resume) note("no training state '" + state_path + "' yet: starting afresh");
      start(train_text);
    }
    if (subwords()) {
      // The model reads and writes pieces; validation BLEU still compares words.
      std::vector<size_t> kept;
      const TokenizedPairs train_pieces =
          split_into_pieces(train_text, source_subwords_, target_subwords_, max_words, kept);
      if (train_pieces.source.empty())
        ATTNSCOPE_THROW_INVALID_ARGUMENT("every sentence of '", options_.source_path,
                                         "' has more than ", max_words, " subword pieces");
      if (train_pieces.skipped > 0)
        note(error_message("skipped ", train_pieces.skipped, " training pairs over ", max_words,
                           " source pieces"));
      note("per sentence: " + per_sentence(train_pieces, "pieces") + " (" +
           per_sentence(train_text, "words") + ")");
      train_pairs_ = to_ids(train_pieces, source_vocabulary_, target_vocabulary_);
      const TokenizedPairs valid_pieces =
          split_into_pieces(valid_text, source_subwords_, target_subwords_, max_words, kept);
      valid_pairs_ = to_ids(valid_pieces, source_vocabulary_, target_vocabulary_);
      valid_references_.clear();
      for (size_t i : kept) valid_references_.push_back(valid_text.target[i]);
    } else {
      train_pairs_ = to_ids(train_text, source_vocabulary_, target_vocabulary_);
      valid_pairs_ = to_ids(valid_text, source_vocabulary_, target_vocabulary_);
    }
    prepare_report_sets(max_words);
    record_.corpus =
        task() ? error_message("task ", options_.task, " (", train_pairs_.size(),
                               " generated examples, seed ", options_.seed, ")")
        : !options_.corpus_name.empty()
            ? error_message(options_.corpus_name, " (", train_pairs_.size(), " pairs)")
            : error_message(std::filesystem::path(options_.source_path).filename().string(), " + ",
                            std::filesystem::path(options_.target_path).filename().string(), " (",
                            train_pairs_.size(), " pairs)");
    if (task()) record_.examples = task_inputs_to_try();
    if (options_.snapshot_every > 0 && reporting()) prepare_probe(valid_text, state_path);
    record_.command = initial_ && !initial_->training.command.empty()
                          ? initial_->training.command + "; then " + options_.command
                          : options_.command;
    record_.seed = options_.seed;
    if (group_) group_->barrier("ready");
    train_epochs(state_path);
    if (group_) group_->finish();
    if (!options_.test_source_path.empty() && reporting()) measure_test();
    return record_;
  }

 private:
  // Rank 0 of a group, or a process training alone: the one that validates, reports and writes.
  bool reporting() const { return !group_ || group_->leader(); }
  void note(const std::string& text) const {
    if (reporting()) notify(observer_, text);
  }

  // What every rank of a group must agree on: the settings a state file records, and those that
  // decide how each batch is split and when the run ends.
  nlohmann::json group_settings() const {
    nlohmann::json settings = settings_;
    settings["epochs"] = options_.epochs;
    settings["batches per epoch"] = options_.max_batches;
    settings["patience"] = options_.patience;
    settings["resume"] = options_.resume;
    settings["task"] = options_.task;
    settings["task examples"] = options_.task_examples;
    settings["checksum every"] = options_.distributed.checksum_every;
    // Ranks whose products round differently would drift apart every batch.
    settings["precision"] = precision_name(precision_);
    return settings;
  }

  // Every rank starts from rank 0's state: rank 0 resumes or starts afresh (and saves the
  // fresh state, so that --resume after a lost rank has something to go back to) and sends the
  // state file's bytes. The others neither build vocabularies nor learn subwords themselves, so
  // the group is the same even where those would differ from machine to machine.
  void start_group(const TokenizedPairs& train_text, const std::string& state_path) {
    std::string bytes;
    if (group_->leader()) {
      try {
        bytes = leader_start_state(train_text, state_path);
      } catch (const std::exception& e) {
        fail_group("start", e.what());
        throw;
      }
    }
    bytes = group_->leader_bytes("start", bytes);
    if (!group_->leader()) restore(parse_checkpoint("rank 0's training state", bytes), state_path);
    set_resume_hint(state_path);
  }

  // Rank 0's start: resumed, or afresh and saved, so that --resume after a lost rank has
  // something to go back to. Returns the state file's bytes.
  std::string leader_start_state(const TokenizedPairs& train_text, const std::string& state_path) {
    if (options_.resume && std::filesystem::exists(state_path)) {
      restore(load_model_file(state_path), state_path);
    } else {
      if (options_.resume) note("no training state '" + state_path + "' yet: starting afresh");
      start(train_text);
      update_record();
      save_state(state_path);
    }
    std::ifstream file(state_path, std::ios::binary);
    std::string bytes{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
    if (!file && !file.eof())
      ATTNSCOPE_THROW_RUNTIME_ERROR("cannot read the training state '", state_path, "'");
    const int64_t parameters = model_->parameter_count();
    char megabytes[32];
    std::snprintf(megabytes, sizeof megabytes, "%.1f", 4e-6 * static_cast<double>(parameters));
    note(error_message("training on ", group_->size(), " processes: every batch sums ", parameters,
                       " gradients (", megabytes, " MB) across them"));
    return bytes;
  }

  // Rank 0 failed where the others wait for it: they end with its message. Its own exception,
  // not one from telling them, is the one that propagates.
  void fail_group(const std::string& key, const std::string& message) {
    try {
      group_->leader_failed(key, message);
    } catch (const std::exception&) {
    }
  }

  void set_resume_hint(const std::string& state_path) {
    const std::string where = error_message("rank 0's '", state_path, "'");
    group_->set_resume_hint(
        state_.epochs_done == 0
            ? "no epoch is complete yet: --resume on every rank starts again from " + where
            : error_message("the last complete epoch is ", state_.epochs_done,
                            ": --resume on every rank continues from ", where));
  }

  bool subwords() const {
    return options_.subwords > 0 || !options_.subwords_from.empty() ||
           (initial_ && initial_->subwords == kSentencePiece);
  }
  bool task() const { return !options_.task.empty(); }
  const TaskSpec& task_spec() const { return training_task(options_.task); }
  // What the app offers a task model's user to type: the probe the snapshots show, then a few
  // inputs the model was not trained on (a seed of their own).
  std::vector<std::string> task_inputs_to_try() const {
    std::vector<std::string> inputs = {task_spec().probe};
    for (const TaskExample& e : generate_task_examples(options_.task, 4, options_.seed ^ 0x5eedu))
      inputs.push_back(e.source);
    return inputs;
  }
  size_t task_examples() const {
    return static_cast<size_t>(options_.task_examples > 0 ? options_.task_examples
                                                          : task_spec().train_examples);
  }
  // Character models (the `dates` task) read and write characters, "▁" before a word's first.
  // The epochs the initial model had (TrainOptions::init_from), before this run's.
  int prior_epochs() const { return initial_ ? initial_->training.epochs : 0; }
  bool characters() const { return task() && task_spec().text == TaskText::kCharacters; }

  // The probe whose greedy output and attention each snapshot records, as source ids.
  void prepare_probe(const TokenizedPairs& valid_text, const std::string& state_path) {
    std::string text = options_.probe;
    if (text.empty()) text = task() ? task_spec().probe : join_tokens(valid_text.source.front());
    std::vector<std::string> tokens =
        task() ? task_tokens(text, task_spec().text) : model_words(text, options_.model.cased);
    if (subwords()) tokens = source_subwords_.encode(tokens);
    if (tokens.empty())
      ATTNSCOPE_THROW_SETTING("probe", "the probe sentence '", text, "' holds no word");
    const auto limit = static_cast<size_t>(options_.model.max_source_length - 1);
    if (tokens.size() > limit) tokens.resize(limit);
    probe_ids_.clear();
    for (const auto& token : tokens) probe_ids_.push_back(source_vocabulary_.id(token));
    probe_ids_.push_back(Vocabulary::kEos);
    probe_tokens_ = tokens;
    probe_tokens_.push_back(source_vocabulary_.token(Vocabulary::kEos));
    if (options_.snapshots_path.empty()) return;
    // A resumed run continues its file; a fresh one starts it anew.
    const bool resumed = options_.resume && std::filesystem::exists(state_path);
    snapshots_file_.open(options_.snapshots_path, resumed ? std::ios::app : std::ios::trunc);
    if (!snapshots_file_)
      ATTNSCOPE_THROW_SETTING("snapshots_path", "cannot write snapshots to '",
                              options_.snapshots_path, "'");
  }

  // Decodes the probe with the weights as they are now. Evaluation mode uses no random numbers,
  // so snapshots leave the training itself exactly as it would be without them.
  void take_snapshot(int epoch, double loss) {
    TrainingSnapshot snapshot;
    {
      torch::NoGradGuard no_grad;
      model_->eval();
      const int limit = static_cast<int>(2 * probe_ids_.size()) + 10;
      const Hypothesis found =
          greedy_search(*make_step_model(model_), {probe_ids_}, {limit}).front();
      model_->train();
      for (int64_t id : found.tokens) snapshot.output.push_back(target_vocabulary_.token(id));
      if (has_attention(config_.score)) snapshot.attention = found.attention;
    }
    snapshot.batch = total_batches_;
    snapshot.epoch = epoch;
    snapshot.loss = loss;
    snapshot.source = probe_tokens_;
    snapshot.subword_marker = subword_marker();
    if (snapshots_file_.is_open()) {
      snapshots_file_ << snapshot_json_line(snapshot) << '\n' << std::flush;
      if (!snapshots_file_)
        ATTNSCOPE_THROW_RUNTIME_ERROR("cannot write snapshots to '", options_.snapshots_path, "'");
    }
    if (observer_.snapshot) observer_.snapshot(snapshot);
  }

  bool stop_requested() const { return observer_.stop_requested && observer_.stop_requested(); }

  // "13.4 en / 13.7 de pieces": the mean length of a corpus's sentences on each side.
  std::string per_sentence(const TokenizedPairs& pairs, const char* unit) const {
    auto mean = [](const std::vector<std::vector<std::string>>& sentences) {
      double tokens = 0;
      for (const auto& s : sentences) tokens += static_cast<double>(s.size());
      return tokens / static_cast<double>(std::max<size_t>(1, sentences.size()));
    };
    char text[96];
    std::snprintf(text, sizeof text, "%.1f %s / %.1f %s %s", mean(pairs.source),
                  options_.model.source_language.c_str(), mean(pairs.target),
                  options_.model.target_language.c_str(), unit);
    return text;
  }

  void start(const TokenizedPairs& train_text) {
    if (initial_) {
      start_from_initial_model();
      return;
    }
    if (subwords()) {
      learn_subwords(train_text);
    } else {
      // A task's symbols are all wanted, however rarely one is drawn.
      const int min_frequency = task() ? 1 : options_.min_frequency;
      source_vocabulary_ = Vocabulary::build(train_text.source, min_frequency);
      target_vocabulary_ = Vocabulary::build(train_text.target, min_frequency);
    }
    config_ = options_.model;
    config_.source_vocab = source_vocabulary_.size();
    config_.target_vocab = target_vocabulary_.size();
    // A Transformer reads both languages through one table when their vocabularies are one (a
    // joint SentencePiece model, or a task's symbols): the file keeps one table, not three.
    if (config_.transformer())
      config_.shared_embeddings = source_vocabulary_.tokens() == target_vocabulary_.tokens();
    model_ = make_model(config_);
    optimizer_ = std::make_unique<FusedAdam>(model_->parameters(),
                                             torch::optim::AdamOptions(options_.learning_rate));
    state_.learning_rate = options_.learning_rate;
  }

  // TrainOptions::init_from, read and checked before anything else: a model of another shape
  // is refused before the corpora are read.
  void load_initial_model() {
    const std::string& path = options_.init_from;
    // The header only: its shape and record are all a check and a resumed run need; start()
    // reads the weights.
    try {
      initial_ = load_model_file(path, /*header_only=*/true);
    } catch (const std::exception& e) {
      ATTNSCOPE_THROW_SETTING("init_from", e.what());
    }
    if (initial_->subwords == kCharacters)
      ATTNSCOPE_THROW_SETTING(
          "init_from", "'", path,
          "' is a task's model (characters): a corpus run cannot start from it");
    // The shape as the file stores it; what this run may change (dropout) and what start()
    // derives (the vocabulary sizes, one embedding table) left out.
    nlohmann::json stored = config_to_json(initial_->config);
    nlohmann::json wanted = config_to_json(options_.model);
    for (const char* key : {"source_vocab", "target_vocab", "dropout", "shared_embeddings"}) {
      stored.erase(key);
      wanted.erase(key);
    }
    std::string differences;
    for (const auto& [key, value] : wanted.items()) {
      const nlohmann::json there = stored.contains(key) ? stored.at(key) : nlohmann::json();
      if (there != value)
        differences += (differences.empty() ? "" : "; ") + key + " " +
                       (there.is_null() ? std::string("unset") : there.dump()) + " there, " +
                       value.dump() + " here";
    }
    for (const auto& [key, value] : stored.items())
      if (!wanted.contains(key))
        differences +=
            (differences.empty() ? "" : "; ") + key + " " + value.dump() + " there, unset here";
    if (!differences.empty())
      ATTNSCOPE_THROW_SETTING("init_from", "'", path,
                              "' is a model of another shape than this run (", differences,
                              "): give its settings");
  }

  // A fresh optimizer on the initial model's weights (TrainOptions::init_from).
  void start_from_initial_model() {
    Checkpoint initial;
    try {
      initial = load_model_file(options_.init_from);
    } catch (const std::exception& e) {
      ATTNSCOPE_THROW_SETTING("init_from", e.what());
    }
    source_vocabulary_ = initial.source_vocabulary;
    target_vocabulary_ = initial.target_vocabulary;
    source_subwords_ = initial.source_subwords;
    target_subwords_ = initial.target_subwords;
    config_ = options_.model;
    config_.source_vocab = initial.config.source_vocab;
    config_.target_vocab = initial.config.target_vocab;
    config_.shared_embeddings = initial.config.shared_embeddings;
    model_ = make_model(config_);
    load_parameters(*model_, initial, options_.init_from);
    optimizer_ = std::make_unique<FusedAdam>(model_->parameters(),
                                             torch::optim::AdamOptions(options_.learning_rate));
    state_.learning_rate = options_.learning_rate;
    note(error_message(
        "starting from the weights of '", options_.init_from, "' (", initial.training.epochs,
        initial.training.epochs == 1 ? " epoch on " : " epochs on ",
        initial.training.corpus.empty() ? "an unrecorded corpus" : initial.training.corpus, ")"));
  }

  // The SentencePiece models of another model of the same pair (TrainOptions::subwords_from).
  void take_subwords(const std::string& path) {
    Checkpoint donor;
    try {
      donor = load_model_file(path);
    } catch (const std::exception& e) {
      ATTNSCOPE_THROW_SETTING("subwords_from", e.what());
    }
    if (donor.subwords != kSentencePiece)
      ATTNSCOPE_THROW_SETTING("subwords_from", "'", path,
                              "' is no subword model: it has no SentencePiece models to share");
    if (donor.config.cased != options_.model.cased)
      ATTNSCOPE_THROW_SETTING("subwords_from", "'", path, "' reads text ",
                              donor.config.cased ? "cased" : "lowercased", " and this run ",
                              options_.model.cased ? "cased" : "lowercased",
                              ": its pieces would not fit");
    source_subwords_ = donor.source_subwords;
    target_subwords_ = donor.target_subwords;
    source_vocabulary_ = Vocabulary::from_tokens(source_subwords_.pieces());
    target_vocabulary_ = Vocabulary::from_tokens(target_subwords_.pieces());
    note(error_message("took ", source_vocabulary_.size(), " ", options_.model.source_language,
                       " and ", target_vocabulary_.size(), " ", options_.model.target_language,
                       " subword pieces from '", path, "'"));
  }

  // One SentencePiece model per language by default: the two sides have embedding tables of
  // their own, and a joint model spends target pieces, and so the output layer, on the other
  // language. joint_subwords learns one on both sides' text, for those who want to compare.
  void learn_subwords(const TokenizedPairs& train_text) {
    if (!options_.subwords_from.empty()) {
      take_subwords(options_.subwords_from);
      return;
    }
    const auto start = Clock::now();
    auto learn = [&](const std::vector<std::vector<std::string>>& sentences,
                     const std::string& path) {
      try {
        return SubwordModel::learn(sentences, options_.subwords);
      } catch (const std::invalid_argument& e) {
        ATTNSCOPE_THROW_SETTING("subwords", "cannot learn ", options_.subwords,
                                " subword pieces from '", path, "': ", e.what());
      }
    };
    if (options_.joint_subwords) {
      std::vector<std::vector<std::string>> both = train_text.source;
      both.insert(both.end(), train_text.target.begin(), train_text.target.end());
      source_subwords_ = learn(both, options_.source_path + "' and '" + options_.target_path);
      target_subwords_ = source_subwords_;
    } else {
      source_subwords_ = learn(train_text.source, options_.source_path);
      target_subwords_ = learn(train_text.target, options_.target_path);
    }
    source_vocabulary_ = Vocabulary::from_tokens(source_subwords_.pieces());
    target_vocabulary_ = Vocabulary::from_tokens(target_subwords_.pieces());
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.1f", seconds_since(start));
    note(error_message("learned ", source_vocabulary_.size(), " ", options_.model.source_language,
                       " and ", target_vocabulary_.size(), " ", options_.model.target_language,
                       " subword pieces (SentencePiece BPE) in ", seconds, " s"));
  }

  void restore(const Checkpoint& checkpoint, const std::string& state_path) {
    const nlohmann::json& extra = checkpoint.extra;
    if (!extra.contains("resume"))
      ATTNSCOPE_THROW_RUNTIME_ERROR("'", state_path, "' is not a training state file");
    // A state written before the settings were recorded still has its model's shape.
    const nlohmann::json stored =
        extra.contains("settings") ? extra.at("settings") : model_settings(checkpoint.config);
    const std::vector<std::string> differences = settings_differences(stored, settings_);
    if (!differences.empty()) {
      std::string list;
      for (const auto& d : differences) list += (list.empty() ? "" : "; ") + d;
      ATTNSCOPE_THROW_SETTING("resume", "cannot resume '", state_path,
                              "': it was started with other settings (", list,
                              "); use the same settings, or start afresh without resuming");
    }
    config_ = checkpoint.config;
    source_vocabulary_ = checkpoint.source_vocabulary;
    target_vocabulary_ = checkpoint.target_vocabulary;
    source_subwords_ = checkpoint.source_subwords;
    target_subwords_ = checkpoint.target_subwords;
    if (subwords() && source_subwords_.empty())  // settings that say so, in a crafted file
      ATTNSCOPE_THROW_RUNTIME_ERROR("'", state_path, "' holds no subword models");
    model_ = make_model(config_);
    load_parameters(*model_, checkpoint, state_path);
    optimizer_ = std::make_unique<FusedAdam>(model_->parameters(),
                                             torch::optim::AdamOptions(options_.learning_rate));
    for (const auto& [name, tensor] : checkpoint.tensors)
      if (name == "optimizer") load_optimizer(*optimizer_, tensor);
    try {
      state_ = ResumeState::from_json(extra.at("resume"));
    } catch (const std::exception&) {  // a field missing, of another type or out of range
      ATTNSCOPE_THROW_RUNTIME_ERROR("'", state_path, "' is not a training state file");
    }
    set_learning_rate(*optimizer_, state_.learning_rate);
    record_ = checkpoint.training;
    note(error_message("resuming '", state_path, "' after epoch ", state_.epochs_done));
  }

  void train_epochs(const std::string& state_path) {
    const auto batches = length_buckets(train_pairs_, options_.batch_size);
    // A state from before the count was kept: as if every epoch had been whole.
    total_batches_ = state_.batches >= 0
                         ? state_.batches
                         : static_cast<int64_t>(state_.epochs_done) * batches_per_epoch(batches);
    for (int epoch = state_.epochs_done + 1;
         epoch <= options_.epochs && !state_.stopped && !stopped_by_request_; ++epoch) {
      const auto start = Clock::now();
      const double train_loss = train_epoch(epoch, batches);
      if (!group_) {
        end_epoch(epoch, train_loss, start, state_path);
        continue;
      }
      // Rank 0 validates and saves while the others wait for the outcome it posts, which keeps
      // every rank's schedule (learning rate, early stop) the same.
      const std::string key = error_message("epoch/", epoch);
      nlohmann::json outcome;
      if (group_->leader()) {
        try {
          end_epoch(epoch, train_loss, start, state_path);
          outcome["state"] = state_.to_json();
        } catch (const std::exception& e) {
          fail_group(key, e.what());
          throw;
        }
      }
      outcome = group_->leader_value(key, outcome);
      if (!group_->leader()) {
        state_ = ResumeState::from_json(outcome.at("state"));
        set_learning_rate(*optimizer_, state_.learning_rate);
        update_record();
      }
      set_resume_hint(state_path);
    }
    if (state_.best_epoch == 0) ATTNSCOPE_THROW_RUNTIME_ERROR("training ended without a model");
  }

  // TrainOptions::report_sets as the model reads them, each with its references (words).
  void prepare_report_sets(int64_t max_words) {
    report_sets_.clear();
    for (const auto& [source, target] : options_.report_sets) {
      const TokenizedPairs text = read_parallel(source, target, max_words, options_.model.cased);
      ReportSet set;
      set.name = report_set_name(source);
      if (subwords()) {
        std::vector<size_t> kept;
        set.pairs =
            to_ids(split_into_pieces(text, source_subwords_, target_subwords_, max_words, kept),
                   source_vocabulary_, target_vocabulary_);
        for (size_t i : kept) set.references.push_back(text.target[i]);
      } else {
        set.pairs = to_ids(text, source_vocabulary_, target_vocabulary_);
        set.references = text.target;
      }
      report_sets_.push_back(std::move(set));
    }
  }

  // Validates the epoch, keeps its model if it is the best, and saves the resumable state.
  void end_epoch(int epoch, double train_loss, Clock::time_point start,
                 const std::string& state_path) {
    const Validation validation =
        validate(model_, valid_pairs_, valid_references_, target_vocabulary_, subword_marker(),
                 options_.model.cased);
    // A diverged model can still score some BLEU; it must not replace the best one.
    if (!std::isfinite(validation.loss))
      ATTNSCOPE_THROW_RUNTIME_ERROR("training diverged: the validation loss is ",
                                    loss_text(validation.loss), " after epoch ", epoch, "; ",
                                    kept_model());
    EpochSummary summary;
    summary.epoch = epoch;
    summary.train_loss = train_loss;
    summary.validation_loss = validation.loss;
    summary.validation_perplexity = std::exp(validation.loss);
    summary.validation_bleu = validation.bleu;
    summary.learning_rate = state_.learning_rate;
    summary.partial = stopped_by_request_;
    for (const ReportSet& set : report_sets_)
      summary.reported.emplace_back(set.name,
                                    validate(model_, set.pairs, set.references, target_vocabulary_,
                                             subword_marker(), options_.model.cased)
                                        .bleu);
    // A task's outputs are symbols or one ISO date, whose BLEU says little (a date is one
    // word: no 4-grams): its exact matches decide the best epoch instead.
    if (task()) summary.validation_accuracy = validation.exact;
    const double score = task() ? 100.0 * validation.exact : validation.bleu;
    const double rate = state_.learning_rate;
    summary.best = apply_plateau_schedule(state_, epoch, score, validation.loss, options_.patience);
    // The warm-up schedule sets every batch's rate itself: a plateau only counts towards stopping.
    if (options_.warmup_steps > 0) state_.learning_rate = rate;
    set_learning_rate(*optimizer_, state_.learning_rate);
    summary.seconds = seconds_since(start) - paused_seconds_;
    state_.seconds += summary.seconds;
    summary.total_seconds = state_.seconds;
    state_.batches = total_batches_;
    update_record();
    if (summary.best) save_model(options_.output_path);
    if (options_.save_epochs) {
      Checkpoint c = checkpoint();
      c.training.best_epoch = prior_epochs() + epoch;
      c.training.validation_loss = validation.loss;
      if (task())
        c.training.validation_accuracy = validation.exact;
      else
        c.training.validation_bleu = validation.bleu;
      save_checkpoint(epoch_model_path(options_.output_path, epoch), c, StoredPrecision::kFloat16);
    }
    save_state(state_path);
    if (observer_.epoch_done) observer_.epoch_done(summary);
  }

  double train_epoch(int epoch, const std::vector<std::vector<size_t>>& buckets) {
    std::mt19937_64 rng(epoch_shuffle_seed(options_.seed, epoch));
    std::vector<size_t> order(buckets.size());
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    torch::manual_seed(epoch_torch_seed(options_.seed, epoch));
    const int batches = batches_per_epoch(buckets);
    model_->train();
    const auto start = Clock::now();
    paused_seconds_ = 0.0;
    double loss_sum = 0.0;
    int64_t tokens = 0, sentences = 0;
    for (int i = 0; i < batches; ++i) {
      const Batch batch = make_batch(train_pairs_, buckets[order[static_cast<size_t>(i)]]);
      bool group_stop = false;
      const double loss = train_batch(batch, epoch, i + 1, &group_stop);
      loss_sum += loss * static_cast<double>(batch.target_tokens);
      tokens += batch.target_tokens;
      sentences += batch.source.size(0);
      ++total_batches_;
      if (group_ && total_batches_ % options_.distributed.checksum_every == 0) check_same_weights();
      if (options_.snapshot_every > 0 && reporting() &&
          (total_batches_ == 1 || total_batches_ % options_.snapshot_every == 0))
        take_snapshot(epoch, loss_sum / static_cast<double>(tokens));
      if (observer_.progress && reporting()) {
        const double elapsed = seconds_since(start) - paused_seconds_;
        observer_.progress({epoch, options_.epochs, i + 1, batches, loss_sum / tokens,
                            sentences / elapsed, elapsed / (i + 1) * (batches - i - 1),
                            total_batches_});
      }
      // Asked after the batch, as the observer saw it. A group learns of it with the next batch's
      // gradients, so that every rank stops after the same one.
      const auto asked = Clock::now();
      bool stop = stop_requested();  // waits while the observer holds the run paused
      paused_seconds_ += seconds_since(asked);
      if (group_) {
        stop_asked_ = stop;
        stop = group_stop;
      }
      if (stop) {
        stopped_by_request_ = true;
        break;
      }
    }
    return loss_sum / std::max<int64_t>(1, tokens);
  }

  int batches_per_epoch(const std::vector<std::vector<size_t>>& buckets) const {
    const auto all = static_cast<int>(buckets.size());
    return options_.max_batches > 0 ? std::min(options_.max_batches, all) : all;
  }

  // In a group, sets *group_stop when some rank was asked to stop after the previous batch.
  double train_batch(const Batch& batch, int epoch, int index, bool* group_stop) {
    if (options_.warmup_steps > 0) {
      state_.learning_rate =
          warmup_learning_rate(options_.learning_rate, options_.warmup_steps, total_batches_ + 1);
      set_learning_rate(*optimizer_, state_.learning_rate);
    }
    // The options' workers (see data_parallel.h); in a group, this rank's part.
    double value =
        compute_gradients(*model_, batch, options_.label_smoothing, workers_,
                          batch_worker_seed(options_.seed, epoch, index), batch_part_, precision_);
    if (group_) value = group_->sum_gradients(model_->parameters(), value, stop_asked_, group_stop);
    if (!std::isfinite(value))
      ATTNSCOPE_THROW_RUNTIME_ERROR("training diverged: the loss is ", loss_text(value),
                                    " at epoch ", epoch, ", batch ", index, "; ", kept_model());
    optimizer_->clip_and_step(options_.gradient_clip);
    return value;
  }

  // Every rank applies the same steps to the same weights, so they stay the same; ranks on CPUs
  // that round differently could drift apart, and are brought back to rank 0's.
  void check_same_weights() {
    const auto parameters = model_->parameters();
    if (group_->same_weights(parameters)) return;
    note(error_message("the ranks' weights differed after batch ", total_batches_,
                       " (CPUs that round differently?): rank 0's weights and optimizer state "
                       "are copied to every rank"));
    group_->copy_leader_weights(parameters);
    const std::string bytes = group_->leader_bytes(error_message("optimizer/", total_batches_),
                                                   reporting() ? optimizer_bytes(*optimizer_) : "");
    if (reporting()) return;
    load_optimizer(*optimizer_, byte_tensor(bytes));
  }

  // What a divergence leaves behind, for its message.
  std::string kept_model() const {
    if (state_.best_epoch == 0) return "no model was saved (try a smaller learning rate)";
    return error_message("'", options_.output_path, "' keeps the best model, from epoch ",
                         state_.best_epoch, " (try a smaller learning rate)");
  }

  void update_record() {
    // A run from an initial model (TrainOptions::init_from) counts the epochs and time that
    // model had: the record says what the weights went through.
    record_.epochs = prior_epochs() + state_.epochs_done;
    record_.best_epoch = state_.best_epoch == 0 ? 0 : prior_epochs() + state_.best_epoch;
    record_.seconds = (initial_ ? initial_->training.seconds : 0.0) + state_.seconds;
    record_.validation_loss = state_.best_loss;
    // For a task, the best score is its exact matches in percent (see train_epochs).
    record_.validation_bleu = task() ? -1.0 : state_.best_bleu;
    record_.validation_accuracy = task() ? state_.best_bleu / 100.0 : -1.0;
  }

  Checkpoint checkpoint() const {
    Checkpoint c;
    c.config = config_;
    c.source_vocabulary = source_vocabulary_;
    c.target_vocabulary = target_vocabulary_;
    c.training = record_;
    c.tensors = parameter_tensors(*model_);
    if (subwords()) {
      c.subwords = kSentencePiece;
      c.source_subwords = source_subwords_;
      c.target_subwords = target_subwords_;
    } else if (characters()) {
      c.subwords = kCharacters;
    }
    return c;
  }

  std::string subword_marker() const { return subwords() || characters() ? "\u2581" : ""; }

  // The model file keeps half precision: the shipped models must fit the size budget together.
  void save_model(const std::string& path) const {
    save_checkpoint(path, checkpoint(), StoredPrecision::kFloat16);
  }

  void save_state(const std::string& path) {
    Checkpoint c = checkpoint();
    c.extra["resume"] = state_.to_json();
    c.extra["settings"] = settings_;
    c.tensors.emplace_back("optimizer", byte_tensor(optimizer_bytes(*optimizer_)));
    save_checkpoint(path, c, StoredPrecision::kFloat32);
  }

  // Test BLEU of the saved (half-precision) model, stored in its file.
  void measure_test() {
    const TestBleu bleu = test_bleu(options_.output_path, test_sources_, test_references_);
    record_.test_bleu = bleu.greedy;
    record_.test_bleu_beam5 = bleu.beam5;
    record_.test_corpus = std::filesystem::path(options_.test_source_path).filename().string();
    Checkpoint best = load_checkpoint(options_.output_path);
    best.training = record_;
    save_checkpoint(options_.output_path, best, StoredPrecision::kFloat16);
  }

  const TrainOptions& options_;
  const TrainObserver& observer_;
  nlohmann::json settings_;  // this run's settings, recorded in its state file
  ModelConfig config_;
  Vocabulary source_vocabulary_, target_vocabulary_;
  SubwordModel source_subwords_, target_subwords_;  // subword models only
  std::shared_ptr<TrainableModel> model_;           // a Seq2Seq or a Transformer (config_.arch)
  std::unique_ptr<FusedAdam> optimizer_;
  ResumeState state_;
  TrainingRecord record_;
  std::optional<Checkpoint> initial_;  // TrainOptions::init_from's header (no weights)
  std::vector<IdPair> train_pairs_, valid_pairs_;
  std::vector<std::vector<std::string>> valid_references_;
  struct ReportSet {
    std::string name;
    std::vector<IdPair> pairs;
    std::vector<std::vector<std::string>> references;
  };
  std::vector<ReportSet> report_sets_;
  std::vector<std::string> test_sources_, test_references_;
  std::vector<int64_t> probe_ids_;  // snapshots: the probe as the model reads it
  std::vector<std::string> probe_tokens_;
  std::ofstream snapshots_file_;
  std::unique_ptr<TrainingGroup> group_;       // several processes; null when training alone
  int workers_ = 1;                            // threads sharing every batch (options_.threads)
  Precision precision_ = Precision::kFloat32;  // of the products (options_.precision)
  BatchPart batch_part_;                       // this process's shares of every batch in a group
  bool stop_asked_ = false;                    // in a group: to be sent with the next batch
  int64_t total_batches_ = 0;  // batches trained in the whole run (estimated after a resume)
  bool stopped_by_request_ = false;
  // Of this epoch's time so far, how long the observer held the run paused: not training time,
  // so neither the speed, the time left nor the epoch's time count it.
  double paused_seconds_ = 0.0;
};

}  // namespace

std::string report_set_name(const std::string& source_path) {
  const std::filesystem::path path(source_path);
  std::string name = path.filename().string();
  if (name.size() > 3 && name.substr(name.size() - 3) == ".gz") name.resize(name.size() - 3);
  // "val.en" → "val" when the last part is a language code (language_of_corpus_file's rule).
  if (!language_of_corpus_file(source_path).empty()) name = name.substr(0, name.rfind('.'));
  const std::string folder = path.parent_path().filename().string();
  return folder.empty() || folder == "." ? name : folder + "/" + name;
}

std::string language_of_corpus_file(const std::string& path) {
  std::string name = std::filesystem::path(path).filename().string();
  if (name.size() > 3 && name.compare(name.size() - 3, 3, ".gz") == 0) name.resize(name.size() - 3);
  const size_t dot = name.rfind('.');
  if (dot == std::string::npos) return "";
  const std::string code = name.substr(dot + 1);
  const bool letters =
      std::all_of(code.begin(), code.end(), [](char c) { return c >= 'a' && c <= 'z'; });
  // Two letters (ISO 639-1) only: three-letter endings are mostly not languages (src, tgt, txt).
  return letters && code.size() == 2 ? code : "";
}

TrainOptions task_options(const std::string& name, const std::string& output_path) {
  const TaskSpec& task = training_task(name);
  TrainOptions o;
  o.task = task.name;
  o.output_path = output_path;
  o.epochs = task.epochs;
  o.batch_size = task.batch_size;
  o.learning_rate = task.learning_rate;
  o.min_frequency = 1;
  // Each task has one right answer: smoothing would only slow the last steps to 100%.
  o.label_smoothing = 0.0;
  o.patience = 3;
  o.model.embedding = task.embedding;
  o.model.hidden = task.hidden;
  o.model.attention = task.hidden;
  o.model.dropout = task.dropout;
  o.model.source_language = "in";
  o.model.target_language = "out";
  // A few snapshots a second on two cores: enough to see the alignment form.
  o.snapshot_every = 10;
  // A task's matrices are too small to share: on two cores one thread trained `reverse` to 95%
  // in 2.7 s, two threads in 6.5 s.
  o.threads = 1;
  return o;
}

void check_train_options(const TrainOptions& options) { validate_options(options); }

TrainingRecord train(const TrainOptions& options, const TrainObserver& observer) {
  return Trainer(options, observer).run();
}

}  // namespace attnscope
