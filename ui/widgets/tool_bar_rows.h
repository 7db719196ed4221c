#pragma once
// Two toolbars of a main window share a row while the window is wide enough for both, and take
// a row each when it is not: the second's controls stay in sight instead of in an overflow menu.
#include <QObject>

class QMainWindow;
class QToolBar;

namespace attnscope::ui {

class ToolBarRows : public QObject {
  Q_OBJECT
 public:
  /// `window` already holds both toolbars, `second` after `first`.
  ToolBarRows(QMainWindow* window, QToolBar* first, QToolBar* second);
  /// Whether `second` is on a row of its own now.
  bool wrapped() const;

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void arrange();

  QMainWindow* window_;
  QToolBar* first_;
  QToolBar* second_;
};

}  // namespace attnscope::ui
