#pragma once
// An attention heatmap: source tokens along x, target tokens down y, one cell per weight.
#include <qcustomplot.h>

#include "core/attention_matrix.h"

namespace attnscope::ui {

class TickLabelFit;

class HeatmapPlot : public QCustomPlot {
  Q_OBJECT
 public:
  explicit HeatmapPlot(QWidget* parent = nullptr);

  void setMatrix(const AttentionMatrix& matrix);
  const AttentionMatrix& matrix() const { return matrix_; }

  void setGradient(const QCPColorGradient& gradient);
  QCPColorGradient gradient() const;
  /// Fixes the colour scale for this and later matrices (shared scales in the compare grid).
  void setDataRange(const QCPRange& range);
  /// One colour scale for all: [0, the largest weight any of them shows].
  static void shareDataRange(const QList<HeatmapPlot*>& plots);
  QCPRange dataRange() const;
  void setShowValues(bool show);
  /// What an empty heatmap says (default: "Type a sentence and press Enter").
  void setEmptyText(const QString& text);
  /// The row drawn with a frame (the current decoding step); −1 for none.
  void setCurrentRow(int row);
  int currentRow() const { return currentRow_; }
  /// A cell outlined from outside (synchronised hover); row or column −1 for none.
  void setHighlightedCell(int row, int column);
  /// The outlined cell as (column, row), like cellAt(); (−1,−1) for none.
  QPoint highlightedCell() const { return highlighted_; }
  /// The cell under a widget position, or (−1,−1).
  QPoint cellAt(const QPoint& position) const;
  /// What hovering a widget position shows: the cell's tokens and weight; empty off the cells.
  QString toolTipAt(const QPoint& position) const;
  /// Back to showing the whole matrix after zooming or panning.
  void resetView();
  /// Keeps room for at least this many rows, so a heatmap growing step by step keeps its cell
  /// size instead of stretching a few rows over the whole plot.
  void setReservedRows(int rows);
  /// Rows whose token the user forced (a what-if): their labels and hover say so. setMatrix()
  /// clears them.
  void setForcedRows(const QVector<int>& rows);
  bool isForced(int row) const { return forcedRows_.contains(row); }

 Q_SIGNALS:
  void cellHovered(int row, int column);  // (−1,−1) when the mouse leaves the cells
  void rowClicked(int row);

 protected:
  void mouseMoveEvent(QMouseEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void leaveEvent(QEvent* event) override;
  void changeEvent(QEvent* event) override;
  void paintEvent(QPaintEvent* event) override;
  void focusInEvent(QFocusEvent* event) override;
  void focusOutEvent(QFocusEvent* event) override;

 private:
  void applyPalette();
  void rebuildTicks();
  void rebuildValueLabels();
  void rebuildCopyFrames();
  void placeFrame(QCPItemRect* frame, int row, int firstColumn, int lastColumn);

  AttentionMatrix matrix_;
  QCPColorMap* map_ = nullptr;
  QCPColorScale* scale_ = nullptr;
  QCPItemRect* rowFrame_ = nullptr;
  QCPItemRect* cellFrame_ = nullptr;
  QCPItemText* placeholder_ = nullptr;
  QCPTextElement* title_ = nullptr;
  QList<QCPItemText*> valueLabels_;
  QList<QCPItemRect*> copyFrames_;  // around the cells copied words came from
  QVector<int> forcedRows_;
  QString emptyText_;
  bool showValues_ = false;
  bool fixedRange_ = false;
  int currentRow_ = -1;
  QPoint highlighted_{-1, -1};
  int reservedRows_ = 0;
  TickLabelFit* labelFit_ = nullptr;
  QPoint pressPosition_;
};

}  // namespace attnscope::ui
