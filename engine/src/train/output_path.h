#pragma once
#include <string>

namespace attnscope {

/// Fails now, not after an hour of training, when the model could not be written: throws
/// SettingError("output_path", ...) for an empty path, a folder, a missing or unwritable
/// folder, or a model or state path that exists and is not a regular file.
void check_output_path(const std::string& output_path);

/// Where `train --save-epochs` writes epoch `epoch`'s model: "run.attnmodel" gives
/// "run.epoch07.attnmodel" (two digits at least, so a folder lists them in order), a path
/// without that extension gets ".epoch07" appended.
std::string epoch_model_path(const std::string& output_path, int epoch);

}  // namespace attnscope
