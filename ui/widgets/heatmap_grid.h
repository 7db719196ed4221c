#pragma once
// Heatmaps side by side for comparing them: one colour scale, the same cell outlined in every one
// while the mouse is over any, one gradient, value labels on all or none. The Compare and Heads
// tabs show their grids in it.
#include <qcustomplot.h>

#include <QList>
#include <QWidget>

#include "core/attention_matrix.h"

class QGridLayout;

namespace attnscope::ui {

class HeatmapPlot;

class HeatmapGrid : public QWidget {
  Q_OBJECT
 public:
  explicit HeatmapGrid(QWidget* parent = nullptr);

  /// Keeps `count` heatmaps (the first ones as they are), laid out row by row in `columns`
  /// columns. New ones are empty, with the grid's gradient and value labels.
  void setPlotCount(int count, int columns);
  /// Shows matrices[i] in plot i (a plot without a matrix keeps its own), all on one colour
  /// scale: [0, the largest weight any plot shows].
  void setMatrices(const QList<AttentionMatrix>& matrices);
  const QList<HeatmapPlot*>& plots() const { return plots_; }

  void setGradient(const QCPColorGradient& gradient);
  void setShowValues(bool show);
  /// Outlines the cell in every heatmap, as hovering one does; row or column −1 for none.
  void highlightCell(int row, int column);

 Q_SIGNALS:
  /// The cell every heatmap outlines now ((−1,−1): none), so a plot outside the grid can follow.
  void cellHighlighted(int row, int column);

 private:
  QGridLayout* layout_ = nullptr;
  QList<HeatmapPlot*> plots_;
  QCPColorGradient gradient_;
  bool showValues_ = false;
};

}  // namespace attnscope::ui
