#include "widgets/beam_view.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <stdexcept>

#include "core/app_settings.h"
#include "core/beam_node_view.h"
#include "core/export_file.h"
#include "core/model_info_text.h"
#include "plots/beam_tree_plot.h"
#include "widgets/export_picture_dialog.h"
#include "widgets/file_dialogs.h"
#include "workers/beam_controller.h"

namespace attnscope::ui {

BeamView::BeamView(EngineWorker* worker, QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("beamView"));
  controller_ = new BeamController(worker, this);
  plot_ = new BeamTreePlot;
  plot_->setFocusPolicy(Qt::StrongFocus);  // File > Export exports the tree while it has focus
  scroll_ = new QScrollArea(this);
  scroll_->setObjectName(QStringLiteral("beamTreeScroll"));
  scroll_->setWidget(plot_);
  scroll_->setWidgetResizable(true);
  // The legend is pinned to the view's top (BeamTreePlot::pinnedLegendBand): a scroll repaints
  // the view rather than moving the legend with the tree.
  for (QScrollBar* bar : {scroll_->horizontalScrollBar(), scroll_->verticalScrollBar()})
    connect(bar, &QScrollBar::valueChanged, plot_, qOverload<>(&QWidget::update));
  summary_ = new QLabel(this);
  summary_->setObjectName(QStringLiteral("beamSummary"));
  note_ = new QLabel(this);
  note_->setObjectName(QStringLiteral("beamNote"));
  note_->setWordWrap(true);
  note_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  showPruned_ = new QCheckBox(tr("Show &pruned"), this);
  showPruned_->setToolTip(
      tr("Draw the candidates the search scored and did not keep (faded), or hide them"));
  showPruned_->setChecked(AppSettings().showPruned());
  plot_->setShowPruned(showPruned_->isChecked());
  export_ = new QPushButton(tr("Export &tree…"), this);
  export_->setToolTip(tr("The tree as a PNG, SVG or PDF picture, or as JSON"));

  auto* top = new QHBoxLayout;
  top->addWidget(summary_, 1);
  top->addWidget(showPruned_);
  top->addWidget(export_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(top);
  layout->addWidget(note_);
  layout->addWidget(scroll_, 1);

  connect(controller_, &BeamController::searched, this, &BeamView::showSearch);
  connect(controller_, &BeamController::nodeDecoded, this, [this](const BeamNodeResult& result) {
    if (!result.error.isEmpty()) {
      setNote(tr("No hypothesis for that node: %1").arg(result.error.section('\n', 0, 0)));
      return;
    }
    hypotheses_.insert(result.node, result.translation);
    if (result.node == shownNode_) showHypothesis();
  });
  connect(controller_, &BeamController::continued, this, &BeamView::graft);
  connect(plot_, &BeamTreePlot::nodeClicked, this, &BeamView::selectNode);
  connect(plot_, &BeamTreePlot::continueRequested, this, &BeamView::continueFrom);
  connect(showPruned_, &QCheckBox::toggled, this, [this](bool show) {
    plot_->setShowPruned(show);
    AppSettings().setShowPruned(show);
    scrollToShownNode();  // laid out anew: the node shown has moved
  });
  connect(export_, &QPushButton::clicked, this, &BeamView::exportDialog);
  playTimer_ = new QTimer(this);
  connect(playTimer_, &QTimer::timeout, this, [this] {
    if (plot_->isEmpty()) return;  // the search has not arrived yet
    if (!advance()) stopPlaying();
  });
  setVisible(false);
}

void BeamView::search(const BeamRequest& request, int steps) {
  controller_->search(request);
  pendingSteps_ = steps;
  hypotheses_.clear();
  selected_ = -1;
  shownNode_ = -1;
  plot_->clear(tr("Searching with a beam of %1…").arg(request.beamSize));
  summary_->setText(tr("Beam %1: searching…").arg(request.beamSize));
  setNote({});
  setVisible(true);
}

void BeamView::clear() {
  stopPlaying();
  controller_->clear();
  hypotheses_.clear();
  selected_ = -1;
  shownNode_ = -1;
  pendingSteps_ = -1;
  plot_->clear(tr("Translate with a beam above 1 to see its search"));
  summary_->clear();
  setNote({});
  setVisible(false);
}

bool BeamView::isActive() const { return controller_->request().has_value(); }

bool BeamView::isSearchOf(const QString& key, const QString& sentence) const {
  const auto& request = controller_->request();
  return request && request->modelKey == key && request->sentence == sentence;
}

QString BeamView::modelKey() const {
  return controller_->request() ? controller_->request()->modelKey : QString();
}

void BeamView::showSearch() {
  const BeamResult& result = *controller_->result();
  hypotheses_.clear();
  selected_ = -1;
  shownNode_ = -1;
  // The list first: it shows the best hypothesis whole, then the steps asked for show its path.
  Q_EMIT finalBeamArrived(result.finalBeam, result.request.modelKey);
  if (!result.error.isEmpty() || result.tree.nodes.empty()) {
    const QString why = !result.error.isEmpty() ? result.error.section('\n', 0, 0)
                                                : tr("the sentence has no token the model reads");
    plot_->clear(tr("No beam tree: %1").arg(why));
    summary_->setText(tr("No beam tree"));
    setNote(why);
    return;
  }
  plot_->setTree(result.tree);
  if (!result.tree.best.empty() && !result.finalBeam.isEmpty())
    hypotheses_.insert(result.tree.best.back(), result.finalBeam.front());
  summary_->setText(beamTreeSummary(result.tree));
  setNote(
      tr("Click a node to see its hypothesis; right-click a pruned one to continue the search "
         "from it. → ← step through the search (along a clicked node's path), Home goes back "
         "to its root, End shows it all, Space plays it."));
  setVisibleSteps(pendingSteps_);
}

void BeamView::selectNode(int node) {
  if (node < 0 || node >= static_cast<int>(plot_->tree().nodes.size())) return;
  selected_ = node;
  plot_->setSelectedNode(node);
  showHypothesis();
}

void BeamView::continueFrom(int node) {
  const BeamTree& tree = plot_->tree();
  if (node <= 0 || node >= static_cast<int>(tree.nodes.size()) || controller_->continuing(node))
    return;
  const BeamNode& from = tree.nodes[static_cast<size_t>(node)];
  controller_->continueFrom(node, tree.path(node));
  setNote(tr("Continuing the search from step %1 \u201c%2\u201d…")
              .arg(from.step)
              .arg(QString::fromStdString(from.token)));
}

void BeamView::graft(const BeamContinuation& continuation) {
  if (!continuation.error.isEmpty()) {
    setNote(
        tr("Could not continue from that node: %1").arg(continuation.error.section('\n', 0, 0)));
    return;
  }
  if (continuation.node <= 0 || continuation.node >= static_cast<int>(plot_->tree().nodes.size()))
    return;  // the controller drops answers about another tree: this one is not of the tree shown
  const BeamNode from = plot_->tree().nodes[static_cast<size_t>(continuation.node)];
  int leaf = plot_->addContinuation(continuation.node, continuation.tree);
  if (leaf < 0) leaf = continuation.node;  // it ended where it started (a pruned end token)
  hypotheses_.insert(leaf, continuation.best);
  const BeamTree& searched = controller_->result()->tree;
  const auto added = plot_->tree().nodes.size() - searched.nodes.size();
  summary_->setText(tr("%1; %2 more from continued searches")
                        .arg(beamTreeSummary(searched))
                        .arg(QString::number(added)));
  selected_ = leaf;
  plot_->setSelectedNode(leaf);
  setNote(continuationSummary(from, continuation.best, bestFinalScore(continuation.tree),
                              bestFinalScore(controller_->result()->tree)));
  setVisibleSteps(-1);  // where it led, to its end
}

void BeamView::stepForward() {
  if (!plot_->isEmpty()) advance();
}

bool BeamView::advance() {
  const BeamTree& tree = plot_->tree();
  if (selected_ < 0 || shownNode_ < 0) {  // the search's best path, one step more
    if (plot_->visibleSteps() >= plot_->lastStep()) return false;
    setVisibleSteps(plot_->visibleSteps() + 1);
    return true;
  }
  // A node chosen: along its path, then on from it the way the search went.
  if (shownNode_ == selected_) {
    const int next = bestContinuation(tree, selected_);
    if (next < 0) {
      setNote(
          tr("The search did not go on from this node. Right-click a pruned node to continue "
             "the search from it; Home goes back to the best path."));
      return false;
    }
    selected_ = next;
    plot_->setSelectedNode(next);
  }
  const int step = tree.nodes[static_cast<size_t>(shownNode_)].step + 1;
  if (plot_->visibleSteps() < step)
    setVisibleSteps(step);  // the tree revealed as far as the node shown
  else
    showHypothesis();
  return true;
}

void BeamView::stepBack() {
  stopPlaying();  // stepping by hand pauses Play, as in greedy decoding
  if (plot_->isEmpty()) return;
  if (selected_ >= 0 && shownNode_ > 0) {
    // A node chosen: the step before the node shown, on its path (the tree as of that step).
    setVisibleSteps(plot_->tree().nodes[static_cast<size_t>(shownNode_)].step - 1);
    return;
  }
  if (plot_->visibleSteps() > 0) setVisibleSteps(plot_->visibleSteps() - 1);
}

void BeamView::showFirstStep() {
  stopPlaying();
  // Back to the root and to the search's own path, as Home drops forced tokens in greedy mode.
  selected_ = -1;
  plot_->setSelectedNode(-1);
  if (!plot_->isEmpty()) setVisibleSteps(0);
}

void BeamView::showEveryStep() {
  stopPlaying();
  if (!plot_->isEmpty()) setVisibleSteps(-1);
}

bool BeamView::selectHypothesis(const Translation& t) {
  const BeamTree& tree = plot_->tree();
  if (tree.nodes.empty()) return false;
  // The tree has the model's own tokens: copied words are its unknown token again.
  std::vector<std::string> tokens = t.tokens;
  for (const CopiedWord& c : t.copied)
    if (c.target >= 0 && c.target < static_cast<int>(tokens.size()))
      tokens[static_cast<size_t>(c.target)] = t.unknown_token;
  for (const BeamNode& leaf : tree.nodes) {
    if (leaf.state != BeamNode::State::kFinished || leaf.step != static_cast<int>(tokens.size()))
      continue;
    bool same = true;
    for (int n = leaf.id; n > 0 && same; n = tree.nodes[static_cast<size_t>(n)].parent) {
      const BeamNode& node = tree.nodes[static_cast<size_t>(n)];
      same = node.token == tokens[static_cast<size_t>(node.step - 1)];
    }
    if (!same) continue;
    hypotheses_.insert(leaf.id, t);  // its attention known: nothing to decode
    selectNode(leaf.id);
    return true;
  }
  return false;
}

int BeamView::shownPathNode(int row) const {
  const BeamTree& tree = plot_->tree();
  if (shownNode_ <= 0 || shownNode_ >= static_cast<int>(tree.nodes.size()) || row < 0) return -1;
  int node = shownNode_;
  while (node > 0 && tree.nodes[static_cast<size_t>(node)].step > row + 1)
    node = tree.nodes[static_cast<size_t>(node)].parent;
  return node > 0 && tree.nodes[static_cast<size_t>(node)].step == row + 1 ? node : -1;
}

std::optional<Step> BeamView::stepOfShownPath(int row) const {
  const int node = shownPathNode(row);
  const Translation* full = node > 0 ? hypothesisThrough(shownNode_) : nullptr;
  if (full == nullptr) return {};
  return beamNodeStep(plot_->tree(), node, *full);
}

void BeamView::selectSibling(int row, const QString& token) {
  const int node = shownPathNode(row);
  if (node <= 0) return;
  const BeamTree& tree = plot_->tree();
  const int parent = tree.nodes[static_cast<size_t>(node)].parent;
  for (const BeamNode& n : tree.nodes)
    if (n.parent == parent && QString::fromStdString(n.token) == token) {
      selectNode(n.id);
      return;
    }
}

void BeamView::togglePlay(int intervalMs) {
  if (playing()) {
    stopPlaying();
    return;
  }
  // A search shown to its end plays again from its root.
  if (!plot_->isEmpty() && plot_->visibleSteps() >= plot_->lastStep()) setVisibleSteps(0);
  playTimer_->start(std::max(1, intervalMs));
  Q_EMIT playingChanged(true);
}

bool BeamView::playing() const { return playTimer_->isActive(); }

void BeamView::stopPlaying() {
  if (!playTimer_->isActive()) return;
  playTimer_->stop();
  Q_EMIT playingChanged(false);
}

void BeamView::setVisibleSteps(int steps) {
  plot_->setVisibleSteps(steps);
  showHypothesis();
}

const Translation* BeamView::hypothesisThrough(int node) const {
  const BeamTree& tree = plot_->tree();
  for (auto it = hypotheses_.cbegin(); it != hypotheses_.cend(); ++it)
    for (int n = it.key(); n >= 0 && n < static_cast<int>(tree.nodes.size());
         n = tree.nodes[static_cast<size_t>(n)].parent)
      if (n == node) return &it.value();
  return nullptr;
}

void BeamView::showHypothesis() {
  const BeamTree& tree = plot_->tree();
  if (tree.nodes.empty() || !controller_->result() || controller_->result()->finalBeam.isEmpty())
    return;
  int node = selected_ >= 0 ? selected_ : tree.best.empty() ? 0 : tree.best.back();
  // A node deeper than the steps revealed: its hypothesis as far as they go.
  const int steps = plot_->visibleSteps();
  while (node > 0 && steps >= 0 && tree.nodes[static_cast<size_t>(node)].step > steps)
    node = tree.nodes[static_cast<size_t>(node)].parent;
  shownNode_ = node;
  scrollToShownNode();
  const QString caption = beamNodeCaption(tree, node);
  if (node == 0) {  // the root: the source, no output step yet
    Q_EMIT hypothesisShown(firstSteps(controller_->result()->finalBeam.front(), 0), nullptr,
                           caption);
    return;
  }
  const Translation* full = hypothesisThrough(node);
  if (full == nullptr) {
    controller_->decodeNode(node, tree.path(node));
    return;
  }
  const Step step = beamNodeStep(tree, node, *full);
  Q_EMIT hypothesisShown(firstSteps(*full, tree.nodes[static_cast<size_t>(node)].step), &step,
                         caption);
}

void BeamView::scrollToShownNode() {
  // Once the scroll area has laid out the tree just set or revealed.
  QTimer::singleShot(0, this, [this] {
    const QRectF box = plot_->nodeRect(shownNode_);
    if (box.isEmpty()) return;
    // A node that leaves the view comes back to its middle, so its neighbours show too.
    const QSize view = scroll_->viewport()->size();
    scroll_->ensureVisible(static_cast<int>(box.center().x()), static_cast<int>(box.center().y()),
                           view.width() / 3, view.height() / 3);
  });
}

void BeamView::setNote(const QString& text) {
  note_->setText(text);
  note_->setVisible(!text.isEmpty());
}

void BeamView::setGradient(const QCPColorGradient& gradient) { plot_->setGradient(gradient); }

QSize BeamView::sizeHint() const { return {QWidget::sizeHint().width(), 420}; }

QSize BeamView::exportSize() const { return plot_->sizeHint(); }

QString BeamView::exportTitle() const {
  const std::optional<BeamRequest>& request = controller_->request();
  if (!request) return {};
  return exportTitleText(request->modelKey + tr(" · beam %1").arg(request->beamSize), nullptr,
                         request->sentence);
}

void BeamView::exportTo(const QString& path, const ExportOptions& options) const {
  plot_->exportTo(path, options);
}

void BeamView::exportDialog() {
  if (plot_->isEmpty()) return;
  const QString path = askSavePath(
      this, AppSettings::Folder::Export, tr("Export tree"), QStringLiteral("beam-tree.png"),
      tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf);;JSON (*.json)"));
  if (path.isEmpty()) return;
  ExportOptions options;
  options.size = exportSize();
  // As the other exports: a title for a slide or a paper, and for PNG its size (a tall tree
  // with its pruned candidates is thousands of pixels high).
  const auto format = exportFormatFor(path);
  if (format && isPicture(*format)) {
    ExportPictureDialog dialog(options.size, exportTitle(), format == ExportFormat::Png, this);
    if (dialog.exec() != QDialog::Accepted) return;
    // PNG: the tree, its shape kept, fitted into the size asked; PDF and SVG: its own layout.
    options.size = format == ExportFormat::Png ? dialog.size() : QSize();
    options.scale = dialog.scale();
    options.title = dialog.title();
  }
  try {
    exportTo(path, options);
    setNote(tr("Exported %1").arg(path));
  } catch (const std::exception& e) {
    // Not exec(): a modal loop would stall the window's updates (and tests).
    auto* box = new QMessageBox(QMessageBox::Warning, tr("attnscope"),
                                QString::fromStdString(e.what()), QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
  }
}

}  // namespace attnscope::ui
