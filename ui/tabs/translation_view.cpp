#include "tabs/translation_view.h"

#include <attnscope/word_view.h>

#include <QCursor>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QSplitter>
#include <QToolTip>
#include <QVBoxLayout>

#include "core/copied_words.h"
#include "plots/heatmap_plot.h"
#include "widgets/attention_view_controls.h"
#include "widgets/step_panel.h"
#include "workers/decoding_controller.h"
#include "workers/model_list.h"

namespace attnscope::ui {

TranslationView::TranslationView(DecodingController* controller, const ModelList* models,
                                 QWidget* parent)
    : QWidget(parent), controller_(controller), models_(models) {
  heatmap_ = new HeatmapPlot(this);
  heatmap_->setFocusPolicy(Qt::StrongFocus);
  stepPanel_ = new StepPanel(this);
  beamList_ = new QListWidget(this);
  beamList_->setVisible(false);
  beamList_->setToolTip(tr("The final beam, best first: choose one to see its heatmap"));
  output_ = new QLabel(this);
  output_->setWordWrap(true);
  output_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
  output_->setTextFormat(Qt::RichText);
  QFont big = output_->font();
  big.setPointSizeF(big.pointSizeF() * 1.25);
  output_->setFont(big);
  // Copied words are links only to say where they came from when the mouse is on them.
  connect(output_, &QLabel::linkHovered, this, [this](const QString& link) {
    const QString note = copyNoteOfLink(shown_, link);
    if (note.isEmpty())
      QToolTip::hideText();
    else
      QToolTip::showText(QCursor::pos(), note, output_);
  });

  auto* side = new QWidget(this);
  auto* sideLayout = new QVBoxLayout(side);
  sideLayout->setContentsMargins(0, 0, 0, 0);
  sideLayout->addWidget(beamList_);
  sideLayout->addWidget(stepPanel_, 1);
  splitter_ = new QSplitter(this);
  splitter_->setObjectName(QStringLiteral("mainSplitter"));
  splitter_->addWidget(heatmap_);
  splitter_->addWidget(side);
  splitter_->setStretchFactor(0, 3);
  splitter_->setStretchFactor(1, 1);
  viewControls_ = new AttentionViewControls(this);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(output_);
  layout->addWidget(viewControls_);
  layout->addWidget(splitter_, 1);

  connect(viewControls_, &AttentionViewControls::changed, this, [this] {
    drawTranslation(shown_, shownKey_);
    if (beamHypotheses_.isEmpty())
      showSelectedStep();
    else
      heatmap_->setCurrentRow(-1);
    Q_EMIT updated();
  });
  connect(heatmap_, &HeatmapPlot::rowClicked, this, [this](int row) {
    controller_->setSelectedRow(heatmap_->matrix().lastStepOf(row));
    showSelectedStep();
  });
  connect(stepPanel_, &StepPanel::candidateChosen, this,
          [this](const QString& token) { controller_->force(controller_->shownRow(), token); });
  connect(beamList_, &QListWidget::currentRowChanged, this, &TranslationView::showHypothesis);
}

void TranslationView::showSnapshot() {
  const SessionSnapshot& snapshot = *controller_->snapshot();
  beamHypotheses_.clear();
  beamList_->clear();
  beamList_->setVisible(false);
  // While stepping, leave room for about as many rows as the source has, so rows keep their size.
  heatmap_->setReservedRows(
      snapshot.finished ? 0 : static_cast<int>(snapshot.translation.source.tokens.size()));
  forcedSteps_.clear();
  std::vector<bool> forced;
  for (size_t i = 0; i < snapshot.steps.size(); ++i) {
    forced.push_back(snapshot.steps[i].forced);
    if (snapshot.steps[i].forced) forcedSteps_ << static_cast<int>(i);
  }
  drawTranslation(snapshot.translation, snapshot.modelKey);
  QString text = translationHtml(snapshot.translation, forced);
  if (!snapshot.finished) text += QStringLiteral(" <span style='color:gray'>…</span>");
  if (!forcedSteps_.isEmpty())
    text += tr("<br><i>Words in <span style='color:%1; font-weight:bold'>bold colour</span> "
               "were forced by you (marked \"forced\" in the heatmap); Reset (Home) returns to "
               "the model's own decoding</i>")
                .arg(QLatin1String(kForcedColour));
  if (snapshot.translation.source.truncated)
    text += tr("<br><i>The sentence has %1 words; the model reads the first %2.</i>")
                .arg(snapshot.translation.source.original_length)
                .arg(snapshot.translation.source.tokens.size() - 1);
  if (!snapshot.translation.source.unknown_words.empty()) {
    QStringList unknown;
    for (const auto& w : snapshot.translation.source.unknown_words)
      unknown << QString::fromStdString(w);
    text += tr("<br><i>Unknown words (read as &lt;unk&gt;): %1</i>")
                .arg(unknown.join(", ").toHtmlEscaped());
    if (!snapshot.translation.copied.empty())
      text += tr("<br><i>Where the model wrote &lt;unk&gt;, the source word its attention weighs "
                 "most is copied (<span style='color:%1'>blue</span>, framed in the heatmap)</i>")
                  .arg(QLatin1String(kCopiedColour));
  }
  output_->setText(text);
  showSelectedStep();
  const auto steps = snapshot.steps.size();
  const QString count = steps == 1 ? tr("1 step") : tr("%1 steps").arg(steps);
  Q_EMIT statusMessage(
      tr("%1: %2%3")
          .arg(snapshot.modelKey, count, snapshot.finished ? tr(", finished") : QString()),
      4000);
  Q_EMIT updated();
}

void TranslationView::drawTranslation(const Translation& t, const QString& modelKey) {
  shown_ = t;
  shownKey_ = modelKey;
  // The model's info says what there is to choose (known before any of its results arrive);
  // the translation only when there is none.
  const ModelInfo* info = models_->info(modelKey);
  ModelInfo model = info != nullptr ? *info : ModelInfo{};
  if (info == nullptr) {
    model.attention_layers = t.layers();
    model.attention_heads = t.heads();
    model.subword_marker = t.subword_marker;
  }
  viewControls_->adaptTo(model);
  heatmap_->setMatrix(
      AttentionMatrix::fromTranslation(t, viewControls_->describe(), viewControls_->view()));
  QVector<int> forcedRows;
  for (int step : forcedSteps_) forcedRows << heatmap_->matrix().rowOf(step);
  heatmap_->setForcedRows(forcedRows);
  Q_EMIT translationDrawn();
}

void TranslationView::showSelectedStep() {
  const int row = controller_->shownRow();
  heatmap_->setCurrentRow(heatmap_->matrix().rowOf(row));
  if (row < 0) {
    stepPanel_->showStep(nullptr, 0, {});
    return;
  }
  const SessionSnapshot& session = *controller_->snapshot();
  const Translation& t = session.translation;
  const QString marker = QString::fromStdString(t.subword_marker);
  // The bars show what the heatmap shows: its layer and head, over its words or pieces.
  Step step = session.steps[row];
  const AttentionView view = viewControls_->view();
  if (view.choice.layer >= 0 && !step.heads.empty()) {
    step.attention = step.heads.row(view.choice.layer, view.choice.head);
    step.entropy = attention_entropy(step.attention);
  }
  const bool words = view.words && !marker.isEmpty();
  QStringList labels;
  if (words && !step.attention.empty()) {
    // A source word's pieces summed, as in the heatmap's columns.
    const WordView merged =
        word_view(t.source.tokens, {step.token}, {step.attention}, t.subword_marker, t.end_token);
    for (const auto& word : merged.source_words) labels << QString::fromStdString(word);
    step.attention = merged.weights.at(0);
    step.entropy = attention_entropy(step.attention);
  } else {
    for (size_t i = 0; i < t.source.tokens.size(); ++i)
      labels << StepPanel::pieceText(QString::fromStdString(t.source.tokens[i]), marker, false,
                                     i == 0);
  }
  stepPanel_->showStep(&step, row, labels, marker, words);
}

void TranslationView::showBeam(const QList<Translation>& hypotheses, const QString& modelKey) {
  if (hypotheses.isEmpty()) return;
  beamHypotheses_ = hypotheses;
  beamKey_ = modelKey;
  const QSignalBlocker block(beamList_);
  beamList_->clear();
  for (const Translation& t : hypotheses)
    beamList_->addItem(
        QStringLiteral("%1   (%2)")
            .arg(QString::fromStdString(t.text()), QString::number(t.score, 'f', 3)));
  beamList_->setVisible(true);
  beamList_->setCurrentRow(0);
  showHypothesis(0);
}

void TranslationView::showHypothesis(int index) {
  if (index < 0 || index >= beamHypotheses_.size()) return;
  const Translation& t = beamHypotheses_[index];
  forcedSteps_.clear();
  heatmap_->setReservedRows(0);
  drawTranslation(t, beamKey_);
  heatmap_->setCurrentRow(-1);
  output_->setText(tr("%1 <span style='color:gray'>(beam %2, hypothesis %3, score %4)</span>")
                       .arg(translationHtml(t), QString::number(beamHypotheses_.size()),
                            QString::number(index + 1), QString::number(t.score, 'f', 3)));
  stepPanel_->showStep(nullptr, 0, {});
  Q_EMIT updated();
}

void TranslationView::showAttentionFile(const AttentionFile& file, const QString& path,
                                        size_t line) {
  beamHypotheses_.clear();
  beamList_->clear();
  beamList_->setVisible(false);
  heatmap_->setReservedRows(0);
  forcedSteps_.clear();
  viewControls_->adaptTo(ModelInfo{});  // a file's one matrix: no layers, heads or pieces
  heatmap_->setMatrix(AttentionMatrix::fromAttentionFile(file));
  heatmap_->setCurrentRow(-1);
  stepPanel_->showStep(nullptr, 0, {});
  QStringList target;
  for (const auto& token : file.target_tokens) target << QString::fromStdString(token);
  const QString lineText = line > 1 ? tr(", line %1").arg(line) : QString();
  output_->setText(tr("%1 <span style='color:gray'>(%2: %3%4)</span>")
                       .arg(target.join(QLatin1Char(' ')).toHtmlEscaped(),
                            QString::fromStdString(file.format),
                            QFileInfo(path).fileName().toHtmlEscaped(), lineText));
  Q_EMIT updated();
}

void TranslationView::clear() {
  forcedSteps_.clear();
  heatmap_->setMatrix({});
  output_->clear();
  stepPanel_->showStep(nullptr, 0, {});
  Q_EMIT updated();
}

QSize TranslationView::exportSize() const { return heatmap_->size(); }

QString TranslationView::nothingToExport() const {
  return heatmap_->matrix().isEmpty() ? tr("Nothing to export yet: translate a sentence first.")
                                      : QString();
}

void TranslationView::exportTo(const QString& path, const ExportOptions& options) const {
  exportHeatmaps({heatmap_}, path, options);
}

}  // namespace attnscope::ui
