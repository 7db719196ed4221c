#pragma once
// The commands that draw (export, eval --plot) render Qt widgets: they need a QApplication,
// which needs a platform even without a display. Only in a build with the UI.
#include <QApplication>
#include <memory>
#include <string>
#include <vector>

namespace attnscope::cli {

/// A QApplication on the offscreen platform when there is no display, Qt's own chatter muted.
std::unique_ptr<QApplication> headless_application();

/// Throws std::invalid_argument("cannot export to 'path': ...") when a file cannot be written at
/// `path`: its folder is missing, or something other than a regular file is there, or it is one
/// of the command's `inputs` (a model, an attention or snapshots file) however spelled.
void check_output_path(const std::string& path, const std::vector<std::string>& inputs);

}  // namespace attnscope::cli
