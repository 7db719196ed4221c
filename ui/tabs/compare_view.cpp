#include "tabs/compare_view.h"

#include <QHBoxLayout>
#include <QScrollArea>
#include <QTimer>
#include <QVBoxLayout>

#include "plots/colormaps.h"
#include "plots/heatmap_plot.h"
#include "widgets/heatmap_grid.h"
#include "workers/engine_worker.h"

namespace attnscope::ui {
namespace {
// Columns of the grid for `count` plots: one row up to three, then two rows up to eight (seven
// models: 4 + 3, so each heatmap keeps the height to label its rows), then four columns.
int gridColumns(int count) { return count <= 3 ? count : count <= 8 ? (count + 1) / 2 : 4; }

using Kind = CompareTarget::Kind;
}  // namespace

CompareTarget::Kind CompareView::mode() const { return static_cast<Kind>(mode_->currentIndex()); }

void CompareView::setMode(CompareTarget::Kind kind) {
  mode_->setCurrentIndex(static_cast<int>(kind));
}

CompareView::CompareView(QWidget* parent) : QWidget(parent) {
  mode_ = new QComboBox(this);  // in the order of CompareTarget::Kind
  mode_->addItem(tr("Each model's own translation"));
  mode_->addItem(tr("Common target: reference"));
  mode_->addItem(tr("Common target: output of"));
  reference_ = new QLineEdit(this);
  setTargetLanguage(tr("German"));
  commonModel_ = new QComboBox(this);
  // Shown once a subword model is in the grid: a word model has one view.
  words_ = new QCheckBox(tr("Words"), this);
  words_->setChecked(true);
  words_->setVisible(false);
  words_->setToolTip(
      tr("Subword models: a word's pieces merged (rows still sum to 1); untick for the pieces "
         "the model reads and emits"));
  showDifference_ = new QCheckBox(tr("Difference"), this);
  differenceA_ = new QComboBox(this);
  differenceB_ = new QComboBox(this);
  status_ = new QLabel(this);
  status_->setWordWrap(true);  // a long reference wraps instead of widening the window
  editsLabel_ = new QLabel(this);
  editsLabel_->setWordWrap(true);
  clearEdits_ = new QPushButton(tr("Clear edits"), this);
  clearEdits_->setToolTip(tr("Back to every model's own attention"));
  auto* editsRow = new QHBoxLayout;
  editsRow->addWidget(editsLabel_, 1);
  editsRow->addWidget(clearEdits_);

  auto* controls = new QHBoxLayout;
  controls->addWidget(mode_);
  controls->addWidget(commonModel_);
  controls->addWidget(reference_, 1);
  controls->addStretch();
  controls->addWidget(words_);
  controls->addWidget(showDifference_);
  controls->addWidget(differenceA_);
  controls->addWidget(new QLabel(QStringLiteral("−"), this));
  controls->addWidget(differenceB_);
  for (QComboBox* box : {mode_, commonModel_, differenceA_, differenceB_})
    box->setSizeAdjustPolicy(QComboBox::AdjustToContents);

  grid_ = new HeatmapGrid(this);
  difference_ = new HeatmapPlot(this);
  difference_->setGradient(divergingColormap());
  difference_->setVisible(false);
  grid_->setTrailingPlot(difference_);  // a plot of the grid's size, after the models
  // A small window gets fewer columns and scrolls down the rows, rather than squeezing plots.
  auto* scroll = new QScrollArea(this);
  scroll->setWidget(grid_);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(controls);
  layout->addLayout(editsRow);
  layout->addWidget(scroll, 1);
  layout->addWidget(status_);

  connect(clearEdits_, &QPushButton::clicked, this, [this] {
    setEdits({});
    Q_EMIT compareRequested();
  });
  setEdits({});
  connect(mode_, &QComboBox::currentIndexChanged, this, [this] {
    updateControls();
    Q_EMIT compareRequested();
  });
  connect(commonModel_, &QComboBox::currentIndexChanged, this, [this] {
    if (mode() == Kind::ModelOutput) Q_EMIT compareRequested();
  });
  connect(reference_, &QLineEdit::returnPressed, this, &CompareView::compareRequested);
  // What the user types is for the sentence compared next, whatever the last one was.
  connect(reference_, &QLineEdit::textEdited, this, [this] { referenceSentence_.clear(); });
  connect(words_, &QCheckBox::toggled, this, &CompareView::compareRequested);
  for (QComboBox* box : {differenceA_, differenceB_})
    connect(box, &QComboBox::currentIndexChanged, this, &CompareView::updateDifference);
  connect(showDifference_, &QCheckBox::toggled, this, &CompareView::updateDifference);
  // Ticked in a grid taller than the tab, the difference (its last plot) would appear below the
  // fold, as if the box did nothing: it is scrolled into view once laid out.
  connect(showDifference_, &QCheckBox::toggled, this, [this, scroll](bool on) {
    if (on)
      QTimer::singleShot(0, scroll, [this, scroll] {
        if (!difference_->isHidden()) scroll->ensureWidgetVisible(difference_, 0, 0);
      });
  });
  // The difference follows the grid's hover, and leads it.
  connect(difference_, &HeatmapPlot::cellHovered, grid_, &HeatmapGrid::highlightCell);
  connect(grid_, &HeatmapGrid::cellHighlighted, difference_, &HeatmapPlot::setHighlightedCell);
  updateControls();
}

void CompareView::setTargetLanguage(const QString& language) {
  targetLanguage_ = language;
  reference_->setPlaceholderText(tr("%1 reference translation, then Enter").arg(language));
}

void CompareView::setModels(const QStringList& keys) {
  models_ = keys;
  for (QComboBox* box : {commonModel_, differenceA_, differenceB_}) {
    const QSignalBlocker block(box);
    box->clear();
    box->addItems(keys);
  }
  if (keys.size() > 1) differenceB_->setCurrentIndex(1);
  const auto count = static_cast<int>(keys.size());
  grid_->setPlotCount(count, gridColumns(count));
  showEmpty(tr("Type a sentence and press Enter"));  // as a new heatmap says
}

void CompareView::showEmpty(const QString& emptyText) {
  QList<AttentionMatrix> titled;  // empty until the next result, but already named
  for (const QString& key : models_) {
    AttentionMatrix m;
    m.title = key;
    titled << m;
  }
  for (HeatmapPlot* plot : grid_->plots()) {
    plot->setEmptyText(emptyText);
    plot->setToolTip(QString());
  }
  grid_->setMatrices(titled);
}

void CompareView::setEdits(const CompareEdits& edits) {
  edits_ = edits;
  const bool any = !edits.edits.empty();
  editsLabel_->setVisible(any);
  clearEdits_->setVisible(any);
  if (!any) return;
  editsLabel_->setText(tr("<b>Attention edited</b> as in the Translation tab (%1, made on %2): "
                          "each plot shows its model's what-if; positions count %2's source "
                          "tokens.")
                           .arg(edits.description.toHtmlEscaped(), edits.madeOn.toHtmlEscaped()));
  setMode(Kind::OwnTranslations);  // edits decode greedily: each model's own translation
  Q_EMIT compareRequested();
}

QString CompareView::exportName() const {
  return edits_.edits.empty() ? QStringLiteral("compare") : QStringLiteral("compare-what-if");
}

void CompareView::clearEdits() {
  if (edits_.edits.empty()) return;
  setEdits({});
  if (isVisible()) Q_EMIT compareRequested();
}

void CompareView::updateControls() {
  reference_->setVisible(mode() == Kind::Reference);
  commonModel_->setVisible(mode() == Kind::ModelOutput);
  // A difference needs both heatmaps on the same axes.
  const bool commonTarget = mode() != Kind::OwnTranslations;
  // Greyed, the box is unticked (a ticked greyed box claims a difference that is not drawn);
  // back in a common-target mode, the user's choice returns.
  if (!commonTarget && showDifference_->isEnabled()) {
    differenceWanted_ = showDifference_->isChecked();
    showDifference_->setChecked(false);
  } else if (commonTarget && !showDifference_->isEnabled()) {
    showDifference_->setChecked(differenceWanted_);
  }
  showDifference_->setEnabled(commonTarget);
  differenceA_->setEnabled(commonTarget);
  differenceB_->setEnabled(commonTarget);
  updateDifference();
}

CompareTarget CompareView::target() const {
  CompareTarget t;
  t.kind = mode();
  t.text = reference_->text();
  t.modelKey = commonModel_->currentText();
  return t;
}

void CompareView::setResult(const CompareResult& result) {
  result_ = result;
  bool subwords = false;
  QList<AttentionMatrix> matrices;
  QStringList whatIfs;
  for (int i = 0; i < plots().size() && i < result.matrices.size(); ++i) {
    AttentionMatrix m = result.matrices[i];
    m.title = m.nameWithView(result.keys[i]);  // as the main view's title, says the view
    subwords = subwords || !m.view.isEmpty();
    QString tip = result.translations.value(i);
    if (i < result.whatIf.size()) {
      // The title names the what-if (elided to a plot's width); the status line has it whole,
      // its changed words marked, or why the edit does not fit this model.
      const bool fits = result.editFits.value(i);
      const QString line =
          fits ? tr("what if: %1").arg(result.translations.value(i)) : tr("edit does not fit");
      m.title +=
          QLatin1Char('\n') + plots()[i]->fontMetrics().elidedText(line, Qt::ElideRight, 260);
      tip = fits ? tr("What if: %1").arg(result.translations.value(i))
                 : tr("The edit does not fit: %1").arg(result.whatIf[i]);
      whatIfs << tr("<b>%1</b>: %2")
                     .arg(result.keys[i].toHtmlEscaped(),
                          fits ? result.whatIf[i]
                               : tr("<i>%1</i>").arg(result.whatIf[i].toHtmlEscaped()));
    }
    matrices << m;
    plots()[i]->setToolTip(tip);
  }
  words_->setVisible(subwords);
  grid_->setMatrices(matrices);
  resultStatus_ =
      !whatIfs.isEmpty()
          ? tr("Each heatmap shows its model's decoding with the edited attention; words that "
               "differ from the model's own translation are <b>bold red</b>, its words the edit "
               "dropped <s>struck through</s>.<br>%1")
                .arg(whatIfs.join(QStringLiteral("<br>")))
      : mode() == Kind::OwnTranslations
          ? tr("Each heatmap shows its model's own greedy translation.")
          : tr("All models forced to produce: %1").arg(result.translations.value(0));
  updateDifference();
}

void CompareView::updateDifference() {
  const bool wanted = showDifference_->isChecked() && mode() != Kind::OwnTranslations;
  const int a = differenceA_->currentIndex(), b = differenceB_->currentIndex();
  const bool available =
      wanted && a >= 0 && b >= 0 && a < result_.matrices.size() && b < result_.matrices.size();
  grid_->setTrailingPlotShown(available);
  status_->setText(resultStatus_);
  if (!available) return;
  try {
    AttentionMatrix first = result_.matrices[a], second = result_.matrices[b];
    first.title = result_.keys[a];
    second.title = result_.keys[b];
    const AttentionMatrix d = AttentionMatrix::difference(first, second);
    double largest = 0.0;
    for (const auto& row : d.weights)
      for (double w : row) largest = std::max(largest, std::abs(w));
    difference_->setDataRange(QCPRange(-std::max(largest, 1e-6), std::max(largest, 1e-6)));
    difference_->setMatrix(d);
  } catch (const std::invalid_argument&) {
    // Results from own-translation mode are still shown; or a subword model in pieces against
    // a word model in words.
    grid_->setTrailingPlotShown(false);
    status_->setText(resultStatus_ + QLatin1Char(' ') +
                     tr("No difference: %1 and %2 do not have the same rows and columns%3.")
                         .arg(result_.keys[a], result_.keys[b],
                              words_->isChecked() ? QString() : tr(" (tick Words)")));
  }
}

const QList<HeatmapPlot*>& CompareView::plots() const { return grid_->plots(); }

void CompareView::setGradient(const QCPColorGradient& gradient) { grid_->setGradient(gradient); }

void CompareView::setShowValues(bool show) {
  grid_->setShowValues(show);
  difference_->setShowValues(show);
}

void CompareView::setStatus(const QString& text) { status_->setText(text); }

void CompareView::setWorker(EngineWorker* worker) {
  worker_ = worker;
  connect(worker_, &EngineWorker::compareProgress, this,
          [this](quint64 generation, int done, int total) {
            if (generation == generation_)
              setStatus(tr("Decoding with %1 of %2 models…").arg(done).arg(total));
          });
  connect(worker_, &EngineWorker::compareReady, this,
          [this](quint64 generation, const CompareResult& result) {
            if (generation != generation_) return;
            setResult(result);
            Q_EMIT resultShown();
          });
}

void CompareView::compare(const QString& sentence) {
  if (worker_ == nullptr || sentence.trimmed().isEmpty() || plots().isEmpty()) return;
  // Edits count the tokens of the sentence they were made on.
  if (!edits_.edits.empty() && edits_.sentence.trimmed() != sentence.trimmed()) setEdits({});
  const CompareTarget common = target();
  if (common.kind == CompareTarget::Kind::Reference && common.text.trimmed().isEmpty()) {
    // Nothing to force yet: the maps of another target or sentence would pass for this one's.
    dropResult(tr("Type a reference\nfor this sentence"));
    setStatus(tr("Type a %1 reference above and press Enter.").arg(targetLanguage_));
    return;
  }
  if (common.kind == CompareTarget::Kind::Reference) {
    // A reference translates one sentence: forced onto another, every heatmap and the
    // difference would be meaningless.
    if (!referenceSentence_.isEmpty() && referenceSentence_ != sentence.trimmed()) {
      clearForNewSentence();
      return;
    }
    referenceSentence_ = sentence.trimmed();
  }
  generation_ = worker_->nextGeneration(EngineWorker::Channel::Compare);
  QMetaObject::invokeMethod(
      worker_,
      [w = worker_, g = generation_, keys = models_, sentence, common, words = showsWords(),
       edits = common.kind == Kind::OwnTranslations ? edits_ : CompareEdits()] {
        w->compare(g, keys, sentence, common, words, edits);
      },
      Qt::QueuedConnection);
}

void CompareView::clearForNewSentence() {
  const QString old = status_->fontMetrics().elidedText(referenceSentence_, Qt::ElideRight, 300);
  referenceSentence_.clear();
  reference_->clear();
  dropResult(tr("Type a reference\nfor this sentence"));
  setStatus(tr("New sentence: the reference typed for \"%1\" was cleared. Type the %2 "
               "reference of this sentence above and press Enter.")
                .arg(old, targetLanguage_));
}

void CompareView::dropResult(const QString& emptyText) {
  generation_ = worker_->nextGeneration(EngineWorker::Channel::Compare);  // older answers: obsolete
  result_ = CompareResult();
  resultStatus_.clear();
  showEmpty(emptyText);
  updateDifference();
}

QList<HeatmapPlot*> CompareView::exportedPlots() const {
  QList<HeatmapPlot*> plots = grid_->plots();
  if (!difference_->isHidden()) plots << difference_;
  return plots;
}

QSize CompareView::exportSize() const { return grid_->size(); }

QString CompareView::nothingToExport() const {
  for (const HeatmapPlot* plot : grid_->plots())
    if (!plot->matrix().isEmpty()) return {};
  return tr("Nothing to export yet: translate a sentence to fill the grid.");
}

void CompareView::exportTo(const QString& path, const ExportOptions& options) const {
  ExportOptions grid = options;
  grid.columns = 0;  // laid out for the picture's own size
  exportHeatmaps(exportedPlots(), path, grid);
}

}  // namespace attnscope::ui
