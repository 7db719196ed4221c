#include "widgets/type_to_search.h"

#include <QCoreApplication>
#include <QKeyEvent>
#include <QLineEdit>
#include <QWidget>

namespace attnscope::ui {

TypeToSearch::TypeToSearch(QWidget* view, QLineEdit* input)
    : QObject(view), view_(view), input_(input) {
  view->installEventFilter(this);
}

bool TypeToSearch::eventFilter(QObject* watched, QEvent* event) {
  const bool keyEvent =
      event->type() == QEvent::KeyPress || event->type() == QEvent::ShortcutOverride;
  if (watched != view_ || !keyEvent) return false;
  auto* key = static_cast<QKeyEvent*>(event);
  const bool printable = !key->text().isEmpty() && key->text().front().isPrint() &&
                         !(key->modifiers() & (Qt::ControlModifier | Qt::AltModifier));
  const bool typing = view_->window()->focusWidget() == input_;
  // Once typing has started, Space is part of the sentence, not Play.
  if (event->type() == QEvent::ShortcutOverride) {
    if (printable && typing) event->accept();
    return printable && typing;
  }
  if (!printable) return false;
  if (!typing) {  // the first character: not when it goes on typing
    input_->selectAll();
    input_->setFocus(Qt::ShortcutFocusReason);
  }
  QCoreApplication::sendEvent(input_, event);
  return true;
}

}  // namespace attnscope::ui
