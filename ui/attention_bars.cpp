#include "attention_bars.h"

#include "tick_label_fit.h"

namespace attnscope::ui {

AttentionBars::AttentionBars(QWidget* parent) : QCustomPlot(parent) {
  setMinimumHeight(140);
  bars_ = new QCPBars(xAxis, yAxis);
  bars_->setWidth(0.8);
  bars_->setPen(Qt::NoPen);
  bars_->setBrush(palette().color(QPalette::Highlight));
  setBackground(palette().brush(QPalette::Base));
  xAxis->setTicker(QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText));
  xAxis->setTickLabelRotation(60);
  xAxis->grid()->setVisible(false);
  yAxis->setRange(0, 1);
  yAxis->setLabel(tr("weight"));
  for (QCPAxis* axis : {xAxis, yAxis}) {
    axis->setTickLabelColor(palette().color(QPalette::Text));
    axis->setLabelColor(palette().color(QPalette::Text));
    axis->setBasePen(QPen(palette().color(QPalette::Text)));
  }
  (new TickLabelFit(this, {xAxis}))->setFullSize(font().pointSizeF());
}

void AttentionBars::setRow(const QStringList& sourceTokens, const std::vector<float>& weights) {
  auto ticker = qSharedPointerCast<QCPAxisTickerText>(xAxis->ticker());
  ticker->clear();
  QVector<double> keys, values;
  for (int i = 0; i < static_cast<int>(weights.size()) && i < sourceTokens.size(); ++i) {
    keys << i;
    values << weights[i];
    ticker->addTick(i, sourceTokens[i]);
  }
  bars_->setData(keys, values, true);
  xAxis->setRange(-0.6, std::max<int>(1, static_cast<int>(keys.size())) - 0.4);
  replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace attnscope::ui
