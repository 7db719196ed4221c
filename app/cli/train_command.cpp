#include <attnscope/errors.h>
#include <attnscope/trainer.h>
#include <attnscope/training_tasks.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <thread>
#include <tuple>

#include "cli/command.h"
#include "cli/local_processes.h"

namespace attnscope::cli {
namespace {

// A Transformer's warm-up unless --warmup is given: about two epochs of Multi30k at batch 64.
constexpr int kTransformerWarmup = 1000;

struct TrainCommand {
  TrainOptions options;
  int threads = 0;
  std::string master;  // ADDR:PORT
  int local_processes = 0;
  std::string output_layer = "tied";
  std::vector<std::string> report_sources, report_targets;
};

std::string clock_time(double seconds) {
  const long s = static_cast<long>(seconds + 0.5);
  char text[32];
  std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  return text;
}

// A progress bar redrawn in place on a terminal; plain lines every tenth of an epoch otherwise
// (logs of background runs stay readable).
TrainObserver make_observer() {
  const bool terminal = isatty(STDERR_FILENO) != 0;
  TrainObserver observer;
  observer.message = [](const std::string& text) { std::cerr << "note: " << text << '\n'; };
  observer.progress = [terminal](const TrainProgress& p) {
    char line[160];
    if (terminal) {
      const int width = 30, filled = width * p.batch / p.batches;
      std::snprintf(line, sizeof line, "\repoch %d/%d [%-*s] %3d%% %6.1f sent/s ETA %s loss %.3f ",
                    p.epoch, p.epochs, width, std::string(filled, '#').c_str(),
                    100 * p.batch / p.batches, p.sentences_per_second,
                    clock_time(p.eta_seconds).c_str(), p.loss);
      std::cerr << line << std::flush;
    } else if (p.batch == p.batches || p.batch % std::max(1, p.batches / 10) == 0) {
      std::snprintf(line, sizeof line, "epoch %d/%d batch %d/%d %.1f sent/s ETA %s loss %.3f\n",
                    p.epoch, p.epochs, p.batch, p.batches, p.sentences_per_second,
                    clock_time(p.eta_seconds).c_str(), p.loss);
      std::cerr << line << std::flush;
    }
  };
  observer.epoch_done = [terminal](const EpochSummary& s) {
    char line[400];
    // A task's epochs report exact matches (their BLEU says little) and the time so far, which
    // bench/tasks.sh reads to find when a task reached 95%.
    char score[256];
    if (s.validation_accuracy >= 0)
      std::snprintf(score, sizeof score, "exact %.1f%%", 100.0 * s.validation_accuracy);
    else
      std::snprintf(score, sizeof score, "BLEU %.2f", s.validation_bleu);
    for (const auto& [name, bleu] : s.reported) {
      const size_t used = std::strlen(score);
      std::snprintf(score + used, sizeof score - used, " (%s %.2f)", name.c_str(), bleu);
    }
    std::snprintf(line, sizeof line,
                  "%sepoch %d%s: train loss %.3f, valid loss %.3f, ppl %.2f, %s, lr %.2g, %s "
                  "(total %.1f s)%s\n",
                  terminal ? "\n" : "", s.epoch, s.partial ? " (stopped early)" : "", s.train_loss,
                  s.validation_loss, s.validation_perplexity, score, s.learning_rate,
                  clock_time(s.seconds).c_str(), s.total_seconds, s.best ? " (best, saved)" : "");
    std::cerr << line << std::flush;
  };
  return observer;
}

// TrainOptions' names for the settings this command's flags set.
const FlagNames kTrainFlags = {
    {"output_path", "--out"},
    {"epochs", "--epochs"},
    {"batch_size", "--batch"},
    {"min_frequency", "--min-freq"},
    {"model.embedding", "--emb"},
    {"model.hidden", "--hidden"},
    {"model.dropout", "--dropout"},
    {"model.score", "--score"},
    {"model.arch", "--arch"},
    {"model.layers", "--layers"},
    {"model.heads", "--heads"},
    {"model.feed_forward", "--ff"},
    {"warmup_steps", "--warmup"},
    {"model.decoder", "--decoder"},
    {"model.tied_readout", "--output-layer"},
    {"learning_rate", "--lr"},
    {"label_smoothing", "--label-smoothing"},
    {"test_source_path", "--test-src"},
    {"report_sets", "--report-src"},
    {"test_target_path", "--test-tgt"},
    {"resume", "--resume"},
    {"subwords", "--subwords"},
    {"joint_subwords", "--joint-subwords"},
    {"subwords_from", "--subwords-from"},
    {"init_from", "--init-from"},
    {"model.cased", "--cased"},
    {"corpus_name", "--corpus-name"},
    {"save_epochs", "--save-epochs"},
    {"task", "--task"},
    {"task_examples", "--examples"},
    {"snapshots_path", "--snapshots"},
    {"snapshot_every", "--snapshot-every"},
    {"probe", "--probe"},
    {"source_path", "--src"},
    {"target_path", "--tgt"},
    {"validation_source_path", "--val-src"},
    {"validation_target_path", "--val-tgt"},
    {"distributed.world_size", "--world-size"},
    {"distributed.rank", "--rank"},
    {"distributed.master_address", "--master"},
    {"distributed.master_port", "--master"},
    {"distributed.timeout_seconds", "--timeout"},
    {"threads", "--threads"},
    {"precision", "--precision"},
};

// A whole number from the environment, as torchrun sets them; a bad one is named.
int environment_number(const char* name, int fallback) {
  const char* text = std::getenv(name);
  if (!text || !*text) return fallback;
  char* end = nullptr;
  errno = 0;
  const long value = std::strtol(text, &end, 10);
  if (*end != '\0' || errno != 0 || value < 0 || value > 1000000)
    throw std::invalid_argument(std::string(name) + ": '" + text +
                                "' is not a whole number (from the environment)");
  return static_cast<int>(value);
}

// --master ADDR:PORT, or MASTER_ADDR and MASTER_PORT from the environment.
void apply_master(const std::string& master, DistributedOptions& d) {
  if (master.empty()) {
    if (const char* address = std::getenv("MASTER_ADDR"); address && *address)
      d.master_address = address;
    d.master_port = environment_number("MASTER_PORT", d.master_port);
    return;
  }
  const size_t colon = master.rfind(':');
  const std::string port = colon == std::string::npos ? "" : master.substr(colon + 1);
  if (colon == 0 || port.empty() || port.find_first_not_of("0123456789") != std::string::npos ||
      port.size() > 5)
    throw std::invalid_argument("--master: '" + master +
                                "' is not ADDRESS:PORT (e.g. 10.0.0.1:29500)");
  d.master_address = master.substr(0, colon);
  d.master_port = std::stoi(port);
}

// The settings a task brings (task_options) where the command line gives none of its own.
void apply_task_defaults(CLI::App& app, TrainOptions& o) {
  const TrainOptions task = task_options(o.task, o.output_path);
  const auto unset = [&app](const char* flag) { return app.get_option(flag)->count() == 0; };
  if (unset("--epochs")) o.epochs = task.epochs;
  if (unset("--batch")) o.batch_size = task.batch_size;
  if (unset("--lr")) o.learning_rate = task.learning_rate;
  if (unset("--min-freq")) o.min_frequency = task.min_frequency;
  if (unset("--patience")) o.patience = task.patience;
  if (unset("--emb")) o.model.embedding = task.model.embedding;
  if (unset("--hidden")) o.model.hidden = task.model.hidden;
  if (unset("--dropout")) o.model.dropout = task.model.dropout;
  if (unset("--threads")) o.threads = task.threads;
  if (unset("--label-smoothing")) o.label_smoothing = task.label_smoothing;
  o.model.source_language = task.model.source_language;
  o.model.target_language = task.model.target_language;
}

// `value` as a shell reads it back: as it is when it is made of safe characters only, else in
// single quotes (each ' written '\''), so the recorded command runs again as given
// (--corpus-name "Multi30k + Tatoeba").
std::string shell_quoted(const std::string& value) {
  const bool safe = !value.empty() && std::all_of(value.begin(), value.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("@%+=:,./_-", c) != nullptr;
  });
  if (safe) return value;
  std::string quoted = "'";
  for (char c : value) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace

Action add_train_command(CLI::App& app) {
  auto c = std::make_shared<TrainCommand>();
  TrainOptions& o = c->options;
  app.add_option("--src", o.source_path, "training source text (plain or .gz)");
  app.add_option("--tgt", o.target_path, "training target text");
  app.add_option("--src-lang", o.model.source_language,
                 "language code of the source text, stored in the model (default: from --src's "
                 "file name, as train.en.gz says en; else en)");
  app.add_option("--tgt-lang", o.model.target_language,
                 "language code of the target text (default: from --tgt's file name, as "
                 "train.fr.gz says fr; else de)");
  app.add_option("--val-src", o.validation_source_path, "validation source text");
  app.add_option("--val-tgt", o.validation_target_path, "validation target text");
  app.add_option("--task", o.task,
                 "a built-in task instead of the corpus files (" + training_task_list() +
                     "); its own sizes, epochs and learning rate unless given, and one thread");
  app.add_option("--examples", o.task_examples, "training examples of the task (0 = its default)");
  app.add_option("--snapshots", o.snapshots_path,
                 "write the probe's greedy output and attention every --snapshot-every batches "
                 "to this file (JSON lines)");
  app.add_option("--snapshot-every", o.snapshot_every, "batches between snapshots (default 10)");
  app.add_option("--probe", o.probe,
                 "the sentence snapshots decode (default: the task's, or the first validation "
                 "sentence)");
  app.add_option("--report-src", c->report_sources,
                 "further validation sets whose BLEU each epoch reports (e.g. each corpus of a "
                 "mixed --val-src alone); they choose nothing. With --report-tgt, one each");
  app.add_option("--report-tgt", c->report_targets, "their targets, in the same order");
  app.add_option("--test-src", o.test_source_path, "test source: BLEU stored in the model");
  app.add_option("--test-tgt", o.test_target_path, "test target");
  app.add_option("--score", o.model.score, "attention score function (an RNN's)")
      ->capture_default_str();
  app.add_option("--arch", o.model.arch,
                 "architecture: rnn (GRU encoder and decoder, one attention: --score, --hidden, "
                 "--decoder) or transformer (multi-head attention in every layer: --layers, "
                 "--heads, --ff; its model size is --emb)")
      ->check(CLI::IsMember({std::string(kRnnArch), std::string(kTransformerArch)}))
      ->capture_default_str();
  app.add_option("--layers", o.model.layers, "Transformer: encoder layers, and as many decoder's")
      ->capture_default_str();
  app.add_option("--heads", o.model.heads, "Transformer: attention heads per layer")
      ->capture_default_str();
  app.add_option("--ff", o.model.feed_forward, "Transformer: feed-forward size of each layer")
      ->capture_default_str();
  app.add_option("--warmup", o.warmup_steps,
                 "batches over which the learning rate rises to --lr, then falls as 1/sqrt(batch) "
                 "instead of halving on plateaus (default: 0 for an RNN, " +
                     std::to_string(kTransformerWarmup) + " for a Transformer)");
  app.add_option("--out", o.output_path, "model file to write")->required();
  app.add_option("--epochs", o.epochs, "maximum epochs")->capture_default_str();
  app.add_option("--emb", o.model.embedding, "embedding size")->capture_default_str();
  app.add_option("--hidden", o.model.hidden, "GRU size")->capture_default_str();
  app.add_option("--decoder", o.model.decoder,
                 "decoder: gru (attention queried with the previous state) or cgru (the "
                 "conditional GRU: queried between two GRUs)")
      ->capture_default_str();
  app.add_option("--output-layer", c->output_layer,
                 "output layer: tied (a readout to the embedding size, multiplied by the target "
                 "embeddings) or direct (one linear layer over [state; context; embedding], the "
                 "Python reference's)")
      ->check(CLI::IsMember({"tied", "direct"}))
      ->capture_default_str();
  app.add_option("--batch", o.batch_size, "sentences per batch")->capture_default_str();
  app.add_option("--seed", o.seed, "random seed")->capture_default_str();
  app.add_option("--min-freq", o.min_frequency, "vocabulary: minimum word count")
      ->capture_default_str();
  app.add_option("--subwords", o.subwords,
                 "subword model: SentencePiece pieces per language (0 = words)")
      ->capture_default_str();
  app.add_flag("--save-epochs", o.save_epochs,
               "also write each epoch's model as OUT's name with .epochNN, for `average`");
  app.add_flag("--joint-subwords", o.joint_subwords,
               "with --subwords: one SentencePiece model learned on both languages' text");
  app.add_option("--subwords-from", o.subwords_from,
                 "take the SentencePiece models (the vocabularies) of this model file instead of "
                 "learning new ones: every model of a language pair shares its pieces");
  app.add_option("--init-from", o.init_from,
                 "start from this model file's weights and vocabulary (the same shape) instead "
                 "of random weights: train a shipped model further, or go on without a state "
                 "file; the optimizer starts afresh");
  app.add_flag("--cased", o.model.cased,
               "subword models: read text as written (case kept, punctuation attached) and "
               "write cased, detokenised text");
  app.add_option("--corpus-name", o.corpus_name,
                 "what the training corpus is, recorded in the model (e.g. \"Multi30k + "
                 "Tatoeba\"; default: the files' names)");
  app.add_option("--label-smoothing", o.label_smoothing, "label smoothing of the loss")
      ->capture_default_str();
  app.add_option("--lr", o.learning_rate, "Adam learning rate")->capture_default_str();
  app.add_option("--dropout", o.model.dropout, "dropout")->capture_default_str();
  app.add_option("--patience", o.patience,
                 "epochs without a better validation BLEU (a task: exact match) before stopping")
      ->capture_default_str();
  app.add_option("--max-batches", o.max_batches, "batches per epoch (0 = all)");
  app.add_flag("--resume", o.resume, "continue from OUT.state after an interruption");
  app.add_option("--world-size", o.distributed.world_size,
                 "processes training together, on this and other machines (default: "
                 "$WORLD_SIZE or 1)");
  app.add_option("--rank", o.distributed.rank,
                 "this process's place among them, 0 to N-1; rank 0 writes the model (default: "
                 "$RANK or 0)");
  app.add_option("--master", c->master,
                 "ADDRESS:PORT where rank 0 listens (default: $MASTER_ADDR:$MASTER_PORT or "
                 "127.0.0.1:29500)");
  app.add_option("--timeout", o.distributed.timeout_seconds,
                 "seconds a rank may be silent, or late to join, before the others stop")
      ->capture_default_str();
  app.add_option("--local-processes", c->local_processes,
                 "start this many ranks on this machine (with --world-size, --rank and --master "
                 "set), each with an equal share of the cores unless --threads is given")
      ->check(CLI::Range(1, 64));
  app.add_option("--precision", o.precision,
                 "matrix products: auto (bf16 where the CPU has AVX512-BF16 or AMX), fp32 or "
                 "bf16 (float32 weights, loss and optimizer either way)")
      ->check(CLI::IsMember({"auto", "fp32", "bf16"}))
      ->capture_default_str();
  add_threads_option(app, c->threads, /*cap_at_cores=*/false);
  return [c, &app] {
    std::string command = "attnscope-cli train";
    for (const auto* option : app.get_options())
      if (option->count() > 0 && option->get_name() != "--help") {
        command += " " + option->get_name();
        if (option->get_expected_min() > 0)
          for (const auto& value : option->results()) command += " " + shell_quoted(value);
      }
    TrainOptions& o = c->options;
    if (c->local_processes > 0) {
      for (const char* flag : {"--world-size", "--rank"})
        if (app.get_option(flag)->count() > 0)
          throw std::invalid_argument(std::string("--local-processes sets ") + flag +
                                      " for each rank it starts: give one or the other");
      o.distributed.world_size = c->local_processes;
    } else {
      if (app.get_option("--world-size")->count() == 0)
        o.distributed.world_size = environment_number("WORLD_SIZE", 1);
      if (app.get_option("--rank")->count() == 0)
        o.distributed.rank = environment_number("RANK", 0);
    }
    apply_master(c->master, o.distributed);
    o.threads = c->threads;
    o.model.tied_readout = c->output_layer == "tied";
    if (c->report_sources.size() != c->report_targets.size())
      throw std::invalid_argument(
          "--report-src and --report-tgt: " + std::to_string(c->report_sources.size()) +
          " sources but " + std::to_string(c->report_targets.size()) +
          " targets; give one target per source");
    o.report_sets.clear();
    for (size_t i = 0; i < c->report_sources.size(); ++i)
      o.report_sets.emplace_back(c->report_sources[i], c->report_targets[i]);
    // Notes come from the process that reports: rank 0, not the ranks' starter or the others.
    const bool reports = c->local_processes == 0 && o.distributed.rank == 0;
    if (!o.task.empty()) {
      run_with_flags(kTrainFlags, [&] {
        try {
          training_task(o.task);
        } catch (const std::invalid_argument& e) {
          throw SettingError("task", e.what());
        }
        return 0;
      });
      apply_task_defaults(app, o);
    } else {
      for (const char* flag : {"--src", "--tgt", "--val-src", "--val-tgt"})
        if (app.get_option(flag)->count() == 0)
          throw std::invalid_argument(std::string(flag) +
                                      " is required: train on a parallel corpus (--src, --tgt, "
                                      "--val-src, --val-tgt) or on a built-in --task");
      // The model names its language pair (the model list, the status line, exports).
      for (auto [flag, path, language] :
           {std::tuple{"--src-lang", &o.source_path, &o.model.source_language},
            std::tuple{"--tgt-lang", &o.target_path, &o.model.target_language}}) {
        const std::string guessed = language_of_corpus_file(*path);
        if (app.get_option(flag)->count() == 0 && !guessed.empty()) *language = guessed;
        if (language->empty() || language->size() > 16 ||
            language->find_first_of(" \t\n/") != std::string::npos)
          throw std::invalid_argument(std::string(flag) + ": '" + *language +
                                      "' is no language code (e.g. en, de, fr)");
      }
    }
    // Snapshots cost a greedy decoding each: only when they are written.
    if (o.snapshots_path.empty()) {
      if (reports && (app.get_option("--snapshot-every")->count() > 0 || !o.probe.empty()))
        std::cerr << "note: --snapshot-every and --probe apply only with --snapshots FILE\n";
      o.snapshot_every = 0;
    } else if (app.get_option("--snapshot-every")->count() == 0) {
      o.snapshot_every = 10;
    }
    if (o.model.transformer()) {
      // A Transformer's own settings where the command line gives none: its attention, its one
      // model size, its schedule. A --score or --hidden it cannot have is refused by train().
      const auto unset = [&app](const char* flag) { return app.get_option(flag)->count() == 0; };
      if (unset("--score")) o.model.score = kTransformerScore;
      if (unset("--hidden")) o.model.hidden = o.model.embedding;
      if (unset("--warmup")) o.warmup_steps = kTransformerWarmup;
    }
    c->options.model.attention = c->options.model.hidden;
    c->options.command = command;
    if (reports && c->options.subwords > 0 && app.get_option("--min-freq")->count() > 0)
      std::cerr << "note: --min-freq does not apply to a subword model: its vocabulary is the "
                   "--subwords pieces\n";
    if (c->local_processes > 0) {
      // A bad setting is refused once, here, rather than by every rank started.
      run_with_flags(kTrainFlags, [&] {
        check_train_options(o);
        return 0;
      });
      const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
      return run_local_processes(c->local_processes, c->master,
                                 std::max(1, cores / c->local_processes));
    }
    local_rank_guard();
    TrainingRecord record;
    run_with_flags(kTrainFlags, [&] {
      record = train(c->options, make_observer());
      return 0;
    });
    if (o.distributed.rank != 0) return 0;  // rank 0 reports for the group
    std::cout << "model '" << c->options.output_path << "': best epoch " << record.best_epoch
              << " of " << record.epochs;
    if (record.validation_accuracy >= 0)
      std::cout << ", validation exact match " << 100.0 * record.validation_accuracy << "%";
    else
      std::cout << ", validation BLEU " << record.validation_bleu;
    if (record.test_bleu >= 0)
      std::cout << ", test BLEU " << record.test_bleu << " (beam 5: " << record.test_bleu_beam5
                << ")";
    std::cout << '\n';
    return 0;
  };
}

}  // namespace attnscope::cli
