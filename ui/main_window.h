#pragma once
// The attnscope window: type a sentence, watch it decode, switch and compare score functions.
#include <QMainWindow>
#include <QThread>

#include "engine_worker.h"
#include "exporter.h"

class QActionGroup;
class QCheckBox;
class QComboBox;
class QLabel;
class QListWidget;
class QSlider;
class QSpinBox;
class QTabWidget;

namespace attnscope::ui {

class CompareView;
class DecodingController;
class HeatmapPlot;
class HistoryLineEdit;
class StepPanel;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  /// Puts `sentence` in the input and translates it.
  void translateSentence(const QString& sentence);
  /// Puts `sentence` in the input and decodes its first `steps` steps (step mode).
  void stepSentence(const QString& sentence, int steps);
  /// Adds a model file to the score function list and selects it; false (and a dialog) on error.
  bool openModelFile(const QString& path);
  /// Exports the current heatmap, or the compare grid when that tab is shown.
  void exportTo(const QString& path, const ExportOptions& options);
  void selectModel(const QString& key);
  void showCompare(bool compare);

  // For tests and the benchmark: the widgets as they are.
  HistoryLineEdit* sourceEdit() const { return source_; }
  HeatmapPlot* heatmap() const { return heatmap_; }
  StepPanel* stepPanel() const { return stepPanel_; }
  CompareView* compareView() const { return compare_; }
  QComboBox* modelBox() const { return models_; }
  QListWidget* beamList() const { return beamList_; }
  QLabel* outputLabel() const { return output_; }
  DecodingController* controller() const { return controller_; }

 Q_SIGNALS:
  /// The heatmap shows a new result (after translate, step, force, beam or model switch).
  void heatmapUpdated();
  void compareUpdated();

 protected:
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void createWidgets();
  void createActions();
  void loadModels();
  void restoreSettings();
  void saveSettings();

  QString currentKey() const;
  int beamSize() const;
  void translate();
  bool startsNewSession() const;
  void stepForward();
  void togglePlay();
  void force(const QString& token);
  void requestCompare();
  void showSnapshot();
  void showBeam(const QList<Translation>& hypotheses);
  void showHypothesis(int index);
  void showSelectedStep();
  void showError(const QString& message);
  void showModelInfo();
  void exportDialog();
  void applyColormap(const QString& name);
  template <typename Call>
  void post(Call&& call);

  QThread workerThread_;
  EngineWorker* worker_ = nullptr;  // lives on workerThread_
  DecodingController* controller_ = nullptr;
  quint64 compareGeneration_ = 0;
  QHash<QString, ModelInfo> infos_;

  HistoryLineEdit* source_ = nullptr;
  QComboBox* models_ = nullptr;
  QComboBox* search_ = nullptr;
  QSpinBox* beam_ = nullptr;
  QSlider* speed_ = nullptr;
  QComboBox* colormaps_ = nullptr;
  QCheckBox* values_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  HeatmapPlot* heatmap_ = nullptr;
  StepPanel* stepPanel_ = nullptr;
  QListWidget* beamList_ = nullptr;
  QLabel* output_ = nullptr;
  QLabel* modelStatus_ = nullptr;
  CompareView* compare_ = nullptr;
  QAction* playAction_ = nullptr;

  QList<Translation> beamHypotheses_;
};

}  // namespace attnscope::ui
