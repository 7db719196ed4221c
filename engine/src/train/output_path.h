#pragma once
#include <string>

namespace attnscope {

struct TrainOptions;

/// Fails now, not after an hour of training, when the model could not be written: throws
/// SettingError("output_path", ...) for an empty path, a folder, a missing or unwritable
/// folder, or a model or state path that exists and is not a regular file.
void check_output_path(const std::string& output_path);

/// Throws SettingError("output_path" or "snapshots_path", ...) when the model, its state file,
/// an epoch model or the snapshots file would be written over one of the run's inputs (the
/// corpus, validation, report and test files, the model the subwords come from), however the
/// path is spelled, or the snapshots over the model; and when the snapshots path is a folder, a
/// FIFO or a device, or lies in a folder that does not exist.
void check_outputs_spare_inputs(const TrainOptions& options);

/// Where `train --save-epochs` writes epoch `epoch`'s model: "run.attnmodel" gives
/// "run.epoch07.attnmodel" (two digits at least, so a folder lists them in order), a path
/// without that extension gets ".epoch07" appended.
std::string epoch_model_path(const std::string& output_path, int epoch);

}  // namespace attnscope
