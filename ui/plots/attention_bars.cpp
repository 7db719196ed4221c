#include "plots/attention_bars.h"

#include <QMenu>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "core/what_if_text.h"
#include "plots/tick_label_fit.h"

namespace attnscope::ui {

AttentionBars::AttentionBars(QWidget* parent) : QCustomPlot(parent) {
  setMinimumHeight(140);
  setMouseTracking(true);
  bars_ = new QCPBars(xAxis, yAxis);
  bars_->setWidth(0.8);
  bars_->setPen(Qt::NoPen);
  bars_->setBrush(palette().color(QPalette::Highlight));
  negative_ = new QCPBars(xAxis, yAxis);
  negative_->setWidth(0.8);
  negative_->setPen(Qt::NoPen);
  negative_->setBrush(QColor("#2166ac"));  // the diverging map's blue, as the heatmap's
  // Over the bars, so an edited row shows where the model's own was.
  original_ = new QCPBars(xAxis, yAxis);
  original_->setWidth(0.8);
  original_->setPen(QPen(palette().color(QPalette::Text), 1.0, Qt::DashLine));
  original_->setBrush(Qt::NoBrush);
  setBackground(palette().brush(QPalette::Base));
  xAxis->setTicker(QSharedPointer<SparseTickerText>(new SparseTickerText));  // TickLabelFit thins
  xAxis->setTickLabelRotation(60);
  xAxis->grid()->setVisible(false);
  yAxis->setRange(0, 1);
  yAxis->ticker()->setTickCount(3);  // a short chart: a few ticks, not a crowded column
  yAxis->setNumberPrecision(2);
  valueName_ = tr("weight");
  yAxis->setLabel(valueName_);
  connect(this, &QCustomPlot::afterLayout, this, &AttentionBars::fitValueLabel);
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
  row_.clear();
  for (int i = 0; i < static_cast<int>(weights.size()) && i < sourceTokens.size(); ++i) {
    row_.push_back(weights[i]);
    ticker->addTick(i, sourceTokens[i]);
  }
  xAxis->setRange(-0.6, std::max<int>(1, static_cast<int>(row_.size())) - 0.4);
  draw();
}

void AttentionBars::setOriginalRow(const std::vector<float>& weights) {
  originalRow_ = weights;
  draw();
}

void AttentionBars::setSigned(bool on) {
  signed_ = on;
  draw();
}

void AttentionBars::setUnitRange(bool on) {
  unitRange_ = on;
  draw();
}

void AttentionBars::setValueName(const QString& name) {
  valueName_ = name;
  yAxis->setLabel(name);
}

void AttentionBars::fitValueLabel() {
  const int room = std::max(0, axisRect()->height() - 4);  // a little air at the ends
  const QFontMetrics metrics(yAxis->labelFont());
  const auto fitted = [&](const QString& text) {
    return metrics.elidedText(text, Qt::ElideRight, room);
  };
  QString label = valueName_;
  if (metrics.horizontalAdvance(label) > room) {
    // Two lines, broken at the space nearest the middle, before any ellipsis: "contribution /
    // to log p" reads where "contributi…" said nothing.
    const auto middle = label.size() / 2;
    const auto before = label.lastIndexOf(QLatin1Char(' '), middle);
    const auto after = label.indexOf(QLatin1Char(' '), middle);
    const auto cut = before < 0                                       ? after
                     : after < 0 || middle - before <= after - middle ? before
                                                                      : after;
    label = cut < 0 ? fitted(label)
                    : fitted(label.left(cut)) + QLatin1Char('\n') + fitted(label.mid(cut + 1));
  }
  yAxis->setLabel(label);
}

void AttentionBars::draw() {
  QVector<double> keys, values, below, outline;
  for (int i = 0; i < static_cast<int>(row_.size()); ++i) {
    keys << i;
    const double value = std::isnan(row_[i]) ? 0.0 : row_[i];  // no value: no bar
    values << (signed_ ? std::max(value, 0.0) : value);
    below << std::min(value, 0.0);
    outline << (i < static_cast<int>(originalRow_.size()) ? originalRow_[i] : 0.0);
  }
  bars_->setData(keys, values, true);
  negative_->setData(keys, below, true);
  negative_->setVisible(signed_);
  // Signed: red up, blue down, as the diverging heatmap beside them.
  bars_->setBrush(signed_ ? QColor("#b2182b") : palette().color(QPalette::Highlight));
  original_->setData(keys, outline, true);
  original_->setVisible(!originalRow_.empty());
  if (signed_ || !unitRange_) {
    double largest = 0.0;
    for (int i = 0; i < static_cast<int>(row_.size()); ++i)
      if (!std::isnan(row_[i])) largest = std::max(largest, std::abs(static_cast<double>(row_[i])));
    const double top = largest > 0 ? largest * 1.05 : 1.0;
    double lowest = 0.0;
    for (double v : below) lowest = std::min(lowest, v);
    yAxis->setRange(signed_ && lowest < 0 ? -top : 0.0, top);
  } else {
    yAxis->setRange(0, 1);
  }
  // Drawn now, shown in the next paint with whatever else changed (the step panel's heading):
  // a queued replot showed a new heading over the previous step's bars during Play.
  replot(QCustomPlot::rpQueuedRefresh);
}

void AttentionBars::setEditable(bool editable, const QString& whyNot) {
  editable_ = editable;
  whyNot_ = whyNot;
  setCursor(editable ? Qt::SizeVerCursor : Qt::ArrowCursor);
}

int AttentionBars::barAt(const QPoint& pos) const {
  if (!axisRect()->rect().contains(pos)) return -1;
  const int i = static_cast<int>(std::lround(xAxis->pixelToCoord(pos.x())));
  return i >= 0 && i < static_cast<int>(row_.size()) ? i : -1;
}

QPoint AttentionBars::positionOf(int index, double value) const {
  return QPoint(static_cast<int>(std::lround(xAxis->coordToPixel(index))),
                static_cast<int>(std::lround(yAxis->coordToPixel(value))));
}

QString AttentionBars::toolTipAt(const QPoint& pos) const {
  const int i = barAt(pos);
  const auto& tokens = qSharedPointerCast<QCPAxisTickerText>(xAxis->ticker())->ticks();
  if (i < 0 || !tokens.contains(i)) return {};
  const QString value = std::isnan(row_[i]) ? tr("no value") : QString::number(row_[i], 'f', 4);
  // One multi-argument arg(): a chained one would replace a "%1" inside the token.
  QString tip = tr("source: %1\n%2: %3").arg(tokens.value(i), valueName_, value);
  if (i < static_cast<int>(originalRow_.size()))
    tip += tr("\nthe model's own: %1").arg(QString::number(originalRow_[i], 'f', 4));
  if (!detail_.isEmpty()) tip += QLatin1Char('\n') + detail_;
  if (editable_)
    tip += tr("\ndrag to set this weight, right-click for more edits");
  else if (!whyNot_.isEmpty())
    tip += QLatin1Char('\n') + whyNot_;
  return tip;
}

QMenu* AttentionBars::contextMenuAt(const QPoint& pos) {
  auto* menu = new QMenu(this);
  menu->setAttribute(Qt::WA_DeleteOnClose);
  const int i = barAt(pos);
  if (!editable_) {
    menu->addAction(whyNot_.isEmpty() ? tr("Nothing to edit here") : whyNot_)->setEnabled(false);
    return menu;
  }
  const QString token =
      i >= 0 ? qSharedPointerCast<QCPAxisTickerText>(xAxis->ticker())->ticks().value(i) : QString();
  const auto add = [&](const QString& text, Edit edit, bool enabled) {
    QAction* action = menu->addAction(text, this, [this, edit, i] { Q_EMIT editChosen(edit, i); });
    action->setEnabled(enabled);
  };
  add(tr("Zero '%1'").arg(token), Edit::Zero, i >= 0);
  add(tr("Only '%1'").arg(token), Edit::Only, i >= 0);
  add(tr("Uniform over every word"), Edit::Uniform, true);
  add(tr("Shuffle the weights"), Edit::Shuffle, true);
  add(tr("Type weights…"), Edit::TypeWeights, true);
  menu->addSeparator();
  // An edited row shows the model's own outlined: that is what restoring returns to.
  add(tr("Restore this step"), Edit::Restore, !originalRow_.empty());
  return menu;
}

void AttentionBars::contextMenuEvent(QContextMenuEvent* event) {
  contextMenuAt(event->pos())->popup(event->globalPos());
}

void AttentionBars::mousePressEvent(QMouseEvent* event) {
  QCustomPlot::mousePressEvent(event);
  if (editable_ && event->button() == Qt::LeftButton) {
    dragging_ = barAt(event->pos());
    if (dragging_ >= 0 && originalRow_.empty()) originalRow_ = row_;
  }
}

void AttentionBars::mouseMoveEvent(QMouseEvent* event) {
  QCustomPlot::mouseMoveEvent(event);
  if (dragging_ >= 0 && (event->buttons() & Qt::LeftButton)) {
    row_ = withWeight(row_, dragging_, yAxis->pixelToCoord(event->pos().y()));
    draw();
    return;
  }
  const QString tip = toolTipAt(event->pos());
  if (tip.isEmpty())
    QToolTip::hideText();
  else
    QToolTip::showText(event->globalPosition().toPoint(), tip, this);
}

void AttentionBars::mouseReleaseEvent(QMouseEvent* event) {
  QCustomPlot::mouseReleaseEvent(event);
  const int index = dragging_;
  dragging_ = -1;
  if (index < 0 || event->button() != Qt::LeftButton) return;
  // A click sets the weight too, as on a slider's groove.
  row_ = withWeight(row_, index, yAxis->pixelToCoord(event->pos().y()));
  draw();
  Q_EMIT rowDragged(index, row_);
}

}  // namespace attnscope::ui
