#include <attnscope/model_catalog.h>
#include <attnscope/text.h>

#include <cstdio>
#include <filesystem>
#include <memory>

#include "cli/command.h"

namespace attnscope::cli {
namespace {

std::string bleu_text(double bleu) {
  char text[16] = "-";
  if (bleu >= 0) std::snprintf(text, sizeof text, "%.2f", bleu);
  return text;
}

// "5898+7882 words", for a subword model "8000+8000 pieces" (SentencePiece's, per side), for a
// character model "58+16 characters".
std::string vocabulary_text(const ModelInfo& m) {
  return std::to_string(m.config.source_vocab) + "+" + std::to_string(m.config.target_vocab) +
         (m.subwords == "characters" ? " characters"
          : m.subword_marker.empty() ? " words"
                                     : " pieces");
}

void print_table(const std::vector<ModelInfo>& models) {
  std::printf("%-12s %-11s %-6s %11s %9s %-18s %10s %s\n", "NAME", "SCORE", "LANGS", "PARAMETERS",
              "SIZE", "VOCABULARY", "TEST BLEU", "FILE");
  for (const auto& m : models) {
    const std::string name = printable(std::filesystem::path(m.path).stem().string());
    const std::string langs = language_pair_of(m);
    std::printf("%-12s %-11s %-6s %11lld %7.1fMB %-18s %10s %s\n", name.c_str(),
                m.config.score.c_str(), langs.c_str(), static_cast<long long>(m.parameters),
                m.file_bytes / 1e6, vocabulary_text(m).c_str(),
                bleu_text(m.training.test_bleu).c_str(), printable(m.path).c_str());
  }
}

// The shipped-models table of docs/models.md, straight from what the model files record.
void print_markdown(const std::vector<ModelInfo>& models) {
  std::printf(
      "| score function | languages | test BLEU greedy | beam 5 | validation BLEU | parameters | "
      "file | epochs (best) | training time |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  for (const auto& m : models)
    std::printf("| `%s` | %s | %s | %s | %.2f | %.2fM | %.1f MB | %d (%d) | %.0f min |\n",
                m.config.score.c_str(), language_pair_of(m).c_str(),
                bleu_text(m.training.test_bleu).c_str(),
                bleu_text(m.training.test_bleu_beam5).c_str(), m.training.validation_bleu,
                m.parameters / 1e6, m.file_bytes / 1e6, m.training.epochs, m.training.best_epoch,
                m.training.seconds / 60.0);
  std::printf("\nCommands that trained them (data from ../shared/data/multi30k):\n\n```sh\n");
  for (const auto& m : models) std::printf("%s\n", m.training.command.c_str());
  std::printf("```\n");
}

}  // namespace

Action add_models_command(CLI::App& app) {
  auto markdown = std::make_shared<bool>(false);
  app.add_flag("--markdown", *markdown, "print the README's model table");
  return [markdown] {
    std::vector<std::string> skipped;
    const std::vector<ModelInfo> models = installed_models(&skipped);
    for (const std::string& why : skipped)
      std::fprintf(stderr, "attnscope-cli: note: skipped %s\n", printable(why).c_str());
    if (models.empty()) {
      std::fprintf(stderr, "attnscope-cli: no models found in %s\n",
                   model_directories().front().c_str());
      return 1;
    }
    if (*markdown)
      print_markdown(models);
    else
      print_table(models);
    return 0;
  };
}

}  // namespace attnscope::cli
