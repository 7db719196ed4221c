#pragma once
// A bar chart of one step's attention over the source tokens.
#include <qcustomplot.h>

namespace attnscope::ui {

class AttentionBars : public QCustomPlot {
  Q_OBJECT
 public:
  explicit AttentionBars(QWidget* parent = nullptr);
  void setRow(const QStringList& sourceTokens, const std::vector<float>& weights);

 private:
  QCPBars* bars_ = nullptr;
};

}  // namespace attnscope::ui
