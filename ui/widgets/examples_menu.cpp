#include "widgets/examples_menu.h"

#include <attnscope/model_catalog.h>

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
  hasInfo_ = info != nullptr;
  if (hasInfo_) model_ = *info;
  rebuild();
}

void ExamplesMenu::setOtherPairs(const QList<QPair<QString, QString>>& pairs) {
  otherPairs_ = pairs;
  rebuild();
}

void ExamplesMenu::rebuild() {
  clear();
  const QStringList sentences = hasInfo_ ? modelExamples(model_, english_) : english_;
  const QString ownPair =
      hasInfo_ ? QString::fromStdString(language_pair_of(model_)) : QString(kDefaultLanguagePair);
  if (!hasInfo_ || !readsTaskInput(model_)) addSection(languagePairText(ownPair));
  for (const QString& sentence : sentences)
    addAction(sentence, this, [this, sentence] { Q_EMIT chosen(sentence); });
  if (sentences.isEmpty())
    addAction(tr("No examples for this model's language"))->setEnabled(false);
  // Other pairs read English too: the same sentences, each switching to that pair's model.
  bool separated = false;
  for (const auto& [pair, key] : otherPairs_) {
    if (pair == ownPair) continue;
    if (!separated) addSeparator();
    separated = true;
    QMenu* other = addMenu(languagePairText(pair));
    for (const QString& sentence : english_)
      other->addAction(sentence, this,
                       [this, key = key, sentence] { Q_EMIT chosenWithModel(key, sentence); });
  }
}

}  // namespace attnscope::ui
