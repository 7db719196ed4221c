#pragma once
// The attnscope window: type a sentence, watch it decode, switch and compare score functions.
#include <attnscope/attention_file.h>

#include <QList>
#include <QMainWindow>
#include <QThread>
#include <functional>

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

class AttentionViewControls;
class CompareView;
class CorpusView;
class HeadsView;
class DecodingController;
class HeatmapPlot;
class HistoryLineEdit;
class StepPanel;
class TrainView;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  /// Puts `sentence` in the input and translates it.
  void translateSentence(const QString& sentence);
  /// Puts `sentence` in the input and decodes its first `steps` steps (step mode).
  void stepSentence(const QString& sentence, int steps);
  /// Reads a model file's header on the engine thread, then adds it to the score function list
  /// and selects it (modelOpened), or shows a dialog naming the problem.
  void openModelFile(const QString& path);
  /// Shows the attention matrix in `path` (written by attnscope or another tool) without a model:
  /// the heatmap shows it, the step panel is empty. A bad file gives a message box naming it.
  void openAttentionFile(const QString& path, const AttentionFileOptions& options = {});
  /// Exports the current heatmap, or the compare grid when that tab is shown.
  void exportTo(const QString& path, const ExportOptions& options);
  void selectModel(const QString& key);
  /// Shows the Corpus tab and runs every listed model on `source` (BLEU against `reference`
  /// when given), once the models are listed.
  void runCorpus(const QString& source, const QString& reference);
  void showCompare(bool compare);

  // For tests and the benchmark: the widgets as they are.
  HistoryLineEdit* sourceEdit() const { return source_; }
  HeatmapPlot* heatmap() const { return heatmap_; }
  StepPanel* stepPanel() const { return stepPanel_; }
  CompareView* compareView() const { return compare_; }
  HeadsView* headsView() const { return heads_; }
  CorpusView* corpusView() const { return corpus_; }
  TrainView* trainView() const { return train_; }
  AttentionViewControls* viewControls() const { return viewControls_; }
  QTabWidget* tabs() const { return tabs_; }
  QComboBox* modelBox() const { return models_; }
  QListWidget* beamList() const { return beamList_; }
  QLabel* outputLabel() const { return output_; }
  QAction* copyUnknownAction() const { return copyUnknown_; }
  DecodingController* controller() const { return controller_; }

 Q_SIGNALS:
  /// The heatmap shows a new result (after translate, step, force, beam or model switch).
  void heatmapUpdated();
  void compareUpdated();
  /// A model file opened with openModelFile() is listed under `key` and selected.
  void modelOpened(const QString& key);

 protected:
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void createWidgets();
  void createActions();
  void listModels(const QStringList& keys);
  void addModelFile(const QString& path, const ModelInfo& info);
  // Until the model list is known and opened files are read, calls that need a model wait.
  bool ready() const { return modelsListed_ && openingFiles_ == 0; }
  void whenReady(std::function<void()> call);
  void runDeferred();
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
  /// Draws `t` (a session's steps or a beam hypothesis of model `modelKey`) as the view
  /// controls say.
  void drawTranslation(const Translation& t, const QString& modelKey);
  void showError(const QString& message);
  void showModelInfo();
  QString torchScriptInfo(const ModelInfo& m) const;
  void exportDialog();
  void openAttentionDialog();
  void applyColormap(const QString& name);
  template <typename Call>
  void post(Call&& call);

  QThread workerThread_;
  EngineWorker* worker_ = nullptr;  // lives on workerThread_
  DecodingController* controller_ = nullptr;
  quint64 compareGeneration_ = 0;
  QHash<QString, ModelInfo> infos_;
  bool modelsListed_ = false;
  int openingFiles_ = 0;
  bool modelOpened_ = false;  // a model file was opened: the restored choice does not apply
  QList<std::function<void()>> deferred_;

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
  QAction* copyUnknown_ = nullptr;
  QLabel* modelStatus_ = nullptr;
  CompareView* compare_ = nullptr;
  CorpusView* corpus_ = nullptr;
  TrainView* train_ = nullptr;
  HeadsView* heads_ = nullptr;
  AttentionViewControls* viewControls_ = nullptr;
  QAction* playAction_ = nullptr;

  QList<Translation> beamHypotheses_;
  Translation shown_;  // what the heatmap draws, redrawn when the view controls change
  QString shownKey_;   // the model that made shown_
};

}  // namespace attnscope::ui
