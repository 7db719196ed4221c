#include "widgets/attention_view_controls.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <algorithm>

namespace attnscope::ui {

AttentionViewControls::AttentionViewControls(QWidget* parent) : QWidget(parent) {
  layer_ = new QComboBox(this);
  layer_->setObjectName(QStringLiteral("layerBox"));
  layer_->setToolTip(tr("Which layer's attention to show"));
  head_ = new QComboBox(this);
  head_->setObjectName(QStringLiteral("headBox"));
  head_->setToolTip(tr("One head, or the mean of the layer's heads"));
  words_ = new QCheckBox(tr("Words"), this);
  words_->setObjectName(QStringLiteral("wordsBox"));
  words_->setChecked(true);
  words_->setToolTip(
      tr("Merge the pieces of each word (source columns summed, target rows averaged); "
         "off: the pieces the model reads and emits"));
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(new QLabel(tr("Attention:"), this));
  layout->addWidget(layer_);
  layout->addWidget(head_);
  layout->addWidget(words_);
  layout->addStretch();
  for (QComboBox* box : {layer_, head_})
    connect(box, &QComboBox::currentIndexChanged, this, &AttentionViewControls::changed);
  connect(words_, &QCheckBox::toggled, this, &AttentionViewControls::changed);
  setVisible(false);
}

void AttentionViewControls::adaptTo(const ModelInfo& model) {
  const int layers = std::max(1, model.attention_layers);
  const int heads = std::max(1, model.attention_heads);
  const bool subwords = !model.subword_marker.empty();
  const bool several = layers > 1 || heads > 1;
  if (layers != layers_ || heads != heads_) {
    const QSignalBlocker blockLayer(layer_), blockHead(head_);
    layer_->clear();
    for (int l = 1; l <= layers; ++l) layer_->addItem(tr("Layer %1").arg(l));
    layer_->setCurrentIndex(layers - 1);
    head_->clear();
    head_->addItem(tr("Mean of heads"));
    for (int h = 1; h <= heads; ++h) head_->addItem(tr("Head %1").arg(h));
    layers_ = layers;
    heads_ = heads;
  }
  subwords_ = subwords;
  // A character model opens in its pieces, the characters the Train tab showed: merged, a date
  // would be one cell. The user's choice stays for the next model of the same kind.
  const bool characters = model.subwords == "characters";
  if (characters != characters_) {
    const QSignalBlocker block(words_);
    words_->setChecked(!characters);
    characters_ = characters;
  }
  // A box with a single entry offers no choice: one layer of several heads shows only heads.
  layer_->setVisible(layers > 1);
  head_->setVisible(heads > 1);
  words_->setVisible(subwords);
  setVisible(several || subwords);
}

AttentionView AttentionViewControls::view() const {
  AttentionView v;
  if (layers_ > 1 || heads_ > 1) v.choice = {layer_->currentIndex(), head_->currentIndex() - 1};
  v.words = subwords_ && words_->isChecked();
  return v;
}

QString AttentionViewControls::describe() const {
  QStringList parts;
  if (layers_ > 1 || heads_ > 1) {
    parts << tr("layer %1").arg(layer_->currentIndex() + 1);
    // The mean of a single head is that head: naming a mean would suggest there were several.
    if (heads_ > 1)
      parts << (head_->currentIndex() <= 0 ? tr("mean of heads")
                                           : tr("head %1").arg(head_->currentIndex()));
  }
  if (subwords_) parts << (words_->isChecked() ? tr("words") : tr("pieces"));
  return parts.join(QStringLiteral(" · "));
}

}  // namespace attnscope::ui
