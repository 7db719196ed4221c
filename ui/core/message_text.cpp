#include "core/message_text.h"

namespace attnscope::ui {

QString dialogMessage(const QString& message) {
  if (message.isEmpty() || !message.front().isLower()) return message;
  return message.front().toUpper() + message.mid(1);
}

}  // namespace attnscope::ui
