#include "widgets/tool_bar_rows.h"

#include <QEvent>
#include <QMainWindow>
#include <QToolBar>

namespace attnscope::ui {

ToolBarRows::ToolBarRows(QMainWindow* window, QToolBar* first, QToolBar* second)
    : QObject(window), window_(window), first_(first), second_(second) {
  window_->installEventFilter(this);
  arrange();
}

bool ToolBarRows::wrapped() const { return window_->toolBarBreak(second_); }

bool ToolBarRows::eventFilter(QObject* watched, QEvent* event) {
  if (watched == window_ && event->type() == QEvent::Resize) arrange();
  return false;
}

void ToolBarRows::arrange() {
  // Both toolbars' own widths (their size hints hold every control) against the window's.
  const int needed = first_->sizeHint().width() + second_->sizeHint().width();
  const bool wrap = needed > window_->width();
  if (wrap == wrapped()) return;
  if (wrap)
    window_->insertToolBarBreak(second_);
  else
    window_->removeToolBarBreak(second_);
}

}  // namespace attnscope::ui
