#include "widgets/examples_menu.h"

#include <QFile>

#include "core/model_info_text.h"

namespace attnscope::ui {

ExamplesMenu::ExamplesMenu(const QString& title, QWidget* parent) : QMenu(title, parent) {
  QFile examples(QStringLiteral(":/examples.txt"));
  if (examples.open(QIODevice::ReadOnly | QIODevice::Text))
    english_ = QString::fromUtf8(examples.readAll()).split('\n', Qt::SkipEmptyParts);
  setModel(nullptr);
}

void ExamplesMenu::setModel(const ModelInfo* info) {
  clear();
  const QStringList sentences = info == nullptr ? english_ : modelExamples(*info, english_);
  for (const QString& sentence : sentences)
    addAction(sentence, this, [this, sentence] { Q_EMIT chosen(sentence); });
  if (sentences.isEmpty())
    addAction(tr("No examples for this model's language"))->setEnabled(false);
}

}  // namespace attnscope::ui
