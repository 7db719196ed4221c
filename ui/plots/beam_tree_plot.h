#pragma once
// The beam search as a tree (issue 31): steps left to right, one box per candidate the search
// scored, labelled with its token and coloured by its probability; finished hypotheses carry
// their final score, the best path is drawn heavier, pruned candidates faded (or hidden). The
// user clicks a node to see that partial hypothesis, and asks to continue the search from a
// pruned one; a continuation is drawn under the node it started from.
#include <attnscope/translation.h>
#include <qcustomplot.h>

#include <QFont>
#include <QRectF>
#include <QString>
#include <QWidget>
#include <memory>
#include <vector>

#include "core/export_options.h"

class QMenu;

namespace attnscope::ui {

class BeamTreePlot : public QWidget {
  Q_OBJECT
 public:
  explicit BeamTreePlot(QWidget* parent = nullptr);

  /// Shows a recorded search (Translator::translate_with_tree); drops continuations and the
  /// selection, shows every step.
  void setTree(const BeamTree& tree);
  /// Nothing to show; `text` says why ("Translate with a beam above 1 to see its search").
  void clear(const QString& text = {});
  /// The tree drawn: the search, plus the nodes of continuations (ids after the search's).
  const BeamTree& tree() const { return tree_; }
  bool isEmpty() const { return tree_.nodes.empty(); }

  /// Grafts a search resumed from `node` (translate_with_tree with TranslationOptions::prefix
  /// = tree().path(node)): `continuation`'s nodes below the prefix's last node become children
  /// of `node`, with new ids; they are marked as a continuation (isContinued) and its best
  /// path becomes continuationPath(node). Returns the id the continuation's best leaf got, or −1
  /// when nothing was grafted: `node` is not in the tree or was continued already, the
  /// continuation does not start with tree().path(node), or it ends where it started.
  int addContinuation(int node, const BeamTree& continuation);
  bool isContinued(int node) const;
  /// The node ids from the root to the continuation's best leaf, or empty.
  std::vector<int> continuationPath(int node) const;

  /// Shows steps 0..steps only (→ in the Translation tab reveals one more); −1: all.
  void setVisibleSteps(int steps);
  int visibleSteps() const;  // the number of steps shown
  int lastStep() const;      // the deepest step of the tree
  /// Pruned candidates drawn faded (true, the default) or hidden.
  void setShowPruned(bool show);
  bool showPruned() const { return showPruned_; }
  /// The node drawn selected (its hypothesis shows in the heatmap); −1 for none.
  void setSelectedNode(int node);
  int selectedNode() const { return selected_; }
  /// The colormap of the node boxes (the app's attention colormap).
  void setGradient(const QCPColorGradient& gradient);

  /// Where `node` is drawn, in widget coordinates; empty when hidden.
  QRectF nodeRect(int node) const;
  /// The node under a widget position, or −1.
  int nodeAt(const QPointF& position) const;
  /// What hovering `node` shows: token, probability, log-probability, cumulative score, state,
  /// final score on finished nodes.
  QString toolTipFor(int node) const;
  /// The text beside a node: a finished one's final score, with two decimals or as many as
  /// tell the finished scores apart, and the star of a continuation's best leaf.
  QString finalScoreText(int node) const;
  /// Where the legend line is drawn over the tree when the view is scrolled away from the
  /// tree's top or left (widget coordinates; clicks there reach no node); empty when the
  /// legend shows in its place.
  QRect pinnedLegendBand() const;
  /// The context menu of `node`: "Continue from here", enabled on a pruned node not continued
  /// yet (it emits continueRequested), disabled with the reason in its text otherwise.
  std::unique_ptr<QMenu> contextMenuFor(int node);

  QSize sizeHint() const override;
  /// PNG, SVG or PDF by the extension (the whole tree at its laid-out size, scaled to
  /// options' size when given), or JSON (as attnscope-cli translate --beam-tree writes).
  /// Throws std::runtime_error with a one-line message naming the path.
  void exportTo(const QString& path, const ExportOptions& options = {}) const;

 Q_SIGNALS:
  void nodeClicked(int node);
  /// The context menu's "Continue from here" (offered on pruned nodes not yet continued).
  void continueRequested(int node);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void contextMenuEvent(QContextMenuEvent* event) override;
  bool event(QEvent* event) override;  // tool tips

 private:
  // What changes with the tree only: each node's children best first, labels and their widths,
  // the best paths. Then layOut() places the nodes shown.
  void indexTree();
  void layOut();
  void applySize();
  bool isShown(int node) const;  // in the layout: not under a hidden pruned node, step shown
  int shownSteps() const;
  // `legend`: the legend line at the top of the tree, as exports draw it; on screen it may be
  // pinned to the top of the view instead (pinnedLegendBand).
  void paint(QPainter& painter, const QRectF& area, bool legend = true) const;
  void paintLegend(QPainter& painter) const;

  void paintEdges(QPainter& painter, const QRectF& area, int step) const;
  void paintNode(QPainter& painter, int node) const;

  BeamTree tree_;
  std::vector<bool> continued_;                  // per node: part of a continuation
  std::vector<QRectF> rects_;                    // per node; empty when not drawn
  std::vector<std::vector<int>> continuations_;  // per node: its continuation's best path
  std::vector<std::vector<int>> children_;       // per node, highest score first
  std::vector<QString> labels_;                  // per node, as the screen writes tokens
  std::vector<double> labelWidths_;
  std::vector<bool> onBest_;          // on the search's best path
  std::vector<bool> onContinuation_;  // on a continuation's best path, below its start
  std::vector<bool> continuationLeaf_;
  // Per node: the vertical extent of the edges to its children (its own centre when it has
  // none). Within a column both ends grow with the nodes' order, so painting finds the edges
  // crossing the area by binary search.
  std::vector<std::pair<double, double>> edgeSpans_;
  std::vector<std::vector<int>> columns_;  // per step: the nodes drawn, top to bottom
  std::vector<double> columnX_, columnWidths_;
  double rightEdge_ = 0;  // of the columns' boxes and final scores
  int lastStep_ = 0;
  int visibleSteps_ = -1;
  bool showPruned_ = true;
  int selected_ = -1;
  QString emptyText_;
  mutable QCPColorGradient gradient_;  // color() is not const in QCustomPlot 2.1
  QFont font_;  // pixel-sized: the same layout on screen, in a PNG and at a PDF's 72 dpi
  double boxHeight_ = 0, rowHeight_ = 0, top_ = 0, legendWidth_ = 0;
  int finalScoreDecimals_ = 2;  // as few as tell the finished hypotheses' scores apart
  QSize layoutSize_;
};

}  // namespace attnscope::ui
