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

  /// Keeps `count` heatmaps (the first ones as they are), laid out row by row in up to
  /// `columns` columns: fewer where the grid's width would give each less than kPlotMinimum (in
  /// a scroll area, the grid then grows downwards). New ones are empty, with the grid's gradient
  /// and value labels.
  void setPlotCount(int count, int columns);
  /// `plot` laid out after the grid's plots, in a cell of the same size, while shown: the Compare
  /// tab's difference, on a colour scale of its own.
  void setTrailingPlot(HeatmapPlot* plot);
  void setTrailingPlotShown(bool shown);
  /// The columns the plots are laid out in now.
  int columns() const { return columns_; }
  /// The smallest a heatmap is laid out: room for its title, row and column labels (a word and
  /// "(copied)"), colour bar, and the baseline's "No attention" text.
  static constexpr QSize kPlotMinimum{270, 240};
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

 protected:
  /// In a scroll area that scrolls, the wheel over a heatmap scrolls; Ctrl+wheel zooms it.
  bool eventFilter(QObject* watched, QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void showEvent(QShowEvent* event) override;

 private:
  void relayout();
  int fittingColumns() const;

  QGridLayout* layout_ = nullptr;
  QList<HeatmapPlot*> plots_;
  HeatmapPlot* trailing_ = nullptr;
  int maxColumns_ = 1;
  int columns_ = 1;
  QCPColorGradient gradient_;
  bool showValues_ = false;
};

}  // namespace attnscope::ui
