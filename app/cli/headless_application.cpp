#include "cli/headless_application.h"

#include <attnscope/output_file.h>

#include <QDir>
#include <QFileInfo>
#include <cstdio>
#include <stdexcept>

namespace attnscope::cli {

std::unique_ptr<QApplication> headless_application() {
  if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
      qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
    qputenv("QT_QPA_PLATFORM", "offscreen");
  // Qt's warnings (no XDG_RUNTIME_DIR under a plain shell, offscreen plugin notes) are not the
  // user's business here; real failures arrive as exceptions with their own message.
  qInstallMessageHandler([](QtMsgType type, const QMessageLogContext&, const QString& text) {
    if (type == QtCriticalMsg || type == QtFatalMsg) fprintf(stderr, "%s\n", qPrintable(text));
  });
  static int argc = 1;
  static char name[] = "attnscope-cli";
  static char* argv[] = {name, nullptr};
  return std::make_unique<QApplication>(argc, argv);
}

void check_output_path(const std::string& path, const std::vector<std::string>& inputs) {
  // The exporter's save renames over whatever is at the path, which must never be a device or a
  // FIFO; checked before any model is loaded, so a long run does not end in this error.
  const QFileInfo out(QString::fromStdString(path));
  if (out.exists() && !out.isFile())
    throw std::invalid_argument(
        "cannot export to '" + path +
        "': " + (out.isDir() ? "it is a directory" : "it exists and is not a regular file"));
  if (!out.absoluteDir().exists())
    throw std::invalid_argument("cannot export to '" + path + "': folder '" +
                                out.absolutePath().toStdString() + "' does not exist");
  check_not_an_input("--out", path, inputs);
}

}  // namespace attnscope::cli
