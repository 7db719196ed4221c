#pragma once
// The Translation tab: the translation line, the view controls, the heatmap growing row by row
// and, beside it, the final beam or the step panel of the step the heatmap selects. It shows what
// the decoding controller holds (a step-wise session), a beam's hypotheses, or an attention file;
// the window decides when.
#include <attnscope/attention_file.h>
#include <attnscope/translation.h>

#include <QList>
#include <QWidget>

#include "render/export_target.h"

class QLabel;
class QListWidget;
class QSplitter;

namespace attnscope::ui {

class AttentionViewControls;
class DecodingController;
class HeatmapPlot;
class ModelList;
class StepPanel;

class TranslationView : public QWidget, public ExportTarget {
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
  /// Shows a file's one matrix (no model: nothing to step through); `path` names it.
  void showAttentionFile(const AttentionFile& file, const QString& path, size_t line);
  /// Nothing to show (an empty sentence).
  void clear();

  /// What the heatmap draws now, and the model that made it.
  const Translation& shownTranslation() const { return shown_; }
  const QString& shownModel() const { return shownKey_; }

  QSize exportSize() const override;
  QString nothingToExport() const override;
  void exportTo(const QString& path, const ExportOptions& options) const override;

  HeatmapPlot* heatmap() const { return heatmap_; }
  StepPanel* stepPanel() const { return stepPanel_; }
  QListWidget* beamList() const { return beamList_; }
  QLabel* outputLabel() const { return output_; }
  AttentionViewControls* viewControls() const { return viewControls_; }
  QSplitter* splitter() const { return splitter_; }

 Q_SIGNALS:
  /// The heatmap shows a new result (after a step, a forced token, a beam or another view).
  void updated();
  /// A translation was drawn (heads view: the Compare heads tab shows its layer's heads).
  void translationDrawn();
  void statusMessage(const QString& message, int milliseconds);

 private:
  void drawTranslation(const Translation& t, const QString& modelKey);
  void showSelectedStep();
  void showHypothesis(int index);

  DecodingController* controller_;
  const ModelList* models_;
  QLabel* output_ = nullptr;
  AttentionViewControls* viewControls_ = nullptr;
  HeatmapPlot* heatmap_ = nullptr;
  StepPanel* stepPanel_ = nullptr;
  QListWidget* beamList_ = nullptr;
  QSplitter* splitter_ = nullptr;

  QList<Translation> beamHypotheses_;
  QString beamKey_;
  Translation shown_;         // what the heatmap draws, redrawn when the view controls change
  QString shownKey_;          // the model that made shown_
  QVector<int> forcedSteps_;  // the steps of shown_ the user forced (heatmap rows marked)
};

}  // namespace attnscope::ui
