#pragma once
// A bar chart of one step's row over the source tokens: its attention, or an attribution
// (signed values below the axis in another colour). Hovering a bar names its token and value
// (a long sentence shows only every n-th label). An editable chart lets the user drag a bar
// (the row renormalised around it) or pick an edit from a bar's context menu.
#include <qcustomplot.h>

#include <vector>

class QMenu;

namespace attnscope::ui {

class AttentionBars : public QCustomPlot {
  Q_OBJECT
 public:
  /// What a bar's context menu asks for.
  enum class Edit { Zero, Only, Uniform, Shuffle, TypeWeights, Restore };

  explicit AttentionBars(QWidget* parent = nullptr);
  void setRow(const QStringList& sourceTokens, const std::vector<float>& weights);
  const std::vector<float>& row() const { return row_; }
  /// The model's own row, outlined behind bars the user edited; empty: none.
  void setOriginalRow(const std::vector<float>& weights);

  /// Signed values: negative bars in another colour, the axis fitted to the data around 0.
  void setSigned(bool on);
  /// Unsigned values on a fixed 0–1 axis (attention weights, the default) or on an axis fitted
  /// to the row (attributions, whose values may be far below or above 1).
  void setUnitRange(bool on);
  /// A line added to every bar's hover (integrated gradients' completeness at the step).
  void setDetail(const QString& detail) { detail_ = detail; }
  /// The value axis's label and the hover's name ("weight" by default).
  void setValueName(const QString& name);
  /// The name as set; the axis draws it elided to its height.
  const QString& valueName() const { return valueName_; }

  /// Whether bars can be dragged and edited from their menu; `whyNot` says why not (shown in
  /// the menu and the tooltip instead of the edits).
  void setEditable(bool editable, const QString& whyNot = {});
  bool isEditable() const { return editable_; }
  /// The bar under `pos` (widget coordinates, anywhere in its column), or −1.
  int barAt(const QPoint& pos) const;
  /// The widget position of bar `index` at value `value` (for tests and dragging).
  QPoint positionOf(int index, double value) const;
  /// The context menu for the bar under `pos` (its edits, or why there are none); the caller
  /// owns it.
  QMenu* contextMenuAt(const QPoint& pos);
  /// The tooltip for the bar under `pos` (widget coordinates); empty off the bars.
  QString toolTipAt(const QPoint& pos) const;

 Q_SIGNALS:
  /// A dragged (or clicked) bar was let go: `row` is the renormalised row, `index` the dragged bar.
  void rowDragged(int index, const std::vector<float>& row);
  /// An edit chosen from bar `index`'s context menu.
  void editChosen(attnscope::ui::AttentionBars::Edit edit, int index);

 protected:
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void contextMenuEvent(QContextMenuEvent* event) override;

 private:
  // The value's name along the y axis, elided to the axis' height as just laid out: a short
  // chart cut "contribution to log p" at its top. Eliding keeps the label's thickness, so the
  // layout it was fitted to stands.
  void fitValueLabel();
  void draw();

  QCPBars* bars_ = nullptr;
  QCPBars* negative_ = nullptr;  // signed rows: the bars below 0
  QCPBars* original_ = nullptr;  // the model's own row, outlined
  std::vector<float> row_;
  std::vector<float> originalRow_;
  QString valueName_;
  QString whyNot_;
  QString detail_;
  bool signed_ = false;
  bool unitRange_ = true;
  bool editable_ = false;
  int dragging_ = -1;  // the bar being dragged
};

}  // namespace attnscope::ui
