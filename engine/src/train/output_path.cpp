#include "train/output_path.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

#include "attnscope/errors.h"
#include "attnscope/output_file.h"
#include "attnscope/trainer.h"

namespace attnscope {

void check_output_path(const std::string& output_path) {
  namespace fs = std::filesystem;
  const char* setting = "output_path";
  if (output_path.empty())
    ATTNSCOPE_THROW_SETTING(setting, "the output path is empty: give a model file name");
  const fs::path path(output_path);
  if (fs::is_directory(path))
    ATTNSCOPE_THROW_SETTING(setting, "output '", output_path, "' is a directory, not a file name");
  // Saving renames a temporary file over these: never over a device, a FIFO or a folder.
  for (const std::string& target : {output_path, output_path + ".state"}) {
    std::error_code ec;
    const auto status = fs::status(target, ec);
    if (fs::exists(status) && !fs::is_regular_file(status))
      ATTNSCOPE_THROW_SETTING(setting, "output '", target, "' exists and is not a regular file");
  }
  const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
  if (!fs::is_directory(folder))
    ATTNSCOPE_THROW_SETTING(setting, "output folder '", folder.string(), "' does not exist");
  const std::string probe =
      (folder / (".attnscope-write-test." + std::to_string(::getpid()))).string();
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0)
    ATTNSCOPE_THROW_SETTING(setting, "cannot write to output folder '", folder.string(),
                            "': ", std::strerror(errno));
  ::close(fd);
  ::unlink(probe.c_str());
}

void check_outputs_spare_inputs(const TrainOptions& o) {
  namespace fs = std::filesystem;
  std::vector<std::string> inputs = {
      o.source_path,      o.target_path,      o.validation_source_path, o.validation_target_path,
      o.test_source_path, o.test_target_path, o.subwords_from,          o.init_from};
  for (const auto& [source, target] : o.report_sets) inputs.insert(inputs.end(), {source, target});
  inputs.erase(std::remove(inputs.begin(), inputs.end(), std::string()), inputs.end());
  // The engine's messages name settings as the options struct does; a front end maps them to its
  // own controls (SettingError::setting()).
  const auto as_setting = [](const char* setting, const auto& check) {
    try {
      check();
    } catch (const SettingError&) {
      throw;
    } catch (const std::invalid_argument& e) {
      throw SettingError(setting, e.what());
    }
  };
  as_setting("output_path", [&] {
    check_not_an_input("output", o.output_path, inputs);
    check_not_an_input("state file", o.output_path + ".state", inputs);
    if (o.save_epochs)
      for (int epoch = 1; epoch <= o.epochs; ++epoch)
        check_not_an_input("epoch model", epoch_model_path(o.output_path, epoch), inputs);
  });
  if (o.snapshots_path.empty()) return;
  as_setting("snapshots_path", [&] {
    std::vector<std::string> read_or_written = inputs;
    read_or_written.insert(read_or_written.end(), {o.output_path, o.output_path + ".state"});
    check_regular_output_file("snapshots", o.snapshots_path, read_or_written);
    // The model need not exist yet, so compare the names too.
    std::error_code ec;
    if (fs::weakly_canonical(o.snapshots_path, ec) == fs::weakly_canonical(o.output_path, ec))
      ATTNSCOPE_THROW_INVALID_ARGUMENT("snapshots '", o.snapshots_path,
                                       "' is the model file: choose another file name");
  });
}

std::string epoch_model_path(const std::string& output_path, int epoch) {
  char number[16];
  std::snprintf(number, sizeof number, ".epoch%02d", epoch);
  const std::string extension = ".attnmodel";
  const bool has_extension =
      output_path.size() > extension.size() &&
      output_path.compare(output_path.size() - extension.size(), extension.size(), extension) == 0;
  if (!has_extension) return output_path + number;
  return output_path.substr(0, output_path.size() - extension.size()) + number + extension;
}

}  // namespace attnscope
