#include "plots/beam_tree_plot.h"

#include <attnscope/beam_tree_json.h>

#include <QBuffer>
#include <QContextMenuEvent>
#include <QFileInfo>
#include <QHelpEvent>
#include <QImage>
#include <QMenu>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "core/export_file.h"
#include "core/score_text.h"
#include "core/token_text.h"
#include "plots/colormaps.h"
#include "plots/picture_title.h"

namespace attnscope::ui {
namespace {

using NodeState = BeamNode::State;

constexpr double kMargin = 10;
constexpr double kPadding = 6;  // text to box border
constexpr double kMinBoxWidth = 30;
constexpr double kMaxBoxWidth = 150;   // longer tokens are elided (the tool tip has them whole)
constexpr double kColumnGap = 34;      // room for the edges' elbows between columns
constexpr double kRowGap = 10;         // room for a finished node's double border and selection
constexpr double kFinishedOutset = 3;  // the outer line of a finished node's double border
constexpr double kSelectedOutset = 5;
constexpr double kPrunedOpacity = 0.3;  // faded, still readable when looked at closely
constexpr int kMaxPngSide = 20000;      // as every picture export (render/exporter.cpp)
const QString kLeafMark = QStringLiteral(" \u2605");  // ★ after a continuation's best leaf

double probability(const BeamNode& n) { return std::exp(static_cast<double>(n.logp)); }

// Black or white, whichever reads better on `fill` (relative luminance, sRGB weights).
QColor textColourOn(const QColor& fill) {
  const double luminance = 0.2126 * fill.redF() + 0.7152 * fill.greenF() + 0.0722 * fill.blueF();
  return luminance > 0.5 ? QColor(Qt::black) : QColor(Qt::white);
}

// One entry of the legend line: a sample drawn in `sample`, then its text.
struct LegendEntry {
  enum class Sample { Gradient, Heavy, Faded, Finished, Dashed } sample;
  QString text;
  QRectF sampleRect, textRect;
};

std::vector<LegendEntry> legendEntries(const QFontMetricsF& metrics) {
  std::vector<LegendEntry> entries = {
      {LegendEntry::Sample::Gradient, QObject::tr("token probability (0 to 1)"), {}, {}},
      {LegendEntry::Sample::Heavy, QObject::tr("best path"), {}, {}},
      {LegendEntry::Sample::Faded, QObject::tr("pruned"), {}, {}},
      {LegendEntry::Sample::Finished, QObject::tr("finished, final score beside"), {}, {}},
      {LegendEntry::Sample::Dashed,
       QObject::tr("continued search,") + kLeafMark + QObject::tr(" its best"),
       {},
       {}}};
  const double height = metrics.height();
  double x = kMargin;
  for (LegendEntry& e : entries) {
    const double sampleWidth = e.sample == LegendEntry::Sample::Gradient ? 60 : 26;
    e.sampleRect = QRectF(x, kMargin + 2, sampleWidth, height - 4);
    x += sampleWidth + 5;
    e.textRect = QRectF(x, kMargin, metrics.horizontalAdvance(e.text) + 1, height);
    x = e.textRect.right() + 18;
  }
  return entries;
}

}  // namespace

BeamTreePlot::BeamTreePlot(QWidget* parent) : QWidget(parent) {
  setAttribute(Qt::WA_OpaquePaintEvent);  // paintEvent fills its area
  // Never squeezed below its layout in a resizable QScrollArea: it scrolls instead.
  setSizePolicy(QSizePolicy::Minimum, QSizePolicy::Minimum);
  gradient_ = colormap(QStringLiteral("viridis"));
  indexTree();
  layOut();
}

void BeamTreePlot::setTree(const BeamTree& tree) {
  tree_ = tree;
  continued_.assign(tree_.nodes.size(), false);
  continuations_.assign(tree_.nodes.size(), {});
  selected_ = -1;
  visibleSteps_ = -1;
  indexTree();
  layOut();
}

void BeamTreePlot::clear(const QString& text) {
  emptyText_ = text;
  setTree({});
}

int BeamTreePlot::addContinuation(int node, const BeamTree& continuation) {
  const int size = static_cast<int>(tree_.nodes.size());
  if (node <= 0 || node >= size || !continuations_[static_cast<size_t>(node)].empty()) return -1;
  // The nodes from the root to `node`: the continuation's prefix chain maps onto them.
  std::vector<int> start;
  for (int n = node; n >= 0; n = tree_.nodes[static_cast<size_t>(n)].parent) start.push_back(n);
  std::reverse(start.begin(), start.end());
  const std::vector<int> prefix = tree_.path(node);
  const int depth = static_cast<int>(prefix.size());
  std::vector<int> mapped(continuation.nodes.size(), -1);
  std::vector<BeamNode> grafted;
  for (const BeamNode& c : continuation.nodes) {
    const auto i = static_cast<size_t>(c.id);
    if (i >= mapped.size()) return -1;  // ids are indices (translation.h); anything else is no tree
    if (c.parent < 0) {
      mapped[i] = start.front();
      continue;
    }
    const int parent =
        static_cast<size_t>(c.parent) < i ? mapped[static_cast<size_t>(c.parent)] : -1;
    if (parent < 0) continue;
    if (c.step <= depth) {  // the prefix, forced: the chain to `node`, already in the tree
      if (c.step >= 1 && parent == start[static_cast<size_t>(c.step - 1)] &&
          c.token_id == prefix[static_cast<size_t>(c.step - 1)])
        mapped[i] = start[static_cast<size_t>(c.step)];
      continue;
    }
    if (parent != node && parent < size) continue;  // not below `node`
    BeamNode n = c;
    n.id = size + static_cast<int>(grafted.size());
    n.parent = parent;
    // Scores continue the node's own, so a grafted hypothesis adds up as the search's do.
    const float parentScore = parent < size ? tree_.nodes[static_cast<size_t>(parent)].score
                                            : grafted[static_cast<size_t>(parent - size)].score;
    n.score = parentScore + n.logp;
    mapped[i] = n.id;
    grafted.push_back(n);
  }
  if (grafted.empty()) return -1;
  std::vector<int> path = start;
  for (int id : continuation.best)
    if (static_cast<size_t>(id) < mapped.size() && mapped[static_cast<size_t>(id)] >= size)
      path.push_back(mapped[static_cast<size_t>(id)]);
  if (path.size() == start.size()) path.clear();  // its best ended at `node`: nothing to mark
  for (BeamNode& n : grafted) tree_.nodes.push_back(std::move(n));
  tree_.dropped += continuation.dropped;
  continued_.resize(tree_.nodes.size(), true);
  continuations_.resize(tree_.nodes.size());
  continuations_[static_cast<size_t>(node)] = path;
  indexTree();
  layOut();
  return path.empty() ? -1 : path.back();
}

bool BeamTreePlot::isContinued(int node) const {
  return node >= 0 && static_cast<size_t>(node) < continued_.size() &&
         continued_[static_cast<size_t>(node)];
}

std::vector<int> BeamTreePlot::continuationPath(int node) const {
  if (node < 0 || static_cast<size_t>(node) >= continuations_.size()) return {};
  return continuations_[static_cast<size_t>(node)];
}

void BeamTreePlot::setVisibleSteps(int steps) {
  const int wanted = steps < 0 || steps >= lastStep_ ? -1 : steps;
  if (wanted == visibleSteps_) return;
  visibleSteps_ = wanted;
  layOut();
}

int BeamTreePlot::visibleSteps() const { return shownSteps(); }

int BeamTreePlot::lastStep() const { return lastStep_; }

int BeamTreePlot::shownSteps() const {
  return visibleSteps_ < 0 ? lastStep_ : std::min(visibleSteps_, lastStep_);
}

void BeamTreePlot::setShowPruned(bool show) {
  if (show == showPruned_) return;
  showPruned_ = show;
  layOut();
}

void BeamTreePlot::setSelectedNode(int node) {
  selected_ = node >= 0 && static_cast<size_t>(node) < tree_.nodes.size() ? node : -1;
  update();
}

void BeamTreePlot::setGradient(const QCPColorGradient& gradient) {
  gradient_ = gradient;
  update();
}

QRectF BeamTreePlot::nodeRect(int node) const {
  if (node < 0 || static_cast<size_t>(node) >= rects_.size()) return {};
  return rects_[static_cast<size_t>(node)];
}

int BeamTreePlot::nodeAt(const QPointF& position) const {
  if (columnX_.empty() || pinnedLegendBand().contains(position.toPoint())) return -1;
  // The column left of the position, then the node of that column around it.
  const auto column = std::upper_bound(columnX_.begin(), columnX_.end(), position.x());
  if (column == columnX_.begin()) return -1;
  const auto step = static_cast<size_t>(column - columnX_.begin() - 1);
  const std::vector<int>& nodes = columns_[step];
  const auto below = std::partition_point(nodes.begin(), nodes.end(), [&](int id) {
    return rects_[static_cast<size_t>(id)].bottom() < position.y();
  });
  if (below == nodes.end() || !rects_[static_cast<size_t>(*below)].contains(position)) return -1;
  return *below;
}

QString BeamTreePlot::toolTipFor(int node) const {
  if (node < 0 || static_cast<size_t>(node) >= tree_.nodes.size()) return {};
  const BeamNode& n = tree_.nodes[static_cast<size_t>(node)];
  const auto number = [](double value) { return QString::number(value, 'f', 3); };
  QStringList lines;
  lines << labels_[static_cast<size_t>(node)];
  if (!n.copied.empty())
    lines << tr("copied from the source where the model wrote %1")
                 .arg(QString::fromStdString(n.token));
  if (n.state == NodeState::kRoot) {
    lines << tr("the start of the search");
  } else {
    lines << tr("probability %1 (log P %2)").arg(number(probability(n)), number(n.logp));
    lines << tr("cumulative score (log P of the hypothesis) %1").arg(number(n.score));
    QString where =
        tr("step %1, %2").arg(n.step).arg(QString::fromLatin1(BeamTree::state_name(n.state)));
    if (onBest_[static_cast<size_t>(node)]) where += tr(", on the best path");
    if (continued_[static_cast<size_t>(node)]) where += tr(", found by a continued search");
    lines << where;
  }
  if (n.state == NodeState::kFinished)
    lines << tr("final score %1 (after the length and coverage penalties)")
                 .arg(number(n.final_score));
  if (!continuations_[static_cast<size_t>(node)].empty())
    lines << tr("the search was continued from here");
  return lines.join(QLatin1Char('\n'));
}

std::unique_ptr<QMenu> BeamTreePlot::contextMenuFor(int node) {
  auto menu = std::make_unique<QMenu>(this);
  if (node < 0 || static_cast<size_t>(node) >= tree_.nodes.size()) return menu;
  const BeamNode& n = tree_.nodes[static_cast<size_t>(node)];
  QString why;
  if (!continuations_[static_cast<size_t>(node)].empty())
    why = tr("continued already");
  else if (n.state == NodeState::kRoot)
    why = tr("the search starts here");
  else if (n.state == NodeState::kKept)
    why = tr("kept: the search went on from it");
  else if (n.state == NodeState::kFinished)
    why = tr("finished: its hypothesis ended");
  const QString text = tr("Continue from here");
  QAction* action = menu->addAction(why.isEmpty() ? text : tr("%1 (%2)").arg(text, why));
  action->setEnabled(why.isEmpty());
  connect(action, &QAction::triggered, this, [this, node] { Q_EMIT continueRequested(node); });
  return menu;
}

QSize BeamTreePlot::sizeHint() const { return layoutSize_; }

void BeamTreePlot::indexTree() {
  const size_t count = tree_.nodes.size();
  font_ = font();
  font_.setPixelSize(QFontInfo(font()).pixelSize());
  const QFontMetricsF metrics(font_);
  children_.assign(count, {});
  labels_.assign(count, {});
  labelWidths_.assign(count, 0);
  onBest_.assign(count, false);
  onContinuation_.assign(count, false);
  continuationLeaf_.assign(count, false);
  lastStep_ = 0;
  for (const BeamNode& n : tree_.nodes) {
    const auto i = static_cast<size_t>(n.id);
    if (n.parent >= 0) children_[static_cast<size_t>(n.parent)].push_back(n.id);
    // The word the translation writes: a copied source word where the model wrote "<unk>".
    labels_[i] =
        readableToken(QString::fromStdString(n.copied.empty() ? n.token : n.copied), n.step == 1);
    labelWidths_[i] = metrics.horizontalAdvance(labels_[i]);
    lastStep_ = std::max(lastStep_, n.step);
  }
  for (std::vector<int>& c : children_)
    std::stable_sort(c.begin(), c.end(), [&](int a, int b) {
      return tree_.nodes[static_cast<size_t>(a)].score > tree_.nodes[static_cast<size_t>(b)].score;
    });
  for (int id : tree_.best)
    if (id >= 0 && static_cast<size_t>(id) < count) onBest_[static_cast<size_t>(id)] = true;
  for (const std::vector<int>& path : continuations_) {
    if (path.empty()) continue;
    for (int id : path)
      if (continued_[static_cast<size_t>(id)]) onContinuation_[static_cast<size_t>(id)] = true;
    continuationLeaf_[static_cast<size_t>(path.back())] = true;
  }
}

bool BeamTreePlot::isShown(int node) const {
  const BeamNode& n = tree_.nodes[static_cast<size_t>(node)];
  return n.step <= shownSteps() && (showPruned_ || n.state != NodeState::kPruned);
}

QString BeamTreePlot::finalScoreText(int node) const {
  const BeamNode& n = tree_.nodes[static_cast<size_t>(node)];
  QString text;
  if (n.state == NodeState::kFinished)
    text = QString::number(n.final_score, 'f', finalScoreDecimals_);
  if (continuationLeaf_[static_cast<size_t>(node)]) text += kLeafMark;
  return text;
}

void BeamTreePlot::layOut() {
  const size_t count = tree_.nodes.size();
  const QFontMetricsF metrics(font_);
  boxHeight_ = std::ceil(metrics.height()) + 8;
  rowHeight_ = boxHeight_ + kRowGap;
  top_ = kMargin + std::ceil(metrics.height()) + 16;
  // Two decimals, or as many as tell the finished hypotheses' scores apart (a tie at −0.28
  // hides why one of them is the translation).
  QList<double> finalScores;
  for (const BeamNode& n : tree_.nodes)
    if (n.state == NodeState::kFinished) finalScores << n.final_score;
  finalScoreDecimals_ = distinctDecimals(finalScores, 2, 5);
  const std::vector<LegendEntry> legend = legendEntries(metrics);
  legendWidth_ = legend.back().textRect.right();
  rects_.assign(count, QRectF());
  edgeSpans_.assign(count, {0.0, 0.0});
  columns_.clear();
  columnX_.clear();
  columnWidths_.clear();
  if (count == 0) {
    layoutSize_ = QSize(400, 120);
    applySize();
    return;
  }
  const int steps = shownSteps();
  columns_.resize(static_cast<size_t>(steps) + 1);
  // Preorder, children best first: leaves take rows in that order, so a node's subtree owns a
  // run of rows no other node of its column shares, and no two boxes can overlap. Iterative:
  // the deepest tree is ~300 steps, but a stack costs nothing.
  std::vector<int> order;
  order.reserve(count);
  std::vector<double> row(count, 0.0);
  std::vector<int> stack = {0};
  int rows = 0;
  while (!stack.empty()) {
    const int id = stack.back();
    stack.pop_back();
    order.push_back(id);
    columns_[static_cast<size_t>(tree_.nodes[static_cast<size_t>(id)].step)].push_back(id);
    bool leaf = true;
    const std::vector<int>& c = children_[static_cast<size_t>(id)];
    for (auto it = c.rbegin(); it != c.rend(); ++it)
      if (isShown(*it)) {
        stack.push_back(*it);
        leaf = false;
      }
    if (leaf) row[static_cast<size_t>(id)] = rows++;
  }
  // Each parent centred over its first and last child (children come after it in preorder).
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const auto i = static_cast<size_t>(*it);
    int first = -1, last = -1;
    for (int c : children_[i])
      if (isShown(c)) {
        if (first < 0) first = c;
        last = c;
      }
    if (first >= 0) row[i] = (row[static_cast<size_t>(first)] + row[static_cast<size_t>(last)]) / 2;
    const double centre = top_ + row[i] * rowHeight_ + boxHeight_ / 2;
    edgeSpans_[i] = {centre, centre};
    if (first >= 0)
      edgeSpans_[i] = {top_ + row[static_cast<size_t>(first)] * rowHeight_ + boxHeight_ / 2,
                       top_ + row[static_cast<size_t>(last)] * rowHeight_ + boxHeight_ / 2};
  }
  // Columns as wide as their longest label, plus room for final scores beside the boxes.
  double x = kMargin;
  for (const std::vector<int>& column : columns_) {
    double width = kMinBoxWidth, beside = 0;
    for (int id : column) {
      width = std::max(width, labelWidths_[static_cast<size_t>(id)] + 2 * kPadding);
      if (const QString text = finalScoreText(id); !text.isEmpty())
        beside = std::max(beside, kFinishedOutset + 4 + metrics.horizontalAdvance(text));
    }
    width = std::ceil(std::min(width, kMaxBoxWidth));
    columnX_.push_back(x);
    columnWidths_.push_back(width);
    for (int id : column)
      rects_[static_cast<size_t>(id)] =
          QRectF(x, top_ + row[static_cast<size_t>(id)] * rowHeight_, width, boxHeight_);
    rightEdge_ = x + width + beside;
    x = std::ceil(rightEdge_ + kColumnGap);
  }
  // Within Qt's widget size limit (16,777,215): a capped tree of 200,000 nodes is ~6.5 million
  // pixels tall with every pruned candidate shown.
  const auto side = [](double length) {
    return static_cast<int>(std::min<double>(std::ceil(length), QWIDGETSIZE_MAX));
  };
  layoutSize_ = QSize(side(std::max(rightEdge_, legendWidth_) + kMargin),
                      side(top_ + rows * rowHeight_ + kMargin));
  applySize();
}

void BeamTreePlot::applySize() {
  updateGeometry();
  // A plain QScrollArea keeps the size given here; a resizable one makes it at least this.
  resize(layoutSize_);
  update();
}

void BeamTreePlot::paintEvent(QPaintEvent* event) {
  QPainter painter(this);
  painter.fillRect(event->rect(), palette().color(QPalette::Base));
  if (isEmpty()) {
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(rect().adjusted(10, 10, -10, -10), Qt::AlignCenter | Qt::TextWordWrap,
                     emptyText_);
    return;
  }
  // Scrolled away from the top (or the left), the legend stays at the view's top: a tree scrolled
  // to its deep branches still says what its colours and lines mean.
  const QRect band = pinnedLegendBand();
  paint(painter, event->rect(), band.isEmpty());
  if (band.isEmpty() || !band.intersects(event->rect())) return;
  painter.setOpacity(1.0);
  painter.fillRect(band, palette().color(QPalette::Base));
  painter.setPen(palette().color(QPalette::Mid));
  painter.drawLine(band.bottomLeft(), band.bottomRight());
  painter.translate(band.topLeft());
  paintLegend(painter);
}

QRect BeamTreePlot::pinnedLegendBand() const {
  const QRect visible = visibleRegion().boundingRect();
  if (isEmpty() || visible.isEmpty() || (visible.top() <= 0 && visible.left() <= 0)) return {};
  return {visible.left(), visible.top(), visible.width(), static_cast<int>(std::ceil(top_)) - 4};
}

void BeamTreePlot::paint(QPainter& painter, const QRectF& area, bool legend) const {
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setFont(font_);
  if (legend && area.top() < top_) paintLegend(painter);
  const int steps = static_cast<int>(columns_.size()) - 1;
  for (int step = 1; step <= steps; ++step)
    if (columnX_[static_cast<size_t>(step)] >= area.left() &&
        columnX_[static_cast<size_t>(step) - 1] <= area.right())
      paintEdges(painter, area, step);
  for (int step = 0; step <= steps; ++step) {
    const auto s = static_cast<size_t>(step);
    const double right = step < steps ? columnX_[s + 1] : rightEdge_ + kMargin;
    if (right < area.left() || columnX_[s] - kSelectedOutset > area.right()) continue;
    const std::vector<int>& column = columns_[s];
    auto it = std::partition_point(column.begin(), column.end(), [&](int id) {
      return rects_[static_cast<size_t>(id)].bottom() + kSelectedOutset < area.top();
    });
    for (; it != column.end() &&
           rects_[static_cast<size_t>(*it)].top() - kSelectedOutset <= area.bottom();
         ++it)
      paintNode(painter, *it);
  }
  if (selected_ >= 0 && !rects_[static_cast<size_t>(selected_)].isEmpty()) {
    painter.setOpacity(1.0);
    painter.setPen(QPen(palette().color(QPalette::Highlight), 2.5));
    painter.setBrush(Qt::NoBrush);
    painter.drawRoundedRect(
        rects_[static_cast<size_t>(selected_)].adjusted(-kSelectedOutset, -kSelectedOutset,
                                                        kSelectedOutset, kSelectedOutset),
        5, 5);
  }
}

void BeamTreePlot::paintLegend(QPainter& painter) const {
  const QColor ink = palette().color(QPalette::Text);
  for (const LegendEntry& e : legendEntries(QFontMetricsF(font_))) {
    const QRectF r = e.sampleRect;
    const double middle = r.center().y();
    painter.setOpacity(1.0);
    painter.setBrush(Qt::NoBrush);
    switch (e.sample) {
      case LegendEntry::Sample::Gradient:
        for (int i = 0; i < static_cast<int>(r.width()); ++i)
          painter.fillRect(QRectF(r.left() + i, r.top(), 1, r.height()),
                           QColor::fromRgb(gradient_.color(i / (r.width() - 1), QCPRange(0, 1))));
        break;
      case LegendEntry::Sample::Heavy:
        painter.setPen(QPen(ink, 3));
        painter.drawLine(QPointF(r.left(), middle), QPointF(r.right(), middle));
        break;
      case LegendEntry::Sample::Faded:
        painter.setOpacity(kPrunedOpacity);
        painter.setPen(QPen(ink, 1));
        painter.setBrush(QColor::fromRgb(gradient_.color(0.5, QCPRange(0, 1))));
        painter.drawRoundedRect(r, 3, 3);
        break;
      case LegendEntry::Sample::Finished:
        painter.setPen(QPen(ink, 1));
        painter.drawRoundedRect(r.adjusted(2, 2, -2, -2), 2, 2);
        painter.drawRoundedRect(r.adjusted(-1, -1, 1, 1), 3, 3);
        break;
      case LegendEntry::Sample::Dashed:
        painter.setPen(QPen(ink, 2, Qt::DashLine));
        painter.drawLine(QPointF(r.left(), middle), QPointF(r.right(), middle));
        break;
    }
    painter.setOpacity(1.0);
    painter.setPen(ink);
    painter.drawText(e.textRect, Qt::AlignLeft | Qt::AlignVCenter, e.text);
  }
}

// The edges from column step − 1 to column `step` that cross `area`: elbows, the vertical part
// just before the children's column. Heavy ones last, so siblings' thin lines never cover them.
void BeamTreePlot::paintEdges(QPainter& painter, const QRectF& area, int step) const {
  const std::vector<int>& parents = columns_[static_cast<size_t>(step) - 1];
  const QColor ink = palette().color(QPalette::Text);
  QColor line = ink;  // thin edges lighter than the boxes' borders
  line.setAlphaF(0.55);
  std::vector<std::pair<int, int>> heavy;
  const auto draw = [&](int parent, int child, bool bold) {
    const QRectF& p = rects_[static_cast<size_t>(parent)];
    const QRectF& c = rects_[static_cast<size_t>(child)];
    const BeamNode& n = tree_.nodes[static_cast<size_t>(child)];
    const bool dashed = continued_[static_cast<size_t>(child)];
    painter.setOpacity(n.state == NodeState::kPruned ? kPrunedOpacity : 1.0);
    painter.setPen(QPen(bold ? ink : line, bold ? 3.0 : 1.0, dashed ? Qt::DashLine : Qt::SolidLine,
                        Qt::FlatCap, Qt::MiterJoin));
    const double elbow = c.left() - kColumnGap / 2;
    const QPointF points[] = {{p.right(), p.center().y()},
                              {elbow, p.center().y()},
                              {elbow, c.center().y()},
                              {c.left(), c.center().y()}};
    painter.drawPolyline(points, 4);
  };
  auto it = std::partition_point(parents.begin(), parents.end(), [&](int id) {
    return edgeSpans_[static_cast<size_t>(id)].second + 2 < area.top();
  });
  for (; it != parents.end() && edgeSpans_[static_cast<size_t>(*it)].first - 2 <= area.bottom();
       ++it)
    for (int child : children_[static_cast<size_t>(*it)]) {
      if (rects_[static_cast<size_t>(child)].isEmpty()) continue;
      const auto c = static_cast<size_t>(child);
      if (onBest_[c] || onContinuation_[c])
        heavy.emplace_back(*it, child);
      else
        draw(*it, child, false);
    }
  for (const auto& [parent, child] : heavy) draw(parent, child, true);
  painter.setOpacity(1.0);
}

void BeamTreePlot::paintNode(QPainter& painter, int node) const {
  const auto i = static_cast<size_t>(node);
  const BeamNode& n = tree_.nodes[i];
  const QRectF& r = rects_[i];
  const QColor ink = palette().color(QPalette::Text);
  const QColor fill = n.state == NodeState::kRoot
                          ? QColor(0xe8, 0xe8, 0xe8)
                          : QColor::fromRgb(gradient_.color(probability(n), QCPRange(0, 1)));
  const bool heavy = onBest_[i] || onContinuation_[i];
  painter.setOpacity(n.state == NodeState::kPruned ? kPrunedOpacity : 1.0);
  painter.setPen(QPen(ink, heavy ? 2.5 : 1.0, continued_[i] ? Qt::DashLine : Qt::SolidLine));
  painter.setBrush(fill);
  painter.drawRoundedRect(r, 3, 3);
  if (n.state == NodeState::kFinished) {
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(ink, heavy ? 2.0 : 1.0));
    painter.drawRoundedRect(
        r.adjusted(-kFinishedOutset, -kFinishedOutset, kFinishedOutset, kFinishedOutset), 5, 5);
  }
  // The label chosen against the faded fill as it shows, and faded less than the box: a pruned
  // token stays readable.
  const double opacity = painter.opacity();
  const QColor base = palette().color(QPalette::Base);
  const QColor shown = QColor::fromRgbF(fill.redF() * opacity + base.redF() * (1 - opacity),
                                        fill.greenF() * opacity + base.greenF() * (1 - opacity),
                                        fill.blueF() * opacity + base.blueF() * (1 - opacity));
  painter.setOpacity(n.state == NodeState::kPruned ? 0.75 : 1.0);
  painter.setPen(textColourOn(shown));
  const QFontMetricsF metrics(font_);
  painter.drawText(r, Qt::AlignCenter,
                   metrics.elidedText(labels_[i], Qt::ElideRight, r.width() - 2 * kPadding + 1));
  if (const QString beside = finalScoreText(node); !beside.isEmpty()) {
    painter.setPen(ink);
    painter.drawText(QRectF(r.right() + kFinishedOutset + 4, r.top(),
                            metrics.horizontalAdvance(beside) + 2, r.height()),
                     Qt::AlignLeft | Qt::AlignVCenter, beside);
  }
  painter.setOpacity(1.0);
}

void BeamTreePlot::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) {
    QWidget::mousePressEvent(event);
    return;
  }
  const int node = nodeAt(event->position());
  if (node < 0) return;
  setSelectedNode(node);
  Q_EMIT nodeClicked(node);
}

void BeamTreePlot::contextMenuEvent(QContextMenuEvent* event) {
  const int node = nodeAt(event->pos());
  if (node < 0) {
    event->ignore();
    return;
  }
  contextMenuFor(node)->exec(event->globalPos());
}

bool BeamTreePlot::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const int node = nodeAt(help->pos());
    if (node >= 0)
      QToolTip::showText(help->globalPos(), toolTipFor(node), this, nodeRect(node).toRect());
    else
      QToolTip::hideText();
    return true;
  }
  if (event->type() == QEvent::FontChange) {  // labels measured again, the tree laid out again
    const bool handled = QWidget::event(event);
    indexTree();
    layOut();
    return handled;
  }
  return QWidget::event(event);
}

void BeamTreePlot::exportTo(const QString& path, const ExportOptions& options) const {
  const auto format = exportFormatFor(path);
  if (!format || *format == ExportFormat::Csv)
    failExport(path, QStringLiteral("unknown file type '.%1' for a beam tree (use .png, .pdf, "
                                    ".svg or .json)")
                         .arg(QFileInfo(path).suffix()));
  if (isEmpty()) failExport(path, QStringLiteral("there is no beam tree to export"));
  if (*format == ExportFormat::Json) {
    saveExport(path, QByteArray::fromStdString(beam_tree_json(tree_)));
    return;
  }
  // The laid-out tree, scaled (its shape kept) into the size asked for, below the title's band
  // if there is a title; a missing side follows the tree's shape.
  const QSizeF tree(layoutSize_);
  const int top = pictureTitleHeight(options.title, *this);
  QSizeF size = options.size;
  if (size.width() <= 0 && size.height() <= 0)
    size = tree + QSizeF(0, top);
  else if (size.width() <= 0)
    size.setWidth(tree.width() * std::max(1.0, size.height() - top) / tree.height());
  else if (size.height() <= 0)
    size.setHeight(tree.height() * size.width() / tree.width() + top);
  const QSize picture(static_cast<int>(std::lround(size.width())),
                      static_cast<int>(std::lround(size.height())));
  const QSizeF below(size.width(), std::max(16.0, size.height() - top));
  const double fit = std::min(below.width() / tree.width(), below.height() / tree.height());
  const auto render = [&](QPainter& painter) {
    painter.fillRect(QRectF(QPointF(0, 0), size), palette().color(QPalette::Base));
    drawPictureTitle(painter, options.title, static_cast<int>(size.width()), *this);
    painter.translate((below.width() - tree.width() * fit) / 2,
                      top + (below.height() - tree.height() * fit) / 2);
    painter.scale(fit, fit);
    paint(painter, QRectF(QPointF(0, 0), tree));
  };
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  if (*format == ExportFormat::Png) {
    const double scale = options.scale > 0 ? options.scale : 1.0;
    const QSize pixels(static_cast<int>(std::lround(picture.width() * scale)),
                       static_cast<int>(std::lround(picture.height() * scale)));
    if (pixels.width() > kMaxPngSide || pixels.height() > kMaxPngSide || pixels.isEmpty())
      failExport(path, QStringLiteral("the tree is %1×%2 pixels, more than %3 on a side for a PNG "
                                      "(hide pruned candidates, or export .svg, .pdf or .json)")
                           .arg(pixels.width())
                           .arg(pixels.height())
                           .arg(kMaxPngSide));
    QImage image(pixels, QImage::Format_ARGB32);
    if (image.isNull())
      failExport(path, QStringLiteral("not enough memory for a %1×%2 picture")
                           .arg(pixels.width())
                           .arg(pixels.height()));
    QPainter painter(&image);
    painter.scale(scale, scale);
    render(painter);
    painter.end();
    image.save(&buffer, "PNG");
  } else if (*format == ExportFormat::Pdf) {
    QPdfWriter writer(&buffer);
    writer.setResolution(72);  // one point per pixel of the layout
    writer.setPageSize(QPageSize(QSizeF(picture), QPageSize::Point));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    writer.setCreator(QStringLiteral("attnscope"));
    QPainter painter(&writer);
    render(painter);
    painter.end();
  } else {
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(picture);
    generator.setViewBox(QRect(QPoint(0, 0), picture));
    generator.setTitle(options.title.isEmpty() ? QStringLiteral("attnscope beam tree")
                                               : options.title);
    QPainter painter(&generator);
    render(painter);
    painter.end();
  }
  saveExport(path, bytes);
}

}  // namespace attnscope::ui
