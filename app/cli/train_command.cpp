#include <attnscope/trainer.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <memory>

#include "cli/command.h"

namespace attnscope::cli {
namespace {

struct TrainCommand {
  TrainOptions options;
  int threads = 0;
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
    char line[200];
    std::snprintf(
        line, sizeof line,
        "%sepoch %d: train loss %.3f, valid loss %.3f, ppl %.2f, BLEU %.2f, lr %.2g, %s%s\n",
        terminal ? "\n" : "", s.epoch, s.train_loss, s.validation_loss, s.validation_perplexity,
        s.validation_bleu, s.learning_rate, clock_time(s.seconds).c_str(),
        s.best ? " (best, saved)" : "");
    std::cerr << line << std::flush;
  };
  return observer;
}

// TrainOptions' names for the settings this command's flags set.
const FlagNames kTrainFlags = {
    {"output_path", "--out"},           {"epochs", "--epochs"},
    {"batch_size", "--batch"},          {"min_frequency", "--min-freq"},
    {"model.embedding", "--emb"},       {"model.hidden", "--hidden"},
    {"model.dropout", "--dropout"},     {"model.score", "--score"},
    {"learning_rate", "--lr"},          {"test_source_path", "--test-src"},
    {"test_target_path", "--test-tgt"}, {"resume", "--resume"},
    {"subwords", "--subwords"},
};

}  // namespace

Action add_train_command(CLI::App& app) {
  auto c = std::make_shared<TrainCommand>();
  TrainOptions& o = c->options;
  app.add_option("--src", o.source_path, "training source text (plain or .gz)")->required();
  app.add_option("--tgt", o.target_path, "training target text")->required();
  app.add_option("--val-src", o.validation_source_path, "validation source text")->required();
  app.add_option("--val-tgt", o.validation_target_path, "validation target text")->required();
  app.add_option("--test-src", o.test_source_path, "test source: BLEU stored in the model");
  app.add_option("--test-tgt", o.test_target_path, "test target");
  app.add_option("--score", o.model.score, "attention score function")->required();
  app.add_option("--out", o.output_path, "model file to write")->required();
  app.add_option("--epochs", o.epochs, "maximum epochs")->capture_default_str();
  app.add_option("--emb", o.model.embedding, "embedding size")->capture_default_str();
  app.add_option("--hidden", o.model.hidden, "GRU size")->capture_default_str();
  app.add_option("--batch", o.batch_size, "sentences per batch")->capture_default_str();
  app.add_option("--seed", o.seed, "random seed")->capture_default_str();
  app.add_option("--min-freq", o.min_frequency, "vocabulary: minimum word count")
      ->capture_default_str();
  app.add_option("--subwords", o.subwords,
                 "subword model: SentencePiece pieces per language (0 = words)")
      ->capture_default_str();
  app.add_option("--lr", o.learning_rate, "Adam learning rate")->capture_default_str();
  app.add_option("--dropout", o.model.dropout, "dropout")->capture_default_str();
  app.add_option("--patience", o.patience,
                 "epochs without a better validation BLEU before stopping")
      ->capture_default_str();
  app.add_option("--max-batches", o.max_batches, "batches per epoch (0 = all)");
  app.add_flag("--resume", o.resume, "continue from OUT.state after an interruption");
  add_threads_option(app, c->threads);
  return [c, &app] {
    std::string command = "attnscope-cli train";
    for (const auto* option : app.get_options())
      if (option->count() > 0 && option->get_name() != "--help") {
        command += " " + option->get_name();
        if (option->get_expected_min() > 0)
          for (const auto& value : option->results()) command += " " + value;
      }
    c->options.model.attention = c->options.model.hidden;
    c->options.command = command;
    if (c->options.subwords > 0 && app.get_option("--min-freq")->count() > 0)
      std::cerr << "note: --min-freq does not apply to a subword model: its vocabulary is the "
                   "--subwords pieces\n";
    TrainingRecord record;
    run_with_flags(kTrainFlags, [&] {
      record = train(c->options, make_observer());
      return 0;
    });
    std::cout << "model '" << c->options.output_path << "': best epoch " << record.best_epoch
              << " of " << record.epochs << ", validation BLEU " << record.validation_bleu;
    if (record.test_bleu >= 0)
      std::cout << ", test BLEU " << record.test_bleu << " (beam 5: " << record.test_bleu_beam5
                << ")";
    std::cout << '\n';
    return 0;
  };
}

}  // namespace attnscope::cli
