#pragma once
// The attnscope window: builds the tabs, the menus and the toolbar, and wires them to the engine
// worker. What each tab shows and exports is the tab's; which models exist is the model list's.
#include <attnscope/attention_file.h>

#include <QMainWindow>
#include <QThread>

#include "render/exporter.h"
#include "tabs/translation_view.h"

class QComboBox;
class QLabel;
class QListWidget;
class QTabWidget;

namespace attnscope::ui {

class AttentionViewControls;
class CompareView;
class CorpusView;
class DecodingController;
class DecodingToolBar;
class ToolBarRows;
class EngineWorker;
class ExamplesMenu;
class ExportTarget;
class HeadsView;
class HeatmapPlot;
class HistoryLineEdit;
class ModelList;
class StepPanel;
class TrainView;
class UserGuideWindow;

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
  /// Exports what the shown tab offers (its ExportTarget): a heatmap, the compare grid, the
  /// Corpus tab's tables or plot. A problem gives a message box naming it.
  void exportTo(const QString& path, const ExportOptions& options);
  void selectModel(const QString& key);
  /// Shows the Corpus tab and runs every listed model on `source` (BLEU against `reference`
  /// when given), once the models are listed.
  void runCorpus(const QString& source, const QString& reference);
  void showCompare(bool compare);
  /// Shows Help > User guide, in a window of its own, at `page` of docs/ ("app.md#corpus-tab");
  /// an empty `page` leaves it where the reader left it (the first time: its contents).
  void showUserGuide(const QString& page);

  // For tests and the benchmark: the widgets as they are.
  HistoryLineEdit* sourceEdit() const { return source_; }
  TranslationView* translationView() const { return translation_; }
  HeatmapPlot* heatmap() const { return translation_->heatmap(); }
  StepPanel* stepPanel() const { return translation_->stepPanel(); }
  AttentionViewControls* viewControls() const { return translation_->viewControls(); }
  QListWidget* beamList() const { return translation_->beamList(); }
  QLabel* outputLabel() const { return translation_->outputLabel(); }
  CompareView* compareView() const { return compare_; }
  HeadsView* headsView() const { return heads_; }
  CorpusView* corpusView() const { return corpus_; }
  TrainView* trainView() const { return train_; }
  ToolBarRows* toolBarRows() const { return toolBarRows_; }
  QTabWidget* tabs() const { return tabs_; }
  QComboBox* modelBox() const { return models_; }
  /// The status bar's line about the current model.
  QString modelStatus() const;
  QAction* copyUnknownAction() const { return copyUnknown_; }
  /// The user guide's window, once opened (null before).
  UserGuideWindow* userGuide() const { return guide_; }
  DecodingController* controller() const { return controller_; }
  EngineWorker* worker() const { return worker_; }

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

 private:
  void createWidgets();
  void createMenus();
  void wire();
  void restoreSettings();
  void saveSettings();

  QString currentKey() const;
  void translate();
  /// The final beam and the recorded search of `sentence`, `steps` steps of it revealed (−1: all).
  void searchBeam(const QString& sentence, int steps);
  /// Translates the input again, if there is a sentence (after a change of model or search).
  void retranslate();
  bool startsNewSession() const;
  /// Whether the step keys step a beam's search (a beam above 1, a sentence and a model).
  bool stepsTheBeam() const;
  /// True when the beam view shows the search of the input already; else starts it with `steps`
  /// steps shown (−1: all) and returns false.
  bool beamHasSearchedTheInput(int steps);
  void stepForward();
  /// End: every step of the greedy session, or of the beam's search.
  void stepToEnd();
  void togglePlay();
  void requestCompare();
  void showHeads();
  void showError(const QString& message);
  const ExportTarget& shownExportTarget() const;
  void showModelStatus();
  // The other language pairs' models the Examples menu offers: (pair, key) each.
  QList<QPair<QString, QString>> otherPairChoices() const;
  // The compare grid shows the current model's pair.
  void followLanguagePair();
  void showModelInfoBox();
  void exportDialog();
  void openAttentionDialog();
  void applyColormap(const QString& name);

  QThread workerThread_;
  EngineWorker* worker_ = nullptr;  // lives on workerThread_
  DecodingController* controller_ = nullptr;
  ModelList* modelList_ = nullptr;

  HistoryLineEdit* source_ = nullptr;
  DecodingToolBar* toolBar_ = nullptr;
  ToolBarRows* toolBarRows_ = nullptr;  // the view toolbar below the decoding one when narrow
  QComboBox* models_ = nullptr;         // the toolbar's
  QTabWidget* tabs_ = nullptr;
  TranslationView* translation_ = nullptr;
  CompareView* compare_ = nullptr;
  HeadsView* heads_ = nullptr;
  CorpusView* corpus_ = nullptr;
  TrainView* train_ = nullptr;
  QAction* copyUnknown_ = nullptr;
  ExamplesMenu* examples_ = nullptr;
  QString comparePair_;  // the language pair whose models the compare grid shows
  QLabel* modelStatus_ = nullptr;
  UserGuideWindow* guide_ = nullptr;
};

}  // namespace attnscope::ui
