#include "plots/heatmap_plot.h"

#include <QKeyEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "core/copied_words.h"
#include "core/token_text.h"
#include "plots/cell_color_map.h"
#include "plots/colormaps.h"
#include "plots/tick_label_fit.h"

namespace attnscope::ui {
namespace {
constexpr int kScaleMinimumWidth = 72;     // the bar, two-decimal ticks and the value's name
constexpr int kMaxValueLabels = 1600;      // beyond ~40×40 cells the numbers are unreadable anyway
constexpr int kUprightLabelAir = 6;        // pixels between upright column labels
constexpr double kCellShareOfWidth = 0.6;  // the cells' share of a heatmap's width, about
constexpr int kFocusFrameRoom = 4;         // pixels: the focus frame is 2 wide, 1 in from the edge
}  // namespace

HeatmapPlot::HeatmapPlot(QWidget* parent) : QCustomPlot(parent) {
  setMouseTracking(true);
  setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  setMinimumSize(200, 160);
  map_ = new CellColorMap(xAxis, yAxis);
  map_->setInterpolate(false);
  map_->setTightBoundary(false);
  scale_ = new QCPColorScale(this);
  plotLayout()->addElement(0, 1, scale_);
  // Room at the right edge: the focus frame (paintEvent) covered the colour scale's last digits.
  plotLayout()->setMargins(QMargins(0, 0, kFocusFrameRoom, 0));
  ownLeftMargin_ = axisRect()->minimumMargins().left();
  scale_->setBarWidth(12);
  // Beside a long title the colour scale keeps room for its bar, ticks and label.
  scale_->setSizeConstraintRect(QCPLayoutElement::scrOuterRect);
  scale_->setMinimumSize(kScaleMinimumWidth, 0);
  scale_->axis()->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
  map_->setColorScale(scale_);
  plotLayout()->insertRow(0);
  title_ =
      new QCPTextElement(this, QString(), QFont(font().family(), font().pointSize(), QFont::Bold));
  plotLayout()->addElement(0, 0, title_);
  auto* margins = new QCPMarginGroup(this);
  axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
  scale_->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
  setGradient(colormap("viridis"));

  yAxis->setRangeReversed(true);  // the first target token at the top, like a text
  xAxis->setTickLabelRotation(60);
  for (QCPAxis* axis : {xAxis, yAxis}) {
    axis->setTicker(QSharedPointer<SparseTickerText>(new SparseTickerText));  // TickLabelFit thins
    axis->grid()->setVisible(false);
    axis->setSubTicks(false);
  }
  rowFrame_ = new QCPItemRect(this);
  rowFrame_->setPen(QPen(QColor("#ff3b30"), 2.5));
  rowFrame_->setBrush(Qt::NoBrush);
  rowFrame_->setVisible(false);
  cellFrame_ = new QCPItemRect(this);
  cellFrame_->setPen(QPen(QColor("#ff9500"), 2.5));
  cellFrame_->setVisible(false);
  emptyText_ = tr("Type a sentence and press Enter");
  placeholder_ = new QCPItemText(this);
  placeholder_->position->setType(QCPItemPosition::ptAxisRectRatio);
  placeholder_->position->setCoords(0.5, 0.5);
  labelFit_ = new TickLabelFit(this, {xAxis, yAxis});
  valueName_ = tr("weight");
  applyPalette();
  setMatrix({});
}

void HeatmapPlot::applyPalette() {
  const QPalette p = palette();
  setBackground(p.brush(QPalette::Base));
  for (QCPAxis* axis : {xAxis, yAxis, scale_->axis()}) {
    axis->setBasePen(QPen(p.color(QPalette::Text)));
    axis->setTickPen(QPen(p.color(QPalette::Text)));
    axis->setTickLabelColor(p.color(QPalette::Text));
    axis->setLabelColor(p.color(QPalette::Text));
  }
  placeholder_->setColor(p.color(QPalette::PlaceholderText));
  title_->setTextColor(p.color(QPalette::Text));
}

void HeatmapPlot::changeEvent(QEvent* event) {
  if (event->type() == QEvent::PaletteChange) {
    applyPalette();
    replot();
  }
  QCustomPlot::changeEvent(event);
}

void HeatmapPlot::paintEvent(QPaintEvent* event) {
  QCustomPlot::paintEvent(event);
  if (!hasFocus()) return;
  // The arrow keys step only while the heatmap has the focus: show it, as a text field does.
  // Exports draw through toPainter(), without it.
  QPainter painter(this);
  painter.setPen(QPen(palette().color(QPalette::Highlight), 2));
  painter.setBrush(Qt::NoBrush);
  painter.drawRect(QRectF(rect()).adjusted(1, 1, -1, -1));
}

void HeatmapPlot::focusInEvent(QFocusEvent* event) {
  QCustomPlot::focusInEvent(event);
  update();
}

void HeatmapPlot::focusOutEvent(QFocusEvent* event) {
  QCustomPlot::focusOutEvent(event);
  update();
}

void HeatmapPlot::setGradient(const QCPColorGradient& gradient) {
  gradient_ = gradient;
  QCPColorGradient withNoValue = gradient;
  withNoValue.setNanHandling(QCPColorGradient::nhNanColor);
  withNoValue.setNanColor(QColor(QLatin1String(kNoValueColour)));
  map_->setGradient(withNoValue);
  rebuildValueLabels();
  replot();
}

QCPColorGradient HeatmapPlot::gradient() const { return gradient_; }

void HeatmapPlot::setDataRange(const QCPRange& range) {
  fixedRange_ = true;
  map_->setDataRange(range);
  rebuildValueLabels();
  replot();
}

void HeatmapPlot::shareDataRange(const QList<HeatmapPlot*>& plots) {
  double highest = 0.0;
  for (const HeatmapPlot* plot : plots)
    for (const auto& row : plot->matrix().weights)
      for (double w : row) highest = std::max(highest, w);
  for (HeatmapPlot* plot : plots) plot->setDataRange(QCPRange(0.0, highest > 0 ? highest : 1.0));
}

QCPRange HeatmapPlot::dataRange() const { return map_->dataRange(); }

void HeatmapPlot::setShowValues(bool show) {
  showValues_ = show;
  rebuildValueLabels();
  replot();
}

void HeatmapPlot::setValueName(const QString& name) {
  valueName_ = name;
  scale_->axis()->setLabel(name == tr("weight") ? QString() : name);
}

void HeatmapPlot::setEmptyText(const QString& text) {
  emptyText_ = text;
  if (!matrix_.noAttention) placeholder_->setText(text);
  replot();
}

void HeatmapPlot::setMatrix(const AttentionMatrix& matrix) {
  // Stepping through one sentence, the cells' left edge stays where the widest target word so far
  // put it: a short word added (or a row stepped back) moved the whole heatmap sideways.
  const bool sameSentence =
      !matrix_.sourceTokens.isEmpty() && matrix.sourceTokens == matrix_.sourceTokens;
  QMargins minimum = axisRect()->minimumMargins();
  minimum.setLeft(sameSentence ? std::max(minimum.left(), axisRect()->margins().left())
                               : ownLeftMargin_);
  axisRect()->setMinimumMargins(minimum);
  // A step forward or back (one matrix's rows the start of the other's) keeps the colour scale's
  // top as high as it was: fitted to the rows so far, earlier cells changed colour as rows came.
  // Home (no rows) and the first step from it are steps too: the top the sentence reached stays.
  const int sharedRows = std::min(matrix.rows(), matrix_.rows());
  const bool stepped =
      sameSentence && matrix.title == matrix_.title &&
      matrix.targetTokens.mid(0, sharedRows) == matrix_.targetTokens.mid(0, sharedRows);
  if (!stepped) stepTop_ = 0.0;
  matrix_ = matrix;
  forcedRows_.clear();
  editedRows_.clear();
  fitTitle();
  title_->setVisible(!matrix.title.isEmpty());
  const int rows = matrix.rows(), columns = matrix.columns();
  map_->data()->setSize(std::max(columns, 1), std::max(rows, 1));
  // QCustomPlot widens the picture by half a cell on each side only for two cells or more; a
  // single row (the first decoding step) or column would be drawn with no height or width.
  const auto cellCentres = [](int count) {
    return count > 1 ? QCPRange(0, count - 1) : QCPRange(-0.5, 0.5);
  };
  map_->data()->setRange(cellCentres(columns), cellCentres(rows));
  double highest = 0.0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < columns; ++c) {
      const double value = matrix.weights[r][c];
      map_->data()->setCell(c, r, value);
      if (!std::isnan(value)) highest = std::max(highest, signed_ ? std::abs(value) : value);
    }
  if (rows == 0) map_->data()->fill(0.0);
  map_->setVisible(rows > 0);
  stepTop_ = std::max(stepTop_, highest);
  if (!fixedRange_) {
    const double top = stepTop_ > 0 ? stepTop_ : 1.0;  // nothing drawn yet: a 0–1 scale
    map_->setDataRange(QCPRange(signed_ ? -top : 0.0, top));
  }
  // The baseline without attention has its tokens but nothing to draw between them.
  // Short lines: the text must fit a heatmap of a four-column compare grid.
  placeholder_->setText(matrix.noAttention
                            ? tr("No attention:\nthis model reads one fixed\n"
                                 "context (the encoder's final\nstates) at every step")
                            : emptyText_);
  placeholder_->setVisible(columns == 0 || matrix.noAttention);
  scale_->setVisible(!matrix.noAttention);  // no weights: a 0–1 scale would mean nothing
  rebuildTicks();
  chooseColumnLabelAngle();
  rebuildValueLabels();
  rebuildCopyFrames();
  rebuildNoValueFrames();
  if (currentRow_ >= rows) currentRow_ = rows - 1;
  setCurrentRow(currentRow_);
  cellFrame_->setVisible(false);
  highlighted_ = {-1, -1};
  resetView();
}

void HeatmapPlot::rebuildTicks() {
  auto xTicker = qSharedPointerCast<QCPAxisTickerText>(xAxis->ticker());
  auto yTicker = qSharedPointerCast<QCPAxisTickerText>(yAxis->ticker());
  xTicker->clear();
  yTicker->clear();
  for (int c = 0; c < matrix_.columns(); ++c) {
    const bool unknown = c < matrix_.unknownSource.size() && matrix_.unknownSource[c];
    // An unknown word is marked so it is not mistaken for a word the model knows.
    const QString token = readableToken(matrix_.sourceTokens[c], c == 0);
    xTicker->addTick(c, unknown ? token + " (?)" : token);
  }
  // A copied or forced word is marked so it is not mistaken for a word the model produced.
  for (int r = 0; r < matrix_.rows(); ++r) {
    QString label = readableToken(matrix_.targetTokens[r], r == 0);
    if (matrix_.isCopied(r)) label = tr("%1 (copied)").arg(label);
    if (isForced(r)) label = tr("%1 (forced)").arg(label);
    if (isEdited(r)) label = tr("%1 (edited)").arg(label);
    yTicker->addTick(r, label);
  }
  // Long sentences get smaller labels, and on screen no larger than their cells hold
  // (TickLabelFit); zooming (wheel) brings them back to reading size.
  const int longest = std::max(matrix_.columns(), matrix_.rows());
  labelFit_->setFullSize(longest > 60   ? TickLabelFit::kSmallest
                         : longest > 35 ? 8.0
                                        : font().pointSizeF());
}

namespace {

// Two decimals, without the leading zero that weights in [0, 1] all share ("0.45" → ".45"),
// so a cell's number fits; attributions' larger values keep every digit ("10.53", "-2.10").
QString cellText(double value) {
  QString text = QString::number(value, 'f', 2);
  if (text.startsWith(QStringLiteral("0.")))
    text.remove(0, 1);
  else if (text.startsWith(QStringLiteral("-0.")))
    text.remove(1, 1);
  return text;
}

}  // namespace

void HeatmapPlot::rebuildValueLabels() {
  for (QCPItemText* label : valueLabels_) removeItem(label);
  valueLabels_.clear();
  if (!showValues_ || matrix_.rows() * matrix_.columns() > kMaxValueLabels) return;
  const QCPRange range = map_->dataRange();
  QCPColorGradient gradient = map_->gradient();  // color() is not const in QCustomPlot 2.1
  QFont font = this->font();
  font.setPointSizeF(std::max(6.0, font.pointSizeF() - 2));
  for (int r = 0; r < matrix_.rows(); ++r)
    for (int c = 0; c < matrix_.columns(); ++c) {
      const double value = matrix_.weights[r][c];
      auto* label = new QCPItemText(this);
      label->position->setCoords(c, r);
      label->setText(std::isnan(value) ? QStringLiteral("–") : cellText(value));
      label->setFont(font);
      const QColor cell = QColor::fromRgb(gradient.color(value, range));
      label->setColor(cell.lightnessF() > 0.55 ? Qt::black : Qt::white);
      label->setClipToAxisRect(true);
      valueLabels_ << label;
    }
}

bool HeatmapPlot::showsColorScale() const { return scale_->visible(); }

void HeatmapPlot::setPrinting(bool printing) {
  // The current step's and the hovered cell's frames follow the window, not the picture.
  // Back from printing, both are drawn again from what they mark.
  if (printing) {
    rowFrame_->setVisible(false);
    cellFrame_->setVisible(false);
  } else {
    setCurrentRow(currentRow_);
    setHighlightedCell(highlighted_.y(), highlighted_.x());
  }
}

void HeatmapPlot::rebuildCopyFrames() {
  for (QCPItemRect* frame : copyFrames_) removeItem(frame);
  copyFrames_.clear();
  for (int r = 0; r < matrix_.rows(); ++r) {
    if (!matrix_.isCopied(r) || matrix_.copiedFrom[r] >= matrix_.columns()) continue;
    auto* frame = new QCPItemRect(this);
    frame->setPen(QPen(QColor(QLatin1String(kCopiedColour)), 2.0, Qt::DashLine));
    frame->setBrush(Qt::NoBrush);
    frame->setClipToAxisRect(true);
    placeFrame(frame, r, matrix_.copiedFrom[r], matrix_.copiedFrom[r]);
    copyFrames_ << frame;
  }
}

void HeatmapPlot::rebuildNoValueFrames() {
  for (QCPItemRect* frame : noValueFrames_) removeItem(frame);
  noValueFrames_.clear();
  // Grey alone could read as a value of the colormap (grayscale's middle): hatched, it cannot.
  const QBrush hatch(palette().color(QPalette::Text), Qt::BDiagPattern);
  for (int r = 0; r < matrix_.rows(); ++r)
    for (int c = 0; c < matrix_.columns(); ++c) {
      if (!std::isnan(matrix_.weights[r][c])) continue;
      auto* frame = new QCPItemRect(this);
      frame->setPen(Qt::NoPen);
      frame->setBrush(hatch);
      frame->setClipToAxisRect(true);
      frame->setSelectable(false);
      placeFrame(frame, r, c, c);
      noValueFrames_ << frame;
    }
}

void HeatmapPlot::placeFrame(QCPItemRect* frame, int row, int firstColumn, int lastColumn) {
  frame->topLeft->setCoords(firstColumn - 0.5, row - 0.5);
  frame->bottomRight->setCoords(lastColumn + 0.5, row + 0.5);
}

void HeatmapPlot::setCurrentRow(int row) {
  currentRow_ = row;
  const bool visible = row >= 0 && row < matrix_.rows();
  rowFrame_->setVisible(visible);
  if (visible) placeFrame(rowFrame_, row, 0, matrix_.columns() - 1);
  // In the next paint, with the step panel's heading and bars: never a frame a step behind.
  replot(QCustomPlot::rpQueuedRefresh);
}

void HeatmapPlot::setHighlightedCell(int row, int column) {
  const bool visible =
      row >= 0 && column >= 0 && row < matrix_.rows() && column < matrix_.columns();
  cellFrame_->setVisible(visible);
  highlighted_ = visible ? QPoint(column, row) : QPoint(-1, -1);
  if (visible) placeFrame(cellFrame_, row, column, column);
  replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapPlot::resetView() {
  xAxis->setRange(-0.5, std::max(matrix_.columns(), 1) - 0.5);
  yAxis->setRange(-0.5, std::max({matrix_.rows(), reservedRows_, 1}) - 0.5);
  replot();
}

void HeatmapPlot::setForcedRows(const QVector<int>& rows) {
  // std::equal, not QList's ==: that passes an empty list's null data to memcmp (UBSan).
  if (std::equal(rows.begin(), rows.end(), forcedRows_.begin(), forcedRows_.end())) return;
  forcedRows_ = rows;
  rebuildTicks();
  replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapPlot::setEditedRows(const QVector<int>& rows) {
  if (std::equal(rows.begin(), rows.end(), editedRows_.begin(), editedRows_.end())) return;
  editedRows_ = rows;
  rebuildTicks();
  replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapPlot::setReservedRows(int rows) {
  reservedRows_ = std::max(0, rows);
  resetView();
}

QPoint HeatmapPlot::cellAt(const QPoint& position) const {
  if (matrix_.isEmpty() || !axisRect()->rect().contains(position)) return {-1, -1};
  const int column = static_cast<int>(std::floor(xAxis->pixelToCoord(position.x()) + 0.5));
  const int row = static_cast<int>(std::floor(yAxis->pixelToCoord(position.y()) + 0.5));
  if (row < 0 || row >= matrix_.rows() || column < 0 || column >= matrix_.columns())
    return {-1, -1};
  return {column, row};
}

QString HeatmapPlot::toolTipAt(const QPoint& position) const {
  const QPoint cell = cellAt(position);
  // The whole title over a title elided to the plot's width.
  if (cell.x() < 0)
    return title_->visible() && title_->text() != matrix_.title &&
                   title_->outerRect().contains(position)
               ? matrix_.title
               : QString();
  const int row = cell.y(), column = cell.x();
  QString source = readableToken(matrix_.sourceTokens[column], column == 0);
  if (column < matrix_.unknownSource.size() && matrix_.unknownSource[column])
    source += tr(" (unknown word, read as <unk>)");
  // One multi-argument arg() wherever a token is substituted: a chained one would replace a
  // "%1" inside the token.
  const double value = matrix_.weights[row][column];
  const QString shown =
      std::isnan(value)
          ? (noValueText_.isEmpty() ? tr("no value") : tr("no value: %1").arg(noValueText_))
          : QString::number(value, 'f', 4);
  QString tip =
      tr("source: %1\ntarget: %2\n%3: %4")
          .arg(source, readableToken(matrix_.targetTokens[row], row == 0), valueName_, shown);
  if (matrix_.isPossibleLink(row, column)) tip += tr(" (possible link, drawn at half weight)");
  if (row < matrix_.copyNotes.size() && !matrix_.copyNotes[row].isEmpty())
    tip += QLatin1Char('\n') + matrix_.copyNotes[row];
  if (isForced(row)) tip += tr("\nforced: your choice, not the model's; Reset (Home) undoes it");
  if (isEdited(row))
    tip +=
        tr("\nedited: you changed this step's attention (the step panel's bars show your "
           "row); this row stays the model's own, and the what-if line under the translation "
           "shows what the model writes with your edit");
  return tip;
}

void HeatmapPlot::fitTitle() {
  // Elided, not wrapped: a plot of the compare grid has room for the lines it has.
  const QFontMetrics metrics(title_->font());
  const int room = std::max(40, width() - kScaleMinimumWidth - 24);
  QStringList lines = matrix_.title.split(QLatin1Char('\n'));
  for (QString& line : lines) line = metrics.elidedText(line, Qt::ElideRight, room);
  title_->setText(lines.join(QLatin1Char('\n')));
}

QString HeatmapPlot::shownTitle() const { return title_->text(); }

QRect HeatmapPlot::titleRect() const { return title_->outerRect(); }

QRect HeatmapPlot::colorScaleRect() const { return scale_->outerRect(); }

void HeatmapPlot::resizeEvent(QResizeEvent* event) {
  fitTitle();
  QCustomPlot::resizeEvent(event);
  chooseColumnLabelAngle();
}

void HeatmapPlot::chooseColumnLabelAngle() {
  // Labels of a character or two (a task's letters, digits) stand upright when their columns
  // are wide enough: turned 60°, a letter reads as a mark. Words turn, so neighbours never
  // overlap. Decided on the widget's width, not the last layout's, so plots of one size
  // (a timeline's panels) decide alike.
  const auto ticker = qSharedPointerCast<QCPAxisTickerText>(xAxis->ticker());
  const QFontMetrics metrics(xAxis->tickLabelFont());
  int widest = 0;
  bool shortLabels = true;  // the end token's label does not decide, but has to fit
  for (const QString& label : ticker->ticks()) {
    const int advance = metrics.horizontalAdvance(label);
    widest = std::max(widest, advance);
    if (label != QLatin1String("</s>") && advance > 2 * metrics.averageCharWidth())
      shortLabels = false;
  }
  const double column = kCellShareOfWidth * width() / std::max(1, matrix_.columns());
  const bool upright = widest > 0 && shortLabels && widest + kUprightLabelAir <= column;
  const double angle = upright ? 0.0 : 60.0;
  if (angle != xAxis->tickLabelRotation()) xAxis->setTickLabelRotation(angle);
}

void HeatmapPlot::mouseMoveEvent(QMouseEvent* event) {
  QCustomPlot::mouseMoveEvent(event);
  const QPoint cell = cellAt(event->pos());
  if (cell.x() < 0) {
    if (const QString tip = toolTipAt(event->pos()); !tip.isEmpty()) {
      QToolTip::showText(event->globalPosition().toPoint(), tip, this);
      Q_EMIT cellHovered(-1, -1);
      return;
    }
    QToolTip::hideText();
    Q_EMIT cellHovered(-1, -1);
    return;
  }
  QToolTip::showText(event->globalPosition().toPoint(), toolTipAt(event->pos()), this);
  Q_EMIT cellHovered(cell.y(), cell.x());
}

void HeatmapPlot::mousePressEvent(QMouseEvent* event) {
  pressPosition_ = event->pos();
  QCustomPlot::mousePressEvent(event);
}

void HeatmapPlot::mouseReleaseEvent(QMouseEvent* event) {
  QCustomPlot::mouseReleaseEvent(event);
  // A click, not the end of a drag, selects a row.
  if ((event->pos() - pressPosition_).manhattanLength() < 4) {
    const QPoint cell = cellAt(event->pos());
    if (cell.y() >= 0) Q_EMIT rowClicked(cell.y());
  }
}

void HeatmapPlot::keyPressEvent(QKeyEvent* event) {
  // ↑ ↓ move the red frame a row, as a click on that row would: after clicking a row, a reader
  // goes on from there (← → belong to decoding, which runs from the sentence's end).
  const int direction = event->key() == Qt::Key_Up ? -1 : event->key() == Qt::Key_Down ? 1 : 0;
  const bool plain =
      !(event->modifiers() & (Qt::ShiftModifier | Qt::ControlModifier | Qt::AltModifier));
  if (direction == 0 || !plain || matrix_.rows() == 0) {
    QCustomPlot::keyPressEvent(event);
    return;
  }
  event->accept();
  const int from = currentRow_ >= 0 ? currentRow_ : (direction > 0 ? -1 : matrix_.rows());
  const int row = std::clamp(from + direction, 0, matrix_.rows() - 1);
  if (row != currentRow_) Q_EMIT rowClicked(row);
}

void HeatmapPlot::mouseDoubleClickEvent(QMouseEvent* event) {
  QCustomPlot::mouseDoubleClickEvent(event);
  resetView();
}

void HeatmapPlot::leaveEvent(QEvent* event) {
  QCustomPlot::leaveEvent(event);
  Q_EMIT cellHovered(-1, -1);
}

}  // namespace attnscope::ui
