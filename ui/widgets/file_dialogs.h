#pragma once
// Every file dialog of the app: it opens in the folder where a file of its kind was chosen last
// (the working folder the first time), remembers the folder of the file chosen, and a save
// dialog adds the chosen type's extension to a name typed without one.
#include <QString>

#include "core/app_settings.h"

class QWidget;

namespace attnscope::ui {

/// A file to read; empty when cancelled. `current`, when given (a field's path), is where the
/// dialog starts instead of the remembered folder.
QString askOpenPath(QWidget* parent, AppSettings::Folder folder, const QString& title,
                    const QString& filter, const QString& current = QString());

/// A file to write, `fileName` proposed in the remembered folder; empty when cancelled.
QString askSavePath(QWidget* parent, AppSettings::Folder folder, const QString& title,
                    const QString& fileName, const QString& filter);

}  // namespace attnscope::ui
