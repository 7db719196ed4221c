#include "widgets/file_dialogs.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>

#include "core/file_filters.h"

namespace attnscope::ui {
namespace {

QString startFolder(const AppSettings& settings, AppSettings::Folder folder) {
  const QString remembered = settings.folder(folder);
  if (!remembered.isEmpty() && QFileInfo(remembered).isDir()) return remembered;
  // The working folder, where a command-line user's files are; a desktop launcher may start
  // the app in "/", where nobody keeps them.
  return QDir::currentPath() == QDir::rootPath() ? QDir::homePath() : QDir::currentPath();
}

}  // namespace

QString askOpenPath(QWidget* parent, AppSettings::Folder folder, const QString& title,
                    const QString& filter, const QString& current) {
  AppSettings settings;
  const QString start = current.trimmed().isEmpty() ? startFolder(settings, folder) : current;
  const QString path = QFileDialog::getOpenFileName(parent, title, start, filter);
  if (!path.isEmpty()) settings.setFolderOf(folder, path);
  return path;
}

QString askSavePath(QWidget* parent, AppSettings::Folder folder, const QString& title,
                    const QString& fileName, const QString& filter) {
  AppSettings settings;
  QFileDialog dialog(parent, title, startFolder(settings, folder) + QLatin1Char('/') + fileName,
                     filter);
  dialog.setAcceptMode(QFileDialog::AcceptSave);
  // Qt's own dialog appends the suffix before it asks about overwriting; the same rule applied
  // after exec() covers a platform dialog that ignores it.
  dialog.setDefaultSuffix(filterSuffix(dialog.selectedNameFilter()));
  QObject::connect(
      &dialog, &QFileDialog::filterSelected, &dialog,
      [&dialog](const QString& chosen) { dialog.setDefaultSuffix(filterSuffix(chosen)); });
  if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty()) return QString();
  const QString path =
      withFilterSuffix(dialog.selectedFiles().constFirst(), dialog.selectedNameFilter());
  settings.setFolderOf(folder, path);
  return path;
}

}  // namespace attnscope::ui
