#pragma once
// Every head of one layer side by side, for a model with several heads: a heatmap per head and
// one of their mean, on one colour scale with synchronised hover. Built from the translation
// the main view shows, so choosing another layer needs no decoding.
#include <attnscope/translation.h>

#include <QComboBox>
#include <QLabel>
#include <QList>
#include <QWidget>

#include "attention_matrix.h"

class QGridLayout;

namespace attnscope::ui {

class HeatmapPlot;

class HeadsView : public QWidget {
  Q_OBJECT
 public:
  explicit HeadsView(QWidget* parent = nullptr);

  /// Shows the heads of the chosen layer of `t`, from a model of `layers` × `heads` (given, as
  /// a translation without steps has no attention to tell); `words`: the word view of a
  /// subword model.
  void setTranslation(const Translation& t, const QString& modelName, int layers, int heads,
                      bool words);
  void setGradient(const QString& colormapName);
  void setShowValues(bool show);

  const QList<HeatmapPlot*>& plots() const { return plots_; }
  QComboBox* layerBox() const { return layer_; }

 private:
  void rebuild();
  void hoverAll(int row, int column);

  QComboBox* layer_ = nullptr;
  QLabel* status_ = nullptr;
  QGridLayout* grid_ = nullptr;
  QList<HeatmapPlot*> plots_;
  Translation translation_;
  QString modelName_;
  int heads_ = 0;
  bool words_ = false;
  QString colormap_ = QStringLiteral("viridis");
  bool showValues_ = false;
};

}  // namespace attnscope::ui
