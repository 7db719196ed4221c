#include "tabs/snapshot_view.h"

#include <attnscope/word_view.h>

#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QVBoxLayout>
#include <algorithm>

#include "plots/heatmap_plot.h"

namespace attnscope::ui {
namespace {

// Five frames a second show the alignment forming; more would only cost the GUI thread time.
constexpr qint64 kRedrawInterval = 200;
const std::string kEndToken = "</s>";

// Tokens as text: characters and pieces joined into words, the end token left out.
QString tokensText(const std::vector<std::string>& tokens, const std::string& marker) {
  QStringList words;
  for (const auto& group : word_groups(tokens, marker, kEndToken)) {
    const std::string word = word_text(tokens, group, marker);
    if (word != kEndToken) words << QString::fromStdString(word);
  }
  return words.join(QLatin1Char(' '));
}

}  // namespace

SnapshotView::SnapshotView(QWidget* parent) : QWidget(parent) {
  output_ = new QLabel(this);
  output_->setTextFormat(Qt::PlainText);
  output_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  output_->setWordWrap(true);
  heatmap_ = new HeatmapPlot(this);
  // Rows sum to 1: one fixed scale lets the frames of the timeline be compared.
  heatmap_->setDataRange(QCPRange(0.0, 1.0));
  heatmap_->setEmptyText(tr("Press Start: the probe's attention appears here as the model learns"));
  timeline_ = new QSlider(Qt::Horizontal, this);
  timeline_->setRange(0, 0);
  timeline_->setToolTip(tr("Every snapshot of this run: drag back to watch the alignment form"));
  position_ = new QLabel(this);

  auto* timelineRow = new QHBoxLayout;
  timelineRow->addWidget(new QLabel(tr("Timeline"), this));
  timelineRow->addWidget(timeline_, 1);
  timelineRow->addWidget(position_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(output_);
  layout->addWidget(heatmap_, 1);
  layout->addLayout(timelineRow);

  redrawTimer_.setSingleShot(true);
  connect(&redrawTimer_, &QTimer::timeout, this, &SnapshotView::redraw);
  connect(timeline_, &QSlider::valueChanged, this, &SnapshotView::requestRedraw);
  clear();
}

void SnapshotView::clear() {
  snapshots_.clear();
  redrawTimer_.stop();
  {
    const QSignalBlocker block(timeline_);
    timeline_->setRange(0, 0);
  }
  timeline_->setEnabled(false);
  drawn_ = -1;
  keptEpoch_ = 0;
  heatmap_->setMatrix({});
  output_->setText(tr("Probe: –"));
  position_->setText(tr("no snapshot yet"));
}

void SnapshotView::setGradient(const QCPColorGradient& gradient) {
  heatmap_->setGradient(gradient);
}

void SnapshotView::setKeptEpoch(int epoch) {
  if (epoch == keptEpoch_) return;
  keptEpoch_ = epoch;
  retitle_ = true;
  requestRedraw();
}

void SnapshotView::addSnapshot(const TrainingSnapshot& snapshot) {
  const bool follow = snapshots_.empty() || timeline_->value() == timeline_->maximum();
  snapshots_.push_back(snapshot);
  const int last = static_cast<int>(snapshots_.size()) - 1;
  {
    const QSignalBlocker block(timeline_);  // one redraw request below, not one per change
    timeline_->setRange(0, last);
    if (follow) timeline_->setValue(last);
  }
  timeline_->setEnabled(last > 0);
  requestRedraw();
}

void SnapshotView::requestRedraw() {
  if (redrawTimer_.isActive()) return;  // the pending redraw will show the newest state
  const qint64 since = sinceRedraw_.isValid() ? sinceRedraw_.elapsed() : kRedrawInterval;
  redrawTimer_.start(static_cast<int>(std::max<qint64>(0, kRedrawInterval - since)));
}

void SnapshotView::redraw() {
  sinceRedraw_.start();
  const int index = timeline_->value();
  if (index < 0 || static_cast<size_t>(index) >= snapshots_.size()) return;
  const TrainingSnapshot& s = snapshots_[static_cast<size_t>(index)];
  position_->setText(tr("%1 of %2 · epoch %3 · batch %4 · loss %5")
                         .arg(index + 1)
                         .arg(snapshots_.size())
                         .arg(s.epoch)
                         .arg(s.batch)
                         .arg(s.loss, 0, 'f', 3));
  if (index == drawn_ && !retitle_) return;
  drawn_ = index;
  retitle_ = false;
  QString title =
      tr("Snapshot %1: epoch %2, after %3 batches").arg(index + 1).arg(s.epoch).arg(s.batch);
  if (keptEpoch_ > 0) title += tr(" · model kept: epoch %1").arg(keptEpoch_);
  heatmap_->setMatrix(AttentionMatrix::fromSnapshot(s, title));
  output_->setText(
      tr("Probe: %1   →   %2")
          .arg(tokensText(s.source, s.subword_marker), tokensText(s.output, s.subword_marker)));
  ++redraws_;
  Q_EMIT shown(index);
}

}  // namespace attnscope::ui
