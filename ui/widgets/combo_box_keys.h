#pragma once
// Home, End, Page Up and Page Down in a focused combo box choose its first, last or a page
// further item, as in any desktop application, even where the window binds those keys to an
// action (Home: Reset, End: decode to the end). Installed once on the application by the main
// window.
#include <QObject>

namespace attnscope::ui {

class ComboBoxKeys : public QObject {
  Q_OBJECT

 public:
  using QObject::QObject;

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;
};

}  // namespace attnscope::ui
