#pragma once
// Help > About: what a bug report needs (the app's version, the Qt it runs on, the LibTorch it
// was built with, the kernels and training precision this CPU gets) and the licence.
#include <QString>

namespace attnscope::ui {

/// Rich text for QMessageBox::about: "attnscope 0.9.0", the Qt and LibTorch versions, the licence.
QString aboutText(const QString& appVersion);

}  // namespace attnscope::ui
