#include <attnscope/model_catalog.h>

#include <cstdio>
#include <filesystem>

#include "cli/command.h"

namespace attnscope::cli {

Action add_models_command(CLI::App&) {
  return [] {
    const std::vector<ModelInfo> models = installed_models();
    if (models.empty()) {
      std::fprintf(stderr, "attnscope-cli: no models found in %s\n", model_directories().front().c_str());
      return 1;
    }
    std::printf("%-12s %-11s %-6s %11s %9s %10s %s\n", "NAME", "SCORE", "LANGS", "PARAMETERS",
                "SIZE", "TEST BLEU", "FILE");
    for (const auto& m : models) {
      const std::string name = std::filesystem::path(m.path).stem().string();
      const std::string langs = m.config.source_language + "-" + m.config.target_language;
      char bleu[16] = "-";
      if (m.training.test_bleu >= 0) std::snprintf(bleu, sizeof bleu, "%.2f", m.training.test_bleu);
      std::printf("%-12s %-11s %-6s %11lld %7.1fMB %10s %s\n", name.c_str(), m.config.score.c_str(),
                  langs.c_str(), static_cast<long long>(m.parameters), m.file_bytes / 1e6, bleu,
                  m.path.c_str());
    }
    return 0;
  };
}

}  // namespace attnscope::cli
