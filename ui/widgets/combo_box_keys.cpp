#include "widgets/combo_box_keys.h"

#include <QComboBox>
#include <QEvent>
#include <QKeyEvent>

namespace attnscope::ui {

bool ComboBoxKeys::eventFilter(QObject* watched, QEvent* event) {
  // A shortcut wins over the focused widget unless the widget accepts the override first; a
  // combo box does not for these keys, so the window's Home and End took them.
  if (event->type() == QEvent::ShortcutOverride && qobject_cast<QComboBox*>(watched) != nullptr) {
    const auto* key = static_cast<QKeyEvent*>(event);
    const bool navigation = key->key() == Qt::Key_Home || key->key() == Qt::Key_End ||
                            key->key() == Qt::Key_PageUp || key->key() == Qt::Key_PageDown;
    if (navigation && key->modifiers() == Qt::NoModifier) event->accept();
  }
  return QObject::eventFilter(watched, event);
}

}  // namespace attnscope::ui
