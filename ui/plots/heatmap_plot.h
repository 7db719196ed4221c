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
  const QString& emptyText() const { return emptyText_; }
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
  /// Rows whose attention the user edited (a what-if): their labels and hover say so.
  /// setMatrix() clears them.
  void setEditedRows(const QVector<int>& rows);
  bool isEdited(int row) const { return editedRows_.contains(row); }

  /// Signed values (an attribution that may be negative): the colour scale is centred on 0,
  /// [−m, m] for the largest |value| m, for a diverging colormap. Applies from the next
  /// setMatrix() on.
  void setSigned(bool on) { signed_ = on; }
  bool isSigned() const { return signed_; }
  /// What a cell's value is, in hover texts and beside the colour scale ("weight" by default).
  void setValueName(const QString& name);
  /// Why a cell without a value (NaN, drawn grey and hatched) has none, for its hover text.
  void setNoValueText(const QString& text) { noValueText_ = text; }
  /// The title as drawn: each line elided on the right to the plot's width (the colour scale
  /// keeps its room); hovering it shows the whole title.
  QString shownTitle() const;
  /// Where the title and the colour scale are drawn (widget coordinates).
  QRect titleRect() const;
  QRect colorScaleRect() const;
  /// False for a model without attention: it has no weights for a scale to explain.
  bool showsColorScale() const;
  /// While true, what belongs to the window and not to an exported picture is hidden: the
  /// current step's frame and the hovered cell's. The exporter sets it around rendering.
  void setPrinting(bool printing);
  /// The number of cells without a value.
  int noValueCells() const { return static_cast<int>(noValueFrames_.size()); }

 Q_SIGNALS:
  void cellHovered(int row, int column);  // (−1,−1) when the mouse leaves the cells
  void rowClicked(int row);               // a click on the row, or ↑ ↓ from the framed row

 protected:
  void mouseMoveEvent(QMouseEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void leaveEvent(QEvent* event) override;
  void changeEvent(QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void paintEvent(QPaintEvent* event) override;
  void focusInEvent(QFocusEvent* event) override;
  void focusOutEvent(QFocusEvent* event) override;

 private:
  void applyPalette();
  void fitTitle();
  void rebuildTicks();
  void chooseColumnLabelAngle();
  void rebuildValueLabels();
  void rebuildCopyFrames();
  void rebuildNoValueFrames();
  void placeFrame(QCPItemRect* frame, int row, int firstColumn, int lastColumn);

  AttentionMatrix matrix_;
  QCPColorMap* map_ = nullptr;
  QCPColorGradient gradient_;  // as given: the map's own draws cells without a value grey
  QCPColorScale* scale_ = nullptr;
  QCPItemRect* rowFrame_ = nullptr;
  QCPItemRect* cellFrame_ = nullptr;
  QCPItemText* placeholder_ = nullptr;
  QCPTextElement* title_ = nullptr;
  QList<QCPItemText*> valueLabels_;
  QList<QCPItemRect*> copyFrames_;     // around the cells copied words came from
  QList<QCPItemRect*> noValueFrames_;  // hatched over cells without a value
  QVector<int> forcedRows_;
  QVector<int> editedRows_;
  QString emptyText_;
  QString valueName_;
  QString noValueText_;
  bool signed_ = false;
  bool showValues_ = false;
  bool fixedRange_ = false;
  // The largest weight of the sentence's steps shown so far (the colour scale's top while
  // stepping); 0 before any.
  double stepTop_ = 0.0;
  int currentRow_ = -1;
  QPoint highlighted_{-1, -1};
  int reservedRows_ = 0;
  int ownLeftMargin_ = 0;  // the cells' least left margin, before a sentence widened it
  TickLabelFit* labelFit_ = nullptr;
  QPoint pressPosition_;
};

}  // namespace attnscope::ui
