#pragma once
// A bar chart of one step's attention over the source tokens; hovering a bar names its token
// and weight (a long sentence shows only every n-th label).
#include <qcustomplot.h>

namespace attnscope::ui {

class AttentionBars : public QCustomPlot {
  Q_OBJECT
 public:
  explicit AttentionBars(QWidget* parent = nullptr);
  void setRow(const QStringList& sourceTokens, const std::vector<float>& weights);

  /// The tooltip for the bar under `pos` (widget coordinates); empty off the bars.
  QString toolTipAt(const QPoint& pos) const;

 protected:
  void mouseMoveEvent(QMouseEvent* event) override;

 private:
  QCPBars* bars_ = nullptr;
};

}  // namespace attnscope::ui
