#include "tabs/translation_view.h"

#include <attnscope/word_view.h>

#include <QAction>
#include <QApplication>
#include <QCursor>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QRandomGenerator>
#include <QScrollArea>
#include <QSplitter>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <stdexcept>

#include "core/attribution_matrix.h"
#include "core/copied_words.h"
#include "core/model_info_text.h"
#include "core/score_text.h"
#include "core/what_if_text.h"
#include "plots/beam_tree_plot.h"
#include "plots/colormaps.h"
#include "plots/heatmap_plot.h"
#include "widgets/attention_view_controls.h"
#include "widgets/beam_view.h"
#include "widgets/shown_values_box.h"
#include "widgets/step_panel.h"
#include "widgets/weights_dialog.h"
#include "workers/decoding_controller.h"
#include "workers/explanation_controller.h"
#include "workers/model_list.h"

namespace attnscope::ui {
namespace {
// How long the Show box's choice must stay before its attribution is asked for: longer than
// a key's auto-repeat (~30 ms) or a deliberate press after press, short enough not to be felt.
constexpr int kAttributionSettleMs = 250;
}  // namespace

TranslationView::TranslationView(DecodingController* controller, const ModelList* models,
                                 QWidget* parent)
    : QWidget(parent), controller_(controller), models_(models) {
  explanation_ = new ExplanationController(controller_->worker(), this);
  gradient_ = colormap(QStringLiteral("viridis"));
  heatmap_ = new HeatmapPlot(this);
  heatmap_->setFocusPolicy(Qt::StrongFocus);
  attributionPlot_ = new HeatmapPlot(this);
  attributionPlot_->setObjectName(QStringLiteral("attributionPlot"));
  attributionPlot_->setVisible(false);
  stepPanel_ = new StepPanel(this);
  beamList_ = new QListWidget(this);
  beamList_->setVisible(false);
  beamList_->setToolTip(tr("The final beam, best first: choose one to see its heatmap"));
  // Hypotheses often differ only at their end: wrapped whole, never cut at the list's edge.
  beamList_->setWordWrap(true);
  beamList_->setResizeMode(QListView::Adjust);
  beamList_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  output_ = new QLabel(this);
  output_->setWordWrap(true);
  output_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
  output_->setTextFormat(Qt::RichText);
  QFont big = output_->font();
  big.setPointSizeF(big.pointSizeF() * 1.25);
  output_->setFont(big);
  // Copied words and kept "<unk>"s are links only to say where they came from, or why they
  // stayed, when the mouse is on them.
  connect(output_, &QLabel::linkHovered, this, [this](const QString& link) {
    const QString note = unknownWordNoteOfLink(shown_, link);
    if (note.isEmpty())
      QToolTip::hideText();
    else
      QToolTip::showText(QCursor::pos(), note, output_);
  });

  // The what-if line, under the translation while there are attention edits.
  whatIf_ = new QLabel(this);
  whatIf_->setObjectName(QStringLiteral("whatIfLabel"));
  whatIf_->setWordWrap(true);
  whatIf_->setTextFormat(Qt::RichText);
  whatIf_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  whatIf_->setFont(big);
  whatIf_->setToolTip(
      tr("What the model writes with the attention you edited: words that differ from its own "
         "translation are bold red, its words the edit dropped struck through"));
  resetEditsAction_ = new QAction(tr("Reset attention &edits"), this);
  resetEditsAction_->setObjectName(QStringLiteral("resetEditsAction"));
  resetEditsAction_->setShortcut(QKeySequence(tr("Ctrl+Shift+R")));
  resetEditsAction_->setToolTip(
      tr("Back to the model's own attention (%1)")
          .arg(resetEditsAction_->shortcut().toString(QKeySequence::NativeText)));
  // Always enabled, as every menu shortcut: without edits it says so.
  connect(resetEditsAction_, &QAction::triggered, this, [this] {
    if (!explanation_->hasEdits())
      Q_EMIT statusMessage(tr("No attention edits to reset: drag a bar of the step panel's "
                              "attention, or right-click it, to edit one"),
                           4000);
    explanation_->resetEdits();
    Q_EMIT editsReset();
  });
  resetEdits_ = new QPushButton(tr("Reset edits"), this);
  resetEdits_->setToolTip(resetEditsAction_->toolTip());
  connect(resetEdits_, &QPushButton::clicked, resetEditsAction_, &QAction::trigger);
  compareEdits_ = new QPushButton(tr("Try on every model"), this);
  compareEdits_->setToolTip(
      tr("The same edits on every score function, in Compare all: each plot's title gives its "
         "what-if"));
  connect(compareEdits_, &QPushButton::clicked, this, [this] {
    const SessionSnapshot* snapshot = controller_->snapshot() ? &*controller_->snapshot() : nullptr;
    if (snapshot == nullptr || !explanation_->hasEdits()) return;
    CompareEdits edits;
    edits.edits = explanation_->editList();
    edits.sourceTokens = snapshot->translation.source.tokens;
    edits.madeOn = snapshot->modelKey;
    edits.sentence = controller_->sentence();
    QStringList tokens, parts;
    for (const auto& token : edits.sourceTokens) tokens << QString::fromStdString(token);
    for (const AttentionEdit& edit : edits.edits) parts << editDescription(edit, tokens);
    edits.description = parts.join(QStringLiteral("; "));
    Q_EMIT compareEditsRequested(edits);
  });
  whatIfRow_ = new QWidget(this);
  auto* whatIfLayout = new QHBoxLayout(whatIfRow_);
  whatIfLayout->setContentsMargins(0, 0, 0, 0);
  whatIfLayout->addWidget(whatIf_, 1);
  whatIfLayout->addWidget(compareEdits_);
  whatIfLayout->addWidget(resetEdits_);
  whatIfRow_->setVisible(false);
  // A refused edit's reason, one line under the what-if it leaves as it was.
  editError_ = new QLabel(this);
  editError_->setObjectName(QStringLiteral("editErrorLabel"));
  editError_->setStyleSheet(QStringLiteral("color: %1").arg(QLatin1String(kEditedColour)));
  editError_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
  editError_->setVisible(false);
  note_ = new QLabel(this);
  note_->setWordWrap(true);
  note_->setVisible(false);

  auto* side = new QWidget(this);
  auto* sideLayout = new QVBoxLayout(side);
  sideLayout->setContentsMargins(0, 0, 0, 0);
  sideLayout->addWidget(beamList_);
  // A short window scrolls the step panel (candidates, two bar charts, their labels) rather
  // than squeezing its parts over each other or making the window taller than the screen.
  auto* stepScroll = new QScrollArea(side);
  stepScroll->setObjectName(QStringLiteral("stepPanelScroll"));
  stepScroll->setWidget(stepPanel_);
  stepScroll->setWidgetResizable(true);
  stepScroll->setFrameShape(QFrame::NoFrame);
  stepScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  sideLayout->addWidget(stepScroll, 1);
  // The two heatmaps share the left of the splitter: attention | attribution.
  auto* plots = new QWidget(this);
  auto* plotsLayout = new QHBoxLayout(plots);
  plotsLayout->setContentsMargins(0, 0, 0, 0);
  plotsLayout->addWidget(heatmap_, 1);
  plotsLayout->addWidget(attributionPlot_, 1);
  splitter_ = new QSplitter(this);
  splitter_->setObjectName(QStringLiteral("mainSplitter"));
  splitter_->addWidget(plots);
  splitter_->addWidget(side);
  splitter_->setStretchFactor(0, 3);
  splitter_->setStretchFactor(1, 1);
  viewControls_ = new AttentionViewControls(this);
  shownValues_ = new ShownValuesBox(this);
  auto* controls = new QHBoxLayout;
  controls->addWidget(shownValues_);
  controls->addSpacing(16);
  controls->addWidget(viewControls_);
  controls->addStretch();
  // The beam tree under the heatmap and the step panel, while a beam search is shown.
  beamView_ = new BeamView(controller_->worker(), this);
  beamSplitter_ = new QSplitter(Qt::Vertical, this);
  beamSplitter_->setObjectName(QStringLiteral("beamSplitter"));
  beamSplitter_->addWidget(splitter_);
  beamSplitter_->addWidget(beamView_);
  beamSplitter_->setStretchFactor(0, 1);
  beamSplitter_->setStretchFactor(1, 1);
  beamView_->installEventFilter(this);
  connect(beamSplitter_, &QSplitter::splitterMoved, this, [this] {
    const QList<int> sizes = beamSplitter_->sizes();
    const int total = sizes.value(0) + sizes.value(1);
    if (total > 0 && beamView_->isVisible()) beamShare_ = double(sizes.value(1)) / total;
  });
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(output_);
  layout->addWidget(whatIfRow_);
  layout->addWidget(editError_);
  layout->addWidget(note_);
  layout->addLayout(controls);
  layout->addWidget(beamSplitter_, 1);
  connect(beamView_, &BeamView::hypothesisShown, this, &TranslationView::showBeamNode);
  connect(beamView_, &BeamView::finalBeamArrived, this, &TranslationView::showBeam);

  const auto redraw = [this] {
    // A beam node's step in view stays in view (a step, not a row: the view may change the rows).
    const int beamStep = beamNodeShown_ && heatmap_->currentRow() >= 0
                             ? heatmap_->matrix().lastStepOf(heatmap_->currentRow())
                             : -1;
    drawTranslation(shown_, shownKey_);
    if (beamHypotheses_.isEmpty())
      showSelectedStep();
    else if (!showBeamNodeStep(beamStep))
      heatmap_->setCurrentRow(-1);
    Q_EMIT updated();
  };
  connect(viewControls_, &AttentionViewControls::changed, this, redraw);
  // Arrowing through the Show box draws each choice at once but asks for an attribution only
  // once the choice settles: each would start a computation of seconds.
  attributionSettle_ = new QTimer(this);
  attributionSettle_->setSingleShot(true);
  attributionSettle_->setInterval(kAttributionSettleMs);
  connect(shownValues_, &ShownValuesBox::changed, this, [this, redraw] {
    holdAttribution_ = true;
    redraw();
    holdAttribution_ = false;
    attributionSettle_->start();
  });
  connect(attributionSettle_, &QTimer::timeout, this, [this] {
    if (const auto request = attributionRequest()) explanation_->requestAttribution(*request);
  });
  connect(explanation_, &ExplanationController::attributionChanged, this, [this] {
    drawPlots();
    if (sessionShown_) showSelectedStep();
    Q_EMIT updated();
  });
  connect(explanation_, &ExplanationController::editsChanged, this, [this] {
    showWhatIf();
    markRows();
    if (sessionShown_) showSelectedStep();
    Q_EMIT updated();
  });
  connect(explanation_, &ExplanationController::supportChanged, this, [this](const QString& key) {
    if (key != shownKey_) return;
    shownValues_->setSupport(explanation_->support(key)->methods);
    drawPlots();
    if (sessionShown_) showSelectedStep();
  });
  for (HeatmapPlot* plot : {heatmap_, attributionPlot_})
    connect(plot, &HeatmapPlot::rowClicked, this, [this, plot](int row) {
      if (beamNodeShown_) {  // a step of the beam node's path, as the tree has it
        showBeamNodeStep(plot->matrix().lastStepOf(row));
        return;
      }
      controller_->setSelectedRow(plot->matrix().lastStepOf(row));
      showSelectedStep();
    });
  // Side by side, a cell hovered in one is outlined in the other.
  connect(heatmap_, &HeatmapPlot::cellHovered, attributionPlot_, &HeatmapPlot::setHighlightedCell);
  connect(attributionPlot_, &HeatmapPlot::cellHovered, heatmap_, &HeatmapPlot::setHighlightedCell);
  connect(stepPanel_, &StepPanel::candidateChosen, this, [this](const QString& token) {
    // A beam node's candidates are its siblings in the tree: choosing one goes there.
    if (beamNodeShown_)
      beamView_->selectSibling(heatmap_->matrix().lastStepOf(heatmap_->currentRow()), token);
    else
      controller_->force(controller_->shownRow(), token);
  });
  connect(stepPanel_->bars(), &AttentionBars::rowDragged, this,
          [this](int, const std::vector<float>& bars) {
            AttentionEdit edit;
            edit.step = controller_->shownRow();
            edit.kind = AttentionEdit::Kind::kWeights;
            edit.weights = toSourceTokens(bars);
            setShownEdit(edit);
          });
  connect(stepPanel_->bars(), &AttentionBars::editChosen, this, &TranslationView::editShownStep);
  connect(beamList_, &QListWidget::currentRowChanged, this, &TranslationView::showHypothesis);
}

void TranslationView::setGradient(const QCPColorGradient& gradient) {
  gradient_ = gradient;
  beamView_->setGradient(gradient);
  drawPlots();
}

void TranslationView::setShowValues(bool show) {
  showValues_ = show;
  heatmap_->setShowValues(show);
  attributionPlot_->setShowValues(show);
}

QString TranslationView::truncationNote(const SourceText& source) {
  // Every way a translation is shown says so: greedy decoding, a beam hypothesis, a tree node.
  if (!source.truncated) return {};
  return tr("<br><i>The sentence has %1 words; the model reads the first %2.</i>")
      .arg(source.original_length)
      .arg(source.kept_length);
}

void TranslationView::setOutputText(const QString& text, const QString& session) {
  if (session.isEmpty() || session != outputSession_) output_->setMinimumHeight(0);
  outputSession_ = session;
  output_->setText(text);
  if (!session.isEmpty())
    output_->setMinimumHeight(
        std::max(output_->minimumHeight(), output_->heightForWidth(output_->width())));
}

void TranslationView::showSnapshot() {
  const SessionSnapshot& snapshot = *controller_->snapshot();
  sessionShown_ = true;
  fileShown_ = false;
  beamNodeShown_ = false;
  stepPanel_->setBeamNodeCandidates(false);
  if (beamView_->isActive()) beamView_->clear();  // greedy decoding has no tree
  shownValues_->setEnabled(true);
  explanation_->setSession(snapshot.modelKey, controller_->sentence(), controller_->forced());
  beamHypotheses_.clear();
  beamList_->clear();
  beamList_->setVisible(false);
  // While stepping, leave room for about as many rows as the source has, so rows keep their size;
  // at the last step too, once this session was stepped (the rows grew there, a jump).
  const QString session = snapshot.modelKey + QLatin1Char('\n') + controller_->sentence();
  if (!snapshot.finished) steppedSession_ = session;
  const int reserved =
      steppedSession_ == session ? static_cast<int>(snapshot.translation.source.tokens.size()) : 0;
  heatmap_->setReservedRows(reserved);
  attributionPlot_->setReservedRows(reserved);
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
  text += truncationNote(snapshot.translation.source);
  if (const SourceText& source = snapshot.translation.source; !source.unknown_words.empty()) {
    // As typed ("Zürich", as copying writes it), each once; the model's lowercase words when
    // the source has no typed tokens.
    QStringList unknown;
    for (size_t i = 0; i < source.unknown.size() && i < source.typed.size(); ++i) {
      const QString word = QString::fromStdString(source.typed[i]);
      if (source.unknown[i] && !unknown.contains(word)) unknown << word;
    }
    if (unknown.isEmpty())
      for (const auto& w : source.unknown_words) unknown << QString::fromStdString(w);
    text += tr("<br><i>Unknown words (read as &lt;unk&gt;): %1</i>")
                .arg(unknown.join(", ").toHtmlEscaped());
    if (!snapshot.translation.copied.empty())
      text += tr("<br><i>Where the model wrote &lt;unk&gt; and its attention weighs an unknown "
                 "name or number most, that word is copied (<span style='color:%1'>blue</span>, "
                 "framed in "
                 "the heatmap)</i>")
                  .arg(QLatin1String(kCopiedColour));
  }
  if (!snapshot.translation.kept_unknown.empty())
    text += tr("<br><i>A <span style='color:%1'>grey</span> &lt;unk&gt; was left where no "
               "unknown name or number could be copied (point at it for why)</i>")
                .arg(QLatin1String(kKeptUnknownColour));
  // Within a session the lines above the heatmap only grow: stepping back and forth, a line
  // that came and went (a wrapped translation, a note) moved the heatmap at every step.
  setOutputText(text, session);
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
  if (modelKey != shownKey_) {
    const ExplainSupport* support = explanation_->support(modelKey);
    shownValues_->setSupport(support != nullptr ? support->methods : QMap<int, QString>());
  }
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
  if (!holdAttribution_)
    if (const auto request = attributionRequest()) explanation_->requestAttribution(*request);
  drawPlots();
  Q_EMIT translationDrawn();
}

std::optional<AttributionRequest> TranslationView::attributionRequest() const {
  const auto method = shownValues_->method();
  if (!method || !sessionShown_ || !controller_->snapshot()) return std::nullopt;
  if (!shownValues_->isOffered(*method)) return std::nullopt;
  AttributionRequest request;
  request.modelKey = controller_->snapshot()->modelKey;
  request.sentence = controller_->sentence();
  request.forced = controller_->forced();
  request.method = *method;
  return request;
}

QString TranslationView::whyNotAttributable() const {
  if (sessionShown_) return {};
  if (fileShown_) return tr("An attention file has no model to attribute its output to");
  if (!beamHypotheses_.isEmpty())
    return tr("Attributions explain greedy decoding: choose Greedy to see them");
  return {};
}

std::optional<AttributionMethod> TranslationView::shownAttribution() const {
  const auto method = shownValues_->method();
  if (method && whyNotAttributable().isEmpty()) return method;
  return std::nullopt;
}

bool TranslationView::showsBeside() const {
  return shownValues_->sideBySide() && shownAttribution().has_value();
}

void TranslationView::drawPlots() {
  // A beam's hypothesis or an attention file has no attribution: its attention stays in view,
  // alone (also with Beside attention ticked), with a note why, rather than an empty plot the
  // user has to switch away from.
  const QString notAttributable = shownValues_->method() ? whyNotAttributable() : QString();
  const auto method = shownAttribution();
  const bool beside = method && shownValues_->sideBySide();
  if (!method || beside) {
    AttentionMatrix attention =
        AttentionMatrix::fromTranslation(shown_, viewControls_->describe(), viewControls_->view());
    // Beside an attribution, each plot says what it is.
    if (method)
      attention.title =
          attention.title.isEmpty() ? tr("attention") : tr("attention · %1").arg(attention.title);
    heatmap_->setSigned(false);
    heatmap_->setGradient(gradient_);
    heatmap_->setValueName(tr("weight"));
    heatmap_->setNoValueText({});
    heatmap_->setMatrix(attention);
  }
  if (method) drawAttribution(beside ? attributionPlot_ : heatmap_, *method);
  attributionPlot_->setVisible(beside);
  // The `none` baseline has no attention but has attributions: say which the heatmap shows.
  const bool noAttention = sessionShown_ && !shown_.has_attention && !shown_.tokens.empty();
  note_->setVisible((noAttention && method.has_value()) || !notAttributable.isEmpty());
  if (!notAttributable.isEmpty())
    note_->setText(tr("<i>%1; the heatmap shows attention.</i>").arg(notAttributable));
  else if (method)
    note_->setText(tr("<i>This model has no attention; %1 shows what its output depends on "
                      "all the same.</i>")
                       .arg(QString::fromStdString(attribution_method_title(*method))));
  markRows();
}

void TranslationView::drawAttribution(HeatmapPlot* plot, AttributionMethod method) {
  const bool signedValues = isSignedMethod(method);
  plot->setSigned(signedValues);
  plot->setGradient(signedValues ? divergingColormap() : gradient_);
  plot->setValueName(attributionValueName(method));
  plot->setNoValueText(noValueReason(method));
  const QString title = QString::fromStdString(attribution_method_title(method));
  AttentionMatrix empty;
  empty.title = title;
  const auto request = attributionRequest();
  if (!sessionShown_) {
    const QString why = whyNotAttributable();
    plot->setEmptyText(why.isEmpty() ? emptyHeatmapText() : why);
  } else if (const QString why = shownValues_->unsupportedReason(method); !why.isEmpty()) {
    plot->setEmptyText(tr("Not for this model:\n%1").arg(why));
  } else if (request && explanation_->answers(*request)) {
    const AttributionResult& result = *explanation_->attribution();
    if (result.error.isEmpty()) {
      plot->setMatrix(attributionMatrix(result.attribution, static_cast<int>(shown_.tokens.size()),
                                        viewControls_->view(), result.refining));
      return;
    }
    plot->setEmptyText(tr("No %1:\n%2").arg(title, result.error));
  } else {
    plot->setEmptyText(tr("Computing %1…").arg(title));
  }
  plot->setMatrix(empty);
}

void TranslationView::markRows() {
  for (HeatmapPlot* plot : {heatmap_, attributionPlot_}) {
    QVector<int> forcedRows, editedRows;
    for (int step : forcedSteps_) forcedRows << plot->matrix().rowOf(step);
    if (sessionShown_)
      for (const auto& [step, edit] : explanation_->edits())
        if (step >= 0 && step < static_cast<int>(shown_.tokens.size()))
          editedRows << plot->matrix().rowOf(step);
    plot->setForcedRows(forcedRows);
    plot->setEditedRows(editedRows);
  }
}

QString TranslationView::whyNotEditable() const {
  if (!sessionShown_) return tr("Editing works on greedy decoding, step by step");
  if (!shown_.has_attention)
    return tr("No attention to edit: this model reads one fixed context at every step");
  if (const ExplainSupport* support = explanation_->support(shownKey_);
      support != nullptr && !support->editing.isEmpty())
    return support->editing;
  const AttentionView view = viewControls_->view();
  const bool ownRow = view.choice.layer < 0 ||
                      (view.choice.layer == viewControls_->layers() - 1 && view.choice.head < 0);
  if (!ownRow)
    return tr("The decoder reads the mean of the last layer's heads: choose that to edit it");
  return {};
}

void TranslationView::showSelectedStep() {
  const int row = controller_->shownRow();
  heatmap_->setCurrentRow(heatmap_->matrix().rowOf(row));
  attributionPlot_->setCurrentRow(attributionPlot_->matrix().rowOf(row));
  const QString whyNot = whyNotEditable();
  stepPanel_->bars()->setEditable(whyNot.isEmpty() && row >= 0, whyNot);
  stepPanel_->bars()->setOriginalRow({});
  stepPanel_->setAttentionEdited(false);
  if (row < 0) {
    stepPanel_->showStep(nullptr, 0, {});
    stepPanel_->showAttribution({}, {}, {}, false, {});
    return;
  }
  const SessionSnapshot& session = *controller_->snapshot();
  const Translation& t = session.translation;
  Step step = inShownHead(session.steps[row]);
  const bool words = barsInWords(t);
  const QStringList labels = barLabels(t, step, words);
  const std::vector<float> own = step.attention;
  step.attention = inBars(t, step, own, words);
  const std::vector<float> ownInLabels = step.attention;
  bool edited = false;
  if (const auto edit = explanation_->edits().find(row); edit != explanation_->edits().end()) {
    try {
      // The bars, and the entropy, of the row the what-if read at this step.
      step.attention = inBars(t, step, edit->second.apply(own), words);
      edited = true;
    } catch (const std::invalid_argument&) {
      // An edit that does not fit the row: the what-if line gives the engine's reason.
    }
  }
  step.entropy = attention_entropy(step.attention);
  stepPanel_->showStep(&step, row, labels, QString::fromStdString(t.subword_marker), words);
  if (edited) {
    stepPanel_->bars()->setOriginalRow(ownInLabels);
    stepPanel_->setAttentionEdited(true);
  }
  showStepAttribution(row, labels, words);
}

Step TranslationView::inShownHead(Step step) const {
  // The bars show what the heatmap shows: its layer and head.
  const AttentionView view = viewControls_->view();
  if (view.choice.layer >= 0 && !step.heads.empty()) {
    step.attention = step.heads.row(view.choice.layer, view.choice.head);
    step.entropy = attention_entropy(step.attention);
  }
  return step;
}

bool TranslationView::barsInWords(const Translation& t) const {
  return viewControls_->view().words && !t.subword_marker.empty();
}

QStringList TranslationView::barLabels(const Translation& t, const Step& step, bool words) const {
  QStringList labels;
  if (words && !step.attention.empty()) {
    const WordView merged =
        word_view(t.source.tokens, {step.token}, {step.attention}, t.subword_marker, t.end_token);
    for (const auto& word : merged.source_words) labels << QString::fromStdString(word);
  } else {
    const QString marker = QString::fromStdString(t.subword_marker);
    for (size_t i = 0; i < t.source.tokens.size(); ++i)
      labels << StepPanel::pieceText(QString::fromStdString(t.source.tokens[i]), marker, false,
                                     i == 0);
  }
  return labels;
}

std::vector<float> TranslationView::inBars(const Translation& t, const Step& step,
                                           const std::vector<float>& row, bool words) const {
  // A source word's pieces summed, as in the heatmap's columns.
  if (!words || row.empty()) return row;
  return word_view(t.source.tokens, {step.token}, {row}, t.subword_marker, t.end_token)
      .weights.at(0);
}

void TranslationView::showStepAttribution(int row, const QStringList& labels, bool words) {
  const auto method = shownValues_->method();
  if (!method) {
    stepPanel_->showAttribution({}, {}, {}, false, {});
    return;
  }
  const QString title = QString::fromStdString(attribution_method_title(*method));
  const bool signedValues = isSignedMethod(*method);
  const QString valueName = attributionValueName(*method);
  const auto request = attributionRequest();
  const QString note = [&]() -> QString {
    // A beam's hypothesis or an attention file has none, as the note line says.
    if (QString why = whyNotAttributable(); !why.isEmpty()) return why;
    if (QString why = shownValues_->unsupportedReason(*method); !why.isEmpty())
      return tr("not for this model (%1)").arg(why);
    if (!request || !explanation_->answers(*request)) return tr("computing…");
    return explanation_->attribution()->error;
  }();
  if (!note.isEmpty()) {
    stepPanel_->showAttribution(title, {}, {}, signedValues, valueName, note);
    return;
  }
  const Attribution& a = explanation_->attribution()->attribution;
  QStringList shown = labels;
  std::vector<float> values = attributionRow(a, row, words);
  // Without attention (the baseline) the labels come from the attribution itself.
  if (shown.size() != static_cast<int>(values.size())) {
    shown.clear();
    const AttentionMatrix m = attributionMatrix(a, row + 1, viewControls_->view());
    shown = m.sourceTokens;
  }
  stepPanel_->showAttribution(title, shown, values, signedValues, valueName, {},
                              completenessText(a, row));
}

std::vector<float> TranslationView::toSourceTokens(const std::vector<float>& bars) const {
  const SessionSnapshot& session = *controller_->snapshot();
  const Translation& t = session.translation;
  const bool words = viewControls_->view().words && !t.subword_marker.empty();
  if (!words) return bars;
  // A word's new weight shared among its pieces as the model's own row shares it. A drag can
  // end after a new snapshot with fewer steps arrived: then there is no row to share by.
  const int row = controller_->shownRow();
  if (row < 0 || row >= static_cast<int>(session.steps.size())) return {};
  const std::vector<float>& own = session.steps[static_cast<size_t>(row)].attention;
  const auto weight = [&own](int p) { return p < static_cast<int>(own.size()) ? own[p] : 0.0f; };
  const auto groups = word_groups(t.source.tokens, t.subword_marker, t.end_token);
  std::vector<float> pieces(t.source.tokens.size(), 0.0f);
  for (size_t w = 0; w < groups.size() && w < bars.size(); ++w) {
    double total = 0.0;
    for (int p : groups[w]) total += weight(p);
    for (int p : groups[w])
      if (p < static_cast<int>(pieces.size()))
        pieces[p] = static_cast<float>(total > 0 ? bars[w] * weight(p) / total
                                                 : bars[w] / static_cast<double>(groups[w].size()));
  }
  return pieces;
}

std::vector<int> TranslationView::sourcePositionsOf(int bar) const {
  const Translation& t = controller_->snapshot()->translation;
  if (!viewControls_->view().words || t.subword_marker.empty()) return {bar};
  const auto groups = word_groups(t.source.tokens, t.subword_marker, t.end_token);
  return bar >= 0 && bar < static_cast<int>(groups.size()) ? groups[bar] : std::vector<int>{};
}

void TranslationView::editShownStep(AttentionBars::Edit kind, int bar) {
  const int row = controller_->shownRow();
  if (row < 0 || !controller_->snapshot()) return;
  AttentionEdit edit;
  edit.step = row;
  switch (kind) {
    case AttentionBars::Edit::Zero: {
      edit.kind = AttentionEdit::Kind::kZero;
      // A step already zeroing words zeroes this one too ("zero one or more source words").
      const auto current = explanation_->edits().find(row);
      if (current != explanation_->edits().end() &&
          current->second.kind == AttentionEdit::Kind::kZero)
        edit.positions = current->second.positions;
      for (int p : sourcePositionsOf(bar))
        if (std::find(edit.positions.begin(), edit.positions.end(), p) == edit.positions.end())
          edit.positions.push_back(p);
      std::sort(edit.positions.begin(), edit.positions.end());
      break;
    }
    case AttentionBars::Edit::Restore:
      explanation_->removeEdit(row);
      return;
    case AttentionBars::Edit::Only: {
      const std::vector<int> positions = sourcePositionsOf(bar);
      if (positions.size() == 1) {
        edit.kind = AttentionEdit::Kind::kOneHot;
        edit.positions = positions;
      } else {  // a word of several pieces: all its weight on them, shared as the model shares it
        std::vector<float> bars(stepPanel_->bars()->row().size(), 0.0f);
        if (bar >= 0 && bar < static_cast<int>(bars.size())) bars[bar] = 1.0f;
        edit.kind = AttentionEdit::Kind::kWeights;
        edit.weights = toSourceTokens(bars);
      }
      break;
    }
    case AttentionBars::Edit::Uniform:
      edit.kind = AttentionEdit::Kind::kUniform;
      break;
    case AttentionBars::Edit::Shuffle:
      edit.kind = AttentionEdit::Kind::kShuffle;
      edit.seed = QRandomGenerator::global()->generate64();
      break;
    case AttentionBars::Edit::TypeWeights: {
      // The dialog refuses what the engine would (a wrong count, negative, NaN, all 0) and stays
      // open with the reason until the weights are valid.
      WeightsDialog dialog(row, stepPanel_->bars()->row(), this);
      if (dialog.exec() != QDialog::Accepted) return;
      edit.kind = AttentionEdit::Kind::kWeights;
      edit.weights = toSourceTokens(dialog.weights());
      break;
    }
  }
  setShownEdit(edit);
}

void TranslationView::setShownEdit(const AttentionEdit& edit) {
  if (edit.step < 0 || !controller_->snapshot()) return;
  const auto& steps = controller_->snapshot()->steps;
  if (edit.step < static_cast<int>(steps.size())) {
    try {
      static_cast<void>(edit.apply(steps[edit.step].attention));
    } catch (const std::invalid_argument& e) {
      // Refused before decoding: the edits, their marks and the what-if stay as they were.
      explanation_->refuse(QString::fromStdString(e.what()));
      return;
    }
  }
  explanation_->setEdit(edit);
  Q_EMIT statusMessage(tr("Decoding with the edited attention…"), 3000);
}

void TranslationView::showWhatIf() {
  const QString refusal = explanation_->refusal();
  editError_->setText(refusal.isEmpty() ? QString() : tr("Edit refused: %1").arg(refusal));
  editError_->setToolTip(editError_->text());
  editError_->setVisible(!refusal.isEmpty());
  const bool edits = explanation_->hasEdits();
  whatIfRow_->setVisible(edits);
  if (!edits) {
    whatIf_->clear();
    return;
  }
  QStringList tokens, parts;
  if (controller_->snapshot())
    for (const auto& token : controller_->snapshot()->translation.source.tokens)
      tokens << QString::fromStdString(token);
  for (const AttentionEdit& edit : explanation_->editList())
    parts << editDescription(edit, tokens).toHtmlEscaped();
  const QString head = tr("<b>What if</b> (%1):").arg(parts.join(QStringLiteral("; ")));
  const auto& result = explanation_->whatIf();
  if (!result || explanation_->editBusy()) {
    whatIf_->setText(tr("%1 <span style='color:gray'>decoding…</span>").arg(head));
    return;
  }
  if (!result->error.isEmpty()) {
    whatIf_->setText(tr("%1 <i>%2</i>").arg(head, result->error.toHtmlEscaped()));
    return;
  }
  const QString legend = whatIfLegend(wordDiffCounts(result->original, result->edited.translation));
  whatIf_->setText(
      tr("%1 %2<br><span style='font-size:small; color:gray'>%3; edited steps are marked "
         "\"edited\" in the heatmap; Reset edits (%4) returns to the model's own</span>")
          .arg(head, whatIfHtml(result->original, result->edited.translation), legend,
               resetEditsAction_->shortcut().toString(QKeySequence::NativeText)));
}

bool TranslationView::eventFilter(QObject* watched, QEvent* event) {
  // The tree asks for more height than a small window has: shown, it gets its share of the
  // height (under half, so the heatmap it explains stays readable, unless the user dragged the
  // splitter), not its size hint.
  if (watched == beamView_ && event->type() == QEvent::Show) {
    const QList<int> sizes = beamSplitter_->sizes();
    const int total = sizes.value(0) + sizes.value(1);
    const int tree = static_cast<int>(total * beamShare_);
    if (total > 0) beamSplitter_->setSizes({total - tree, tree});
  }
  return QWidget::eventFilter(watched, event);
}

void TranslationView::showBeam(const QList<Translation>& hypotheses, const QString& modelKey) {
  if (hypotheses.isEmpty()) return;
  beamHypotheses_ = hypotheses;
  beamKey_ = modelKey;
  const QSignalBlocker block(beamList_);
  beamList_->clear();
  QList<double> scores;
  for (const Translation& t : hypotheses) scores << t.score;
  beamScoreTexts_ = distinctScoreTexts(scores);
  // The score first: a long hypothesis in a narrow list would hide it behind a scroll bar.
  for (int i = 0; i < hypotheses.size(); ++i) {
    const QString text = QString::fromStdString(hypotheses[i].text());
    beamList_->addItem(QStringLiteral("%1   %2").arg(beamScoreTexts_[i], text));
    beamList_->item(beamList_->count() - 1)->setToolTip(text);
  }
  beamList_->setVisible(true);
  beamList_->setCurrentRow(0);
  showHypothesis(0);
}

void TranslationView::showHypothesis(int index) {
  if (index < 0 || index >= beamHypotheses_.size()) return;
  const Translation& t = beamHypotheses_[index];
  // Its finished node in the tree, when the tree is there: heatmap, step panel and tree agree.
  if (beamView_->isActive() && beamView_->selectHypothesis(t)) return;
  sessionShown_ = false;
  fileShown_ = false;
  beamNodeShown_ = false;
  shownValues_->setEnabled(true);
  explanation_->resetEdits();
  forcedSteps_.clear();
  heatmap_->setReservedRows(0);
  attributionPlot_->setReservedRows(0);
  drawTranslation(t, beamKey_);
  heatmap_->setCurrentRow(-1);
  setOutputText(tr("%1 <span style='color:gray'>(beam %2, hypothesis %3, score %4)</span>")
                    .arg(translationHtml(t), QString::number(beamHypotheses_.size()),
                         QString::number(index + 1), beamScoreTexts_.value(index)) +
                truncationNote(t.source));
  stepPanel_->showStep(nullptr, 0, {});
  stepPanel_->showAttribution({}, {}, {}, false, {});
  Q_EMIT updated();
}

void TranslationView::showBeamNode(const Translation& t, const Step* step, const QString& caption) {
  sessionShown_ = false;
  fileShown_ = false;
  beamNodeShown_ = true;
  stepPanel_->setBeamNodeCandidates(true);
  shownValues_->setEnabled(true);
  explanation_->resetEdits();
  forcedSteps_.clear();
  heatmap_->setReservedRows(0);
  attributionPlot_->setReservedRows(0);
  drawTranslation(t, beamView_->modelKey());
  setOutputText(tr("%1 <span style='color:gray'>(%2)</span>")
                    .arg(translationHtml(t), caption.toHtmlEscaped()) +
                truncationNote(t.source));
  stepPanel_->bars()->setEditable(false, whyNotEditable());
  stepPanel_->bars()->setOriginalRow({});
  stepPanel_->setAttentionEdited(false);
  showBeamStep(t, step, static_cast<int>(t.tokens.size()) - 1);
  stepPanel_->showAttribution({}, {}, {}, false, {});
  Q_EMIT updated();
}

bool TranslationView::showBeamNodeStep(int step) {
  if (!beamNodeShown_ || step < 0) return false;
  const std::optional<Step> shown = beamView_->stepOfShownPath(step);
  if (!shown) return false;
  showBeamStep(shown_, &*shown, step);
  return true;
}

void TranslationView::showBeamStep(const Translation& t, const Step* step, int row) {
  heatmap_->setCurrentRow(heatmap_->matrix().rowOf(row));
  if (step == nullptr || row < 0) {
    stepPanel_->showStep(nullptr, 0, {});
    return;
  }
  Step shown = inShownHead(*step);
  const bool words = barsInWords(t);
  const QStringList labels = barLabels(t, shown, words);
  shown.attention = inBars(t, shown, shown.attention, words);
  shown.entropy = attention_entropy(shown.attention);
  stepPanel_->showStep(&shown, row, labels, QString::fromStdString(t.subword_marker), words);
}

void TranslationView::showAttentionFile(const AttentionFile& file, const QString& path,
                                        size_t line) {
  sessionShown_ = false;
  fileShown_ = true;
  beamNodeShown_ = false;
  beamView_->clear();
  explanation_->resetEdits();
  beamHypotheses_.clear();
  beamList_->clear();
  beamList_->setVisible(false);
  heatmap_->setReservedRows(0);
  forcedSteps_.clear();
  shown_ = Translation{};
  shownKey_.clear();
  viewControls_->adaptTo(ModelInfo{});  // a file's one matrix: no layers, heads or pieces
  // A file's attention, whatever Show says: there is no model to attribute its output to.
  attributionPlot_->setVisible(false);
  shownValues_->setEnabled(false);  // until a model's result is shown again
  note_->setVisible(false);
  heatmap_->setSigned(false);
  heatmap_->setValueName(tr("weight"));
  heatmap_->setGradient(gradient_);
  heatmap_->setMatrix(AttentionMatrix::fromAttentionFile(file));
  heatmap_->setCurrentRow(-1);
  stepPanel_->showStep(nullptr, 0, {});
  stepPanel_->showAttribution({}, {}, {}, false, {});
  QStringList target;
  for (const auto& token : file.target_tokens) target << QString::fromStdString(token);
  const QString lineText = line > 1 ? tr(", line %1").arg(line) : QString();
  setOutputText(tr("%1 <span style='color:gray'>(%2: %3%4)</span>")
                    .arg(target.join(QLatin1Char(' ')).toHtmlEscaped(),
                         QString::fromStdString(file.format),
                         QFileInfo(path).fileName().toHtmlEscaped(), lineText));
  Q_EMIT updated();
}

void TranslationView::setEmptyHeatmapText(const QString& text) {
  for (HeatmapPlot* plot : {heatmap_, attributionPlot_})
    if (plot->emptyText() == emptyHeatmapText_) plot->setEmptyText(text);
  emptyHeatmapText_ = text;
}

void TranslationView::clear() {
  beamView_->clear();
  forcedSteps_.clear();
  sessionShown_ = false;
  fileShown_ = false;
  beamNodeShown_ = false;
  beamHypotheses_.clear();
  beamList_->clear();
  beamList_->setVisible(false);
  // No sentence: the plots say what a new heatmap says, not "Computing …" for ever.
  heatmap_->setEmptyText(emptyHeatmapText());
  attributionPlot_->setEmptyText(emptyHeatmapText());
  shownValues_->setEnabled(true);
  explanation_->resetEdits();
  shown_ = Translation{};
  heatmap_->setMatrix({});
  attributionPlot_->setMatrix({});
  setOutputText(QString());
  stepPanel_->showStep(nullptr, 0, {});
  stepPanel_->showAttribution({}, {}, {}, false, {});
  Q_EMIT updated();
}

bool TranslationView::exportsBeamTree() const {
  const QWidget* focus = QApplication::focusWidget();
  return beamView_->isVisible() && focus != nullptr && beamView_->isAncestorOf(focus);
}

QSize TranslationView::exportSize() const {
  if (exportsBeamTree()) return beamView_->exportSize();
  if (!attributionPlot_->isVisible()) return heatmap_->size();
  return {heatmap_->width() + attributionPlot_->width(),
          std::max(heatmap_->height(), attributionPlot_->height())};
}

QString TranslationView::nothingToExport() const {
  if (exportsBeamTree())
    return beamView_->plot()->isEmpty() ? tr("Nothing to export yet: the beam search is running.")
                                        : QString();
  return heatmap_->matrix().isEmpty() ? tr("Nothing to export yet: translate a sentence first.")
                                      : QString();
}

QString TranslationView::exportName() const {
  if (exportsBeamTree()) return QStringLiteral("beam-tree");
  const auto method = shownValues_->method();
  QString name = QStringLiteral("attention");
  // Named by what is drawn: a beam's hypothesis shows its attention alone, whatever Show says.
  if (method && shownValues_->isEnabled() && shownAttribution()) {
    const QString shown = QString::fromStdString(attribution_method_name(*method));
    name = showsBeside() ? name + QLatin1Char('-') + shown : shown;
  }
  if (sessionShown_ && explanation_->hasEdits()) name += QStringLiteral("-edited");
  return name;
}

QString TranslationView::exportTitle() const {
  if (exportsBeamTree()) return beamView_->exportTitle();
  if (fileShown_ || shownKey_.isEmpty()) return {};  // a file's matrix: its own title says
  return exportTitleText(shownKey_, models_->info(shownKey_), controller_->sentence());
}

void TranslationView::exportTo(const QString& path, const ExportOptions& options) const {
  if (exportsBeamTree()) return beamView_->exportTo(path, options);
  if (!showsBeside()) return exportHeatmaps({heatmap_}, path, options);
  ExportOptions both = options;
  both.columns = 2;  // attention | attribution, as on screen
  exportHeatmaps({heatmap_, attributionPlot_}, path, both);
}

}  // namespace attnscope::ui
