#pragma once
// Which attention the heatmap shows, for models that have a choice: a layer and a head (or the
// mean of the layer's heads) for models with several, and words or pieces for subword models.
// Hidden for attnscope's own models, which have one matrix over words.
#include <attnscope/model_info.h>

#include <QCheckBox>
#include <QComboBox>
#include <QWidget>

#include "core/attention_matrix.h"

namespace attnscope::ui {

class AttentionViewControls : public QWidget {
  Q_OBJECT
 public:
  explicit AttentionViewControls(QWidget* parent = nullptr);

  /// Offers what `model` has (its attention layers and heads, its subword marker); keeps the
  /// current choice while the shape stays, otherwise the model's own matrix (the last layer,
  /// heads averaged) and words, or pieces for a character model. The model, not a translation:
  /// a session stepped back to its start has no attention rows to tell, and the choice has to
  /// survive that.
  void adaptTo(const ModelInfo& model);
  AttentionView view() const;
  /// What the view shows, for titles and exports: "layer 2 · head 3 · words"; empty when
  /// there is no choice to name.
  QString describe() const;

  QComboBox* layerBox() const { return layer_; }
  QComboBox* headBox() const { return head_; }
  QCheckBox* wordsBox() const { return words_; }
  int layers() const { return layers_; }
  int heads() const { return heads_; }

 Q_SIGNALS:
  void changed();

 private:
  QComboBox* layer_ = nullptr;
  QComboBox* head_ = nullptr;
  QCheckBox* words_ = nullptr;
  int layers_ = 1, heads_ = 1;
  bool subwords_ = false;
  bool characters_ = false;  // the last model's pieces were characters
};

}  // namespace attnscope::ui
