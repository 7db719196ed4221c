#pragma once
// All score functions on one sentence: a grid of heatmaps with one shared colour scale and
// synchronised hover, each model's own translation or every model forced onto a common target,
// and the difference A − B of two models in common-target mode.
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QWidget>

#include "engine_worker.h"

class QGridLayout;

namespace attnscope::ui {

class HeatmapPlot;

class CompareView : public QWidget {
  Q_OBJECT
 public:
  explicit CompareView(QWidget* parent = nullptr);

  void setModels(const QStringList& keys);
  void setResult(const CompareResult& result);
  void setGradient(const QString& colormapName);
  void setShowValues(bool show);
  void setStatus(const QString& text);

  CompareTarget target() const;
  /// The models compared, in the grid's order.
  const QStringList& models() const { return models_; }
  /// Subword models drawn in words (a word's pieces merged; the default) or pieces.
  bool showsWords() const { return words_->isChecked(); }
  QCheckBox* wordsBox() const { return words_; }
  const QList<HeatmapPlot*>& plots() const { return plots_; }
  /// The plots an export should contain: the grid, and the difference when it is shown.
  QList<HeatmapPlot*> exportedPlots() const;
  HeatmapPlot* differencePlot() const { return difference_; }
  CompareTarget::Kind mode() const;
  void setMode(CompareTarget::Kind kind);
  QCheckBox* differenceBox() const { return showDifference_; }
  QLineEdit* referenceEdit() const { return reference_; }
  QString statusText() const { return status_->text(); }

 Q_SIGNALS:
  /// The user changed what to compare; the window asks the worker again.
  void compareRequested();

 private:
  void updateControls();
  void updateDifference();
  void hoverAll(int row, int column);

  QComboBox* mode_ = nullptr;
  QLineEdit* reference_ = nullptr;
  QCheckBox* words_ = nullptr;
  QComboBox* commonModel_ = nullptr;
  QCheckBox* showDifference_ = nullptr;
  QComboBox* differenceA_ = nullptr;
  QComboBox* differenceB_ = nullptr;
  QLabel* status_ = nullptr;
  QGridLayout* grid_ = nullptr;
  QStringList models_;
  QList<HeatmapPlot*> plots_;
  HeatmapPlot* difference_ = nullptr;
  CompareResult result_;
  QString resultStatus_;  // what the shown result is; the status line adds the difference's
  QString colormap_ = QStringLiteral("viridis");
};

}  // namespace attnscope::ui
