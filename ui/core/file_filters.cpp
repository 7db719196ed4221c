#include "core/file_filters.h"

#include <QFileInfo>
#include <QRegularExpression>

namespace attnscope::ui {

QString filterSuffix(const QString& nameFilter) {
  // The first "*.ext" inside the parentheses; "*" alone (all files) names no extension.
  static const QRegularExpression pattern(QStringLiteral(R"(\*\.([A-Za-z0-9_]+)[\s)])"));
  const QRegularExpressionMatch match = pattern.match(nameFilter);
  return match.hasMatch() ? match.captured(1) : QString();
}

QString withFilterSuffix(const QString& path, const QString& nameFilter) {
  const QString suffix = filterSuffix(nameFilter);
  if (path.isEmpty() || suffix.isEmpty() || !QFileInfo(path).suffix().isEmpty()) return path;
  return path + QLatin1Char('.') + suffix;
}

}  // namespace attnscope::ui
