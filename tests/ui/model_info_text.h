#pragma once
// Help > Model info opens a modal message box; the window tests read it through this.
#include <QAction>
#include <QApplication>
#include <QMessageBox>
#include <QTimer>

#include "main_window.h"

namespace attnscope::ui {

/// Triggers Help > Model info and returns the message box's text, read and closed from inside
/// its loop; "" when the window has no such action or no box opened.
inline QString modelInfoText(MainWindow& window) {
  QAction* action = nullptr;
  for (QAction* a : window.findChildren<QAction*>())
    if (a->text() == "&Model info") action = a;
  if (action == nullptr) return QString();
  QString info;
  QTimer closer;
  QObject::connect(&closer, &QTimer::timeout, &window, [&] {
    if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
      info = box->text();
      box->accept();
    }
  });
  closer.start(20);
  action->trigger();
  return info;
}

}  // namespace attnscope::ui
