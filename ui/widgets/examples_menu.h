#pragma once
// The Examples menu: sentences to try with the chosen model. Its own examples when it has some
// (a task model's inputs, a TorchScript module's `examples`), the shipped English sentences for
// a model that reads English, and a disabled line saying why when there are none.
#include <attnscope/model_info.h>

#include <QMenu>
#include <QStringList>

namespace attnscope::ui {

class ExamplesMenu : public QMenu {
  Q_OBJECT
 public:
  explicit ExamplesMenu(const QString& title, QWidget* parent = nullptr);

  /// The model whose examples to offer; nullptr while its header is not read (the shipped
  /// sentences meanwhile).
  void setModel(const ModelInfo* info);

 Q_SIGNALS:
  void chosen(const QString& sentence);

 private:
  QStringList english_;  // resources/examples.txt
};

}  // namespace attnscope::ui
