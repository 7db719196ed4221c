#pragma once
// All score functions on one sentence: a grid of heatmaps with one shared colour scale and
// synchronised hover, each model's own translation or every model forced onto a common target,
// and the difference A − B of two models in common-target mode. The Translation tab's attention
// edits can be tried on every model: each plot then shows its what-if decoding, titled with it.
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QWidget>

#include "core/engine_requests.h"
#include "core/guide_section.h"
#include "render/export_target.h"

class QCPColorGradient;

namespace attnscope::ui {

class EngineWorker;
class HeatmapGrid;
class HeatmapPlot;

class CompareView : public QWidget, public ExportTarget, public GuideSection {
  Q_OBJECT
 public:
  explicit CompareView(QWidget* parent = nullptr);

  /// Decodes through `worker` (its compare channel, independent of the Translation tab's).
  void setWorker(EngineWorker* worker);
  /// Every model on `sentence`, as target() says; nothing without a sentence or models, and a
  /// prompt in the status line when the reference it needs is empty. A newer call makes the
  /// older one's result obsolete.
  void compare(const QString& sentence);
  void setModels(const QStringList& keys);
  /// The language the models translate into ("French"), as the reference line's hint names it.
  void setTargetLanguage(const QString& language);
  void setResult(const CompareResult& result);
  void setGradient(const QCPColorGradient& gradient);
  void setShowValues(bool show);
  void setStatus(const QString& text);
  /// Tries `edits` on every model (own translations) until cleared or another sentence is
  /// compared, and asks for the comparison; empty edits: none.
  void setEdits(const CompareEdits& edits);
  const CompareEdits& edits() const { return edits_; }
  /// The Translation tab's Reset edits: no edits here either, every model's own decoding again
  /// (compared now when the tab shows, else when it is next shown).
  void clearEdits();
  QPushButton* clearEditsButton() const { return clearEdits_; }

  CompareTarget target() const;
  /// The models compared, in the grid's order.
  const QStringList& models() const { return models_; }
  /// Subword models drawn in words (a word's pieces merged; the default) or pieces.
  bool showsWords() const { return words_->isChecked(); }
  QCheckBox* wordsBox() const { return words_; }
  const QList<HeatmapPlot*>& plots() const;
  /// The plots an export should contain: the grid, and the difference when it is shown.
  QList<HeatmapPlot*> exportedPlots() const;
  HeatmapPlot* differencePlot() const { return difference_; }
  CompareTarget::Kind mode() const;
  void setMode(CompareTarget::Kind kind);
  QCheckBox* differenceBox() const { return showDifference_; }
  QLineEdit* referenceEdit() const { return reference_; }
  QString statusText() const { return status_->text(); }

  /// "compare", or "compare-what-if" while it tries attention edits.
  QString exportName() const override;
  /// The grid, with the difference beside it when shown.
  QSize exportSize() const override;
  QString nothingToExport() const override;
  /// exportedPlots(), as many to a row as suit the picture's shape.
  void exportTo(const QString& path, const ExportOptions& options) const override;
  QString guideSection() const override { return QStringLiteral("app.md#compare-all-tab"); }

 Q_SIGNALS:
  /// The user changed what to compare; the window asks the worker again.
  void compareRequested();
  /// setResult() drew a compare() answer.
  void resultShown();

 private:
  void updateControls();
  void updateDifference();
  /// A reference typed for another sentence: cleared, and the grid emptied, with a note why.
  void clearForNewSentence();
  // Every model's plot, titled and empty, saying `emptyText`.
  void showEmpty(const QString& emptyText);
  // No result shown (answers on their way dropped): empty plots saying `emptyText`.
  void dropResult(const QString& emptyText);

  QComboBox* mode_ = nullptr;
  QLineEdit* reference_ = nullptr;
  QCheckBox* words_ = nullptr;
  QComboBox* commonModel_ = nullptr;
  QCheckBox* showDifference_ = nullptr;
  bool differenceWanted_ = false;  // the box's state while a mode greys it out
  QComboBox* differenceA_ = nullptr;
  QComboBox* differenceB_ = nullptr;
  QLabel* status_ = nullptr;
  QLabel* editsLabel_ = nullptr;
  QPushButton* clearEdits_ = nullptr;
  CompareEdits edits_;
  HeatmapGrid* grid_ = nullptr;
  QStringList models_;
  HeatmapPlot* difference_ = nullptr;
  CompareResult result_;
  EngineWorker* worker_ = nullptr;
  quint64 generation_ = 0;     // of the newest compare() request
  QString resultStatus_;       // what the shown result is; the status line adds the difference's
  QString referenceSentence_;  // the sentence the reference was used with, trimmed
  QString targetLanguage_;     // what the models translate into: "German"
};

}  // namespace attnscope::ui
