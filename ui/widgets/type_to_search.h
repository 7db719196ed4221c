#pragma once
// Typing on a view starts the next sentence, as in a search box. After a translation the heatmap
// has the focus for the step keys (← → Space Home); a printable character typed there moves the
// focus to the input line, replacing its text, and goes on there.
#include <QObject>

class QLineEdit;
class QWidget;

namespace attnscope::ui {

class TypeToSearch : public QObject {
  Q_OBJECT
 public:
  /// Watches `view` (installs itself as its event filter); `input` takes the typing.
  TypeToSearch(QWidget* view, QLineEdit* input);

  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  QWidget* view_;
  QLineEdit* input_;
};

}  // namespace attnscope::ui
