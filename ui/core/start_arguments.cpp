#include "core/start_arguments.h"

#include <QFileInfo>

namespace attnscope::ui {

bool namesModelFile(const QString& argument, qsizetype count) {
  const bool modelName = argument.endsWith(QStringLiteral(".attnmodel")) ||
                         argument.endsWith(QStringLiteral(".pt")) ||
                         argument.endsWith(QStringLiteral(".pth"));
  return modelName &&
         (QFileInfo(argument).isFile() || count == 1 || argument.contains(QLatin1Char('/')));
}

}  // namespace attnscope::ui
