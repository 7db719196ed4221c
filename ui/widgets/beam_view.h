#pragma once
// The Translation tab's Beam view (issue 31): the recorded beam search as a tree, its title line,
// Show pruned and Export tree. It decides which hypothesis the heatmap shows: the best path's at
// first, the clicked node's, or where a search resumed from a pruned node led, each cut to the
// steps the tree reveals (→ ← Home End step through the search as through greedy decoding).
#include <attnscope/translation.h>
#include <qcustomplot.h>

#include <QHash>
#include <QWidget>
#include <optional>

#include "core/engine_requests.h"
#include "render/exporter.h"

class QCheckBox;
class QLabel;
class QPushButton;
class QScrollArea;
class QTimer;

namespace attnscope::ui {

class BeamController;
class BeamTreePlot;
class EngineWorker;

class BeamView : public QWidget {
  Q_OBJECT
 public:
  /// `worker` may live on another thread; the view's controller queues requests to it.
  explicit BeamView(EngineWorker* worker, QWidget* parent = nullptr);

  /// Runs `request`'s recorded search and shows it (the view appears), revealing `steps` steps
  /// once it arrives (−1: all of them).
  void search(const BeamRequest& request, int steps = -1);
  /// No tree (greedy decoding, an empty sentence, a file): the view hides.
  void clear();
  /// Whether the view shows, or waits for, a search.
  bool isActive() const;
  /// Whether that search is of `sentence` on model `key`.
  bool isSearchOf(const QString& key, const QString& sentence) const;
  /// The model of the search shown.
  QString modelKey() const;

  // The search step by step, as greedy decoding: one step more or fewer, the root, every step.
  // With a node chosen (clicked, or a hypothesis of the list) → and ← step along its path and on
  // from it as the search went (bestContinuation); the root (Home) returns to the best path.
  void stepForward();
  void stepBack();
  void showFirstStep();
  void showEveryStep();
  /// Selects the finished node whose hypothesis is `t` (one of the final beam's, listed beside
  /// the heatmap); false when the tree shown has none.
  bool selectHypothesis(const Translation& t);
  /// Selects the node with token `token` among the siblings of the node at step `row` (from 0)
  /// of the path shown: a candidate the step panel lists for that step.
  void selectSibling(int row, const QString& token);
  /// Play: one step more every `intervalMs` until the whole search shows (from its root again
  /// when it shows already); called again while playing, pauses.
  void togglePlay(int intervalMs);
  bool playing() const;

  /// Step `row` (from 0) of the hypothesis shown as the step panel shows it: that step's node on
  /// its path, its candidates the node's siblings. None outside the path or before one shows.
  std::optional<Step> stepOfShownPath(int row) const;
  /// The node whose hypothesis the heatmap shows (−1 before a tree arrives).
  int shownNode() const { return shownNode_; }
  void setGradient(const QCPColorGradient& gradient);

  /// The tree as laid out: the Export dialog's starting size.
  QSize exportSize() const;
  /// The title an export suggests: the model, the beam and the sentence ("" before a search).
  QString exportTitle() const;
  /// PNG, SVG, PDF or JSON by the extension; throws std::runtime_error naming the path.
  void exportTo(const QString& path, const ExportOptions& options) const;

  /// Tall enough that the Translation tab's splitter gives the tree a share like the heatmap's
  /// when it appears, not the few rows a scroll area asks for.
  QSize sizeHint() const override;

  BeamTreePlot* plot() const { return plot_; }
  BeamController* controller() const { return controller_; }
  QCheckBox* showPrunedBox() const { return showPruned_; }
  /// The tree's title line (beam size, nodes, best final score) and the last event's line.
  QLabel* summaryLabel() const { return summary_; }
  QLabel* noteLabel() const { return note_; }
  QPushButton* exportButton() const { return export_; }

 Q_SIGNALS:
  /// Play started or stopped (the tool bar's Play says Pause while playing).
  void playingChanged(bool playing);
  /// The heatmap and the step panel should show `t` (a hypothesis cut to the steps shown) and
  /// `step`, its last step (null at the root); `caption` says which node it is.
  void hypothesisShown(const attnscope::Translation& t, const attnscope::Step* step,
                       const QString& caption);
  /// The search of model `modelKey` arrived: its final beam, best first (empty: no search).
  void finalBeamArrived(const QList<attnscope::Translation>& hypotheses, const QString& modelKey);

 private:
  void showSearch();
  // One step more (→, Play): false at the end of what can be shown.
  bool advance();
  void selectNode(int node);
  void continueFrom(int node);
  void graft(const BeamContinuation& continuation);
  void setVisibleSteps(int steps);
  // Emits the hypothesis of the selected node (or the best) as far as the tree is revealed, or
  // asks for it when no hypothesis known passes through that node.
  void showHypothesis();
  // A known full hypothesis passing through `node`, or null.
  const Translation* hypothesisThrough(int node) const;
  void setNote(const QString& text);
  void exportDialog();
  void stopPlaying();
  // The node at step `row` + 1 on the path to the node shown; −1 when the path has none.
  int shownPathNode(int row) const;
  // Scrolls the tree so the node shown is in view: a tall tree's best path is rarely at its top.
  void scrollToShownNode();

  BeamController* controller_ = nullptr;
  BeamTreePlot* plot_ = nullptr;
  QScrollArea* scroll_ = nullptr;
  QLabel* summary_ = nullptr;
  QLabel* note_ = nullptr;
  QCheckBox* showPruned_ = nullptr;
  QPushButton* export_ = nullptr;
  QTimer* playTimer_ = nullptr;
  int pendingSteps_ = -1;  // steps to reveal when the searched tree arrives
  int selected_ = -1;      // the node clicked; −1: the best path
  int shownNode_ = -1;
  // Full hypotheses known, by the leaf they end at: the best, continuations' best, nodes decoded.
  QHash<int, Translation> hypotheses_;
};

}  // namespace attnscope::ui
