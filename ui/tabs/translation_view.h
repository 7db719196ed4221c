#pragma once
// The Translation tab: the translation line, the what-if line of attention edits, the view
// controls, the heatmap growing row by row (the attention, an attribution, or both side by side)
// and, beside it, the final beam or the step panel of the step the heatmap selects, whose
// attention bars the user can drag to edit. It shows what the decoding controller holds (a
// step-wise session), a beam's hypotheses, or an attention file; the window decides when.
#include <attnscope/attention_file.h>
#include <attnscope/translation.h>
#include <qcustomplot.h>

#include <QList>
#include <QWidget>

#include "core/engine_requests.h"
#include "core/guide_section.h"
#include "plots/attention_bars.h"
#include "render/export_target.h"

class QAction;
class QLabel;
class QListWidget;
class QPushButton;
class QSplitter;
class QTimer;

namespace attnscope::ui {

class AttentionViewControls;
class BeamView;
class DecodingController;
class ExplanationController;
class HeatmapPlot;
class ModelList;
class ShownValuesBox;
class StepPanel;

class TranslationView : public QWidget, public ExportTarget, public GuideSection {
  Q_OBJECT
 public:
  /// Shows the sessions of `controller` (its snapshot and selected step); `models` says what a
  /// model offers to choose (layers, heads, pieces) before any of its results arrive.
  TranslationView(DecodingController* controller, const ModelList* models,
                  QWidget* parent = nullptr);

  /// Draws the controller's snapshot: the rows decoded so far, the translation line, the step.
  void showSnapshot();
  /// Shows a final beam, best first, and the first hypothesis's heatmap.
  void showBeam(const QList<Translation>& hypotheses, const QString& modelKey);
  /// Shows a beam node's hypothesis (the Beam view's choice): its rows, `step` (its last; null:
  /// none) in the step panel, `caption` after its text.
  void showBeamNode(const Translation& t, const Step* step, const QString& caption);
  /// Shows a file's one matrix (no model: nothing to step through); `path` names it.
  void showAttentionFile(const AttentionFile& file, const QString& path, size_t line);
  /// Nothing to show (an empty sentence).
  void clear();

  /// The user's colormap: the attention's, and an unsigned attribution's (signed ones are
  /// drawn on the diverging map, centred on 0).
  void setGradient(const QCPColorGradient& gradient);
  void setShowValues(bool show);

  /// What the heatmap draws now, and the model that made it.
  const Translation& shownTranslation() const { return shown_; }
  const QString& shownModel() const { return shownKey_; }

  QSize exportSize() const override;
  QString nothingToExport() const override;
  /// "attention", the method ("ig"), or both side by side ("attention-ig"); "-edited" while
  /// attention edits are marked.
  QString exportName() const override;
  QString exportTitle() const override;
  /// The heatmap; side by side, the attention and the attribution in one picture; the beam tree
  /// while it has the focus.
  void exportTo(const QString& path, const ExportOptions& options) const override;
  QString guideSection() const override { return QStringLiteral("app.md#translation-tab"); }

  HeatmapPlot* heatmap() const { return heatmap_; }
  /// The right-hand heatmap of the side-by-side view (hidden otherwise).
  HeatmapPlot* attributionPlot() const { return attributionPlot_; }
  StepPanel* stepPanel() const { return stepPanel_; }
  QListWidget* beamList() const { return beamList_; }
  QLabel* outputLabel() const { return output_; }
  /// The what-if line: the translation the attention edits lead to, changed words marked.
  QLabel* whatIfLabel() const { return whatIf_; }
  /// The line under the translation that says what the heatmap shows when it is not the
  /// chosen values (the baseline's attributions, a beam's attention).
  QLabel* noteLabel() const { return note_; }
  /// A refused edit's reason (hidden when the last edit was accepted).
  QLabel* editErrorLabel() const { return editError_; }
  QPushButton* resetEditsButton() const { return resetEdits_; }
  QPushButton* compareEditsButton() const { return compareEdits_; }
  /// Reset edits (Ctrl+Shift+R): for the window's View menu.
  QAction* resetEditsAction() const { return resetEditsAction_; }
  AttentionViewControls* viewControls() const { return viewControls_; }
  ShownValuesBox* shownValues() const { return shownValues_; }
  ExplanationController* explanation() const { return explanation_; }
  QSplitter* splitter() const { return splitter_; }
  /// The beam search as a tree, under the heatmap while the beam is above 1.
  BeamView* beamView() const { return beamView_; }

  /// What the empty heatmaps say: the input line's hint for the current model ("Type an input
  /// like “Mar 3, 21” and press Enter" for a task model). Shown at once where they show the
  /// previous one.
  void setEmptyHeatmapText(const QString& text);
  QString emptyHeatmapText() const { return emptyHeatmapText_; }

 Q_SIGNALS:
  /// The heatmap shows a new result (after a step, a forced token, a beam, another view, an
  /// attribution or a what-if).
  void updated();
  /// A translation was drawn (heads view: the Compare heads tab shows its layer's heads).
  void translationDrawn();
  void statusMessage(const QString& message, int milliseconds);
  /// The user asked to try the attention edits on every model (Compare all).
  void compareEditsRequested(const attnscope::ui::CompareEdits& edits);
  /// The user reset the attention edits (Compare all drops the ones it tries too).
  void editsReset();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  // "The sentence has 120 words; the model reads the first 99." under any translation shown of
  // a cut sentence; "" for a whole one.
  static QString truncationNote(const SourceText& source);
  // The translation line and its notes; within one `session` (model and sentence) its height
  // only grows, so stepping does not move the heatmap. An empty session keeps no height.
  void setOutputText(const QString& text, const QString& session = QString());
  void drawTranslation(const Translation& t, const QString& modelKey);
  // The heatmaps of shown_ as Show asks: attention, attribution, or both.
  void drawPlots();
  // Why the shown output has no attribution (a beam's hypothesis, an attention file); "" when
  // it has one or nothing is shown.
  QString whyNotAttributable() const;
  // The attribution Show asks for, when the view shown has one (a beam's hypothesis or an
  // attention file does not: their attention is shown alone, with the note saying why).
  std::optional<AttributionMethod> shownAttribution() const;
  bool showsBeside() const;  // attention and the shown attribution side by side
  void drawAttribution(HeatmapPlot* plot, AttributionMethod method);
  void markRows();
  void showSelectedStep();
  void showStepAttribution(int row, const QStringList& labels, bool words);
  // The step panel's view of a step of `t`: the heatmap's layer and head, its words or pieces.
  Step inShownHead(Step step) const;
  bool barsInWords(const Translation& t) const;
  QStringList barLabels(const Translation& t, const Step& step, bool words) const;
  // `row` (over the source tokens) as the bars show it: pieces summed into words in words.
  std::vector<float> inBars(const Translation& t, const Step& step, const std::vector<float>& row,
                            bool words) const;
  void showHypothesis(int index);
  // Row `row` (a step, from 0) of beam hypothesis `t` in the heatmap and the step panel.
  void showBeamStep(const Translation& t, const Step* step, int row);
  // Step `step` of the beam node shown, as the tree has it; false when no node's step is there.
  bool showBeamNodeStep(int step);
  void showWhatIf();
  // The attribution the shown session asks for, when Show names a method.
  std::optional<AttributionRequest> attributionRequest() const;
  // Why the shown step's attention cannot be edited ("" when it can).
  QString whyNotEditable() const;
  // Bars over the step panel's labels (words or pieces) → a row over the source tokens.
  std::vector<float> toSourceTokens(const std::vector<float>& bars) const;
  std::vector<int> sourcePositionsOf(int bar) const;
  // File > Export takes the beam tree while the focus is in it.
  bool exportsBeamTree() const;
  void editShownStep(AttentionBars::Edit edit, int bar);
  void setShownEdit(const AttentionEdit& edit);

  DecodingController* controller_;
  const ModelList* models_;
  ExplanationController* explanation_ = nullptr;
  QLabel* output_ = nullptr;
  QWidget* whatIfRow_ = nullptr;
  QLabel* whatIf_ = nullptr;
  QLabel* editError_ = nullptr;
  QLabel* note_ = nullptr;
  QPushButton* resetEdits_ = nullptr;
  QPushButton* compareEdits_ = nullptr;
  QAction* resetEditsAction_ = nullptr;
  AttentionViewControls* viewControls_ = nullptr;
  ShownValuesBox* shownValues_ = nullptr;
  HeatmapPlot* heatmap_ = nullptr;
  HeatmapPlot* attributionPlot_ = nullptr;
  StepPanel* stepPanel_ = nullptr;
  QListWidget* beamList_ = nullptr;
  QSplitter* splitter_ = nullptr;
  QSplitter* beamSplitter_ = nullptr;  // the heatmap and step panel above, the beam tree below
  double beamShare_ = 0.45;            // the tree's share of beamSplitter_'s height when shown
  BeamView* beamView_ = nullptr;

  QList<Translation> beamHypotheses_;
  QStringList beamScoreTexts_;  // the hypotheses' scores as the list writes them
  QString beamKey_;
  Translation shown_;  // what the heatmap draws, redrawn when the view controls change
  QString shownKey_;   // the model that made shown_
  bool sessionShown_ = false;
  QString outputSession_;   // the session whose lines setOutputText keeps room for
  QString steppedSession_;  // the last session shown step by step: its rows keep their size
  QTimer* attributionSettle_ = nullptr;  // asks for the Show box's attribution once it settles
  bool holdAttribution_ = false;  // while a Show box change redraws  // shown_ is the session's
                                  // (not a beam's or a file's)
  bool fileShown_ = false;
  bool beamNodeShown_ = false;  // shown_ is a beam tree node's hypothesis (BeamView decides)     //
                                // shown_ is empty: the heatmap holds an attention file's matrix
  QVector<int> forcedSteps_;    // the steps of shown_ the user forced (heatmap rows marked)
  QCPColorGradient gradient_;
  bool showValues_ = false;
  QString emptyHeatmapText_ = tr("Type a sentence and press Enter");
};

}  // namespace attnscope::ui
