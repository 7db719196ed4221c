#include "core/token_text.h"

namespace attnscope::ui {

QString readableToken(const QString& token, bool first) {
  static const QString kMark = QStringLiteral("\u2581");
  static const QString kSpace = QStringLiteral("\u2423");
  if (!token.startsWith(kMark)) return token;
  const QString rest = token.mid(kMark.size());
  if (rest.isEmpty()) return kSpace;  // a piece that is only a space
  return first ? rest : kSpace + rest;
}

}  // namespace attnscope::ui
