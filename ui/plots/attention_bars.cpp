#include "plots/attention_bars.h"

#include <QToolTip>

#include "plots/tick_label_fit.h"

namespace attnscope::ui {

AttentionBars::AttentionBars(QWidget* parent) : QCustomPlot(parent) {
  setMinimumHeight(140);
  bars_ = new QCPBars(xAxis, yAxis);
  bars_->setWidth(0.8);
  bars_->setPen(Qt::NoPen);
  bars_->setBrush(palette().color(QPalette::Highlight));
  setBackground(palette().brush(QPalette::Base));
  xAxis->setTicker(QSharedPointer<SparseTickerText>(new SparseTickerText));  // TickLabelFit thins
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

QString AttentionBars::toolTipAt(const QPoint& pos) const {
  if (!axisRect()->rect().contains(pos)) return {};
  const int i = qRound(xAxis->pixelToCoord(pos.x()));
  const auto& tokens = qSharedPointerCast<QCPAxisTickerText>(xAxis->ticker())->ticks();
  if (i < 0 || i >= bars_->data()->size() || !tokens.contains(i)) return {};
  // One multi-argument arg(): a chained one would replace a "%1" inside the token.
  return tr("source: %1\nweight: %2")
      .arg(tokens.value(i), QString::number(bars_->data()->at(i)->value, 'f', 4));
}

void AttentionBars::mouseMoveEvent(QMouseEvent* event) {
  QCustomPlot::mouseMoveEvent(event);
  const QString tip = toolTipAt(event->pos());
  if (tip.isEmpty())
    QToolTip::hideText();
  else
    QToolTip::showText(event->globalPosition().toPoint(), tip, this);
}

}  // namespace attnscope::ui
