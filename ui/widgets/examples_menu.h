#pragma once
// The Examples menu: sentences to try with the chosen model. Its own examples when it has some
// (a task model's inputs, a TorchScript module's `examples`), the shipped English sentences for
// a model that reads English, and a disabled line saying why when there are none. Under a
// heading naming the model's languages; the other language pairs' shipped models get a submenu
// each, whose sentences switch to that pair.
#include <attnscope/model_info.h>

#include <QList>
#include <QMenu>
#include <QPair>
#include <QStringList>

namespace attnscope::ui {

class ExamplesMenu : public QMenu {
  Q_OBJECT
 public:
  explicit ExamplesMenu(const QString& title, QWidget* parent = nullptr);

  /// The model whose examples to offer; nullptr while its header is not read (the shipped
  /// sentences meanwhile).
  void setModel(const ModelInfo* info);
  /// The language pairs to offer besides the model's own: (pair "en-fr", the model key to
  /// switch to) each. The one of the model's own pair is left out.
  void setOtherPairs(const QList<QPair<QString, QString>>& pairs);

 Q_SIGNALS:
  void chosen(const QString& sentence);
  /// A sentence of another pair's submenu: translate it with model `key`.
  void chosenWithModel(const QString& key, const QString& sentence);

 private:
  void rebuild();

  QStringList english_;  // resources/examples.txt
  bool hasInfo_ = false;
  ModelInfo model_;                            // a copy: the list's entry may move
  QList<QPair<QString, QString>> otherPairs_;  // (pair, key)
};

}  // namespace attnscope::ui
