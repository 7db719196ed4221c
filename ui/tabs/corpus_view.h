#pragma once
// The Corpus tab: a test set translated by several models at once, measured as a whole (BLEU by
// source length, the attention figures per model, and on request whether attention explains the
// output) and sentence by sentence, in a sortable, filterable table whose rows open in the
// Translation tab.
#include <QElapsedTimer>
#include <QHash>
#include <QPair>
#include <QThread>
#include <QWidget>

#include "core/corpus_report.h"
#include "core/guide_section.h"
#include "render/export_target.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTableView;
class QTableWidget;

namespace attnscope::ui {

class CorpusWorker;
class LengthPlot;

class CorpusView : public QWidget, public ExportTarget, public GuideSection {
  Q_OBJECT
 public:
  explicit CorpusView(QWidget* parent = nullptr);
  ~CorpusView() override;

  /// The models a run can use (key as the app lists it, model file) and each key's language
  /// pair ("en-fr"). Checked: those of the reference's pair (its file name's language, as
  /// test.fr.gz says fr), else of the default pair (English→German).
  void setModels(const QList<QPair<QString, QString>>& models,
                 const QHash<QString, QString>& pairs = {});
  /// One more model, checked unless `checked` is false (a toy model trained in the Train tab).
  void addModel(const QString& key, const QString& path, bool checked = true,
                const QString& pair = QString());
  /// The test set; `reference` may be empty (then no BLEU). A reference in another language
  /// than the last checks the models of that language's pair instead (the others unchecked).
  void setFiles(const QString& source, const QString& reference);
  /// The target side of the models' training corpus; empty: the leak share is not measured.
  void setTrainingTarget(const QString& path);
  /// Runs the checked models on the files, as the Run button does.
  void run();
  void cancel();
  bool isRunning() const { return generation_ != 0; }
  /// What closing the window would lose, for its question (discard_question.h): the run in
  /// progress; empty when none runs.
  QString unsavedWork() const;
  const CorpusReport& report() const { return report_; }
  /// The plot as PNG, SVG or PDF; the tables as CSV or JSON (corpus_report.h). Throw
  /// std::runtime_error naming the path.
  void exportPlot(const QString& path, const ExportOptions& options) const;
  void exportTables(const QString& path) const;
  /// File > Export: the tables as CSV or JSON, the plot as a picture.
  QSize exportSize() const override;
  QString nothingToExport() const override;
  void exportTo(const QString& path, const ExportOptions& options) const override;
  QString guideSection() const override { return QStringLiteral("app.md#corpus-tab"); }

  // The widgets, for tests.
  LengthPlot* plot() const { return plot_; }
  QTableWidget* metricsTable() const { return metrics_; }
  QTableView* sentenceTable() const { return sentences_; }
  QSortFilterProxyModel* sentenceRows() const { return proxy_; }
  QComboBox* sentenceModelBox() const { return sentenceModel_; }
  QLineEdit* filterEdit() const { return filter_; }
  QListWidget* modelList() const { return modelList_; }
  QProgressBar* progressBar() const { return progress_; }
  QPushButton* runButton() const { return run_; }
  QPushButton* cancelButton() const { return cancel_; }
  QCheckBox* faithfulnessBox() const { return faithfulness_; }
  QLabel* estimateLabel() const { return estimate_; }
  QLabel* statusLabel() const { return status_; }

 Q_SIGNALS:
  /// A row of the sentence table was double-clicked: show this source line with this model.
  void openSentence(const QString& modelKey, const QString& sentence);
  /// A run ended: finished (report() holds it), cancelled or failed.
  void runEnded();
  void errorOccurred(const QString& message);

 private:
  void chooseSource();
  void chooseReference();
  void chooseTrainingTarget();
  void exportPlotDialog();
  void exportTablesDialog();
  void updateButtons();
  void showProgress(quint64 generation, qint64 done, qint64 total, const QString& doing);
  // What a run of the checked models takes here: the search and the time it will take.
  void updateEstimate();
  void setStatus(const QString& text);
  void showReport(quint64 generation, const CorpusReport& report);
  // The models of `generation` finished so far (all of them once it ends), shown as they come.
  void showResults(quint64 generation, const CorpusReport& report);
  void endRun(quint64 generation, const QString& message);
  void fillMetrics();
  void fillSentences();
  void openRow(const QModelIndex& index);

  QThread thread_;
  CorpusWorker* worker_ = nullptr;  // lives on thread_
  quint64 generation_ = 0;          // of the running request; 0 when none runs
  quint64 shownGeneration_ = 0;     // of the run whose results are shown
  // The target language the reference's file name says ("fr"), or "" when it says none.
  QString referenceLanguage() const;
  // Checks the models translating into `language` (those whose pair is known), unchecks the rest.
  void checkModelsInto(const QString& language);

  QString source_, reference_, trainingTarget_;
  int sourceLines_ = -1;    // the source's sentences, for the estimate; −1: not known
  QElapsedTimer runClock_;  // since the running request started
  CorpusReport report_;

  QLabel* sourceLabel_ = nullptr;
  QLabel* referenceLabel_ = nullptr;
  QPushButton* clearReference_ = nullptr;
  QLabel* trainingTargetLabel_ = nullptr;
  QPushButton* clearTrainingTarget_ = nullptr;
  QListWidget* modelList_ = nullptr;
  QPushButton* run_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QCheckBox* faithfulness_ = nullptr;  // the slow measures too
  QProgressBar* progress_ = nullptr;
  QLabel* status_ = nullptr;
  QLabel* estimate_ = nullptr;  // "Greedy search · about 4 min"
  LengthPlot* plot_ = nullptr;
  QTableWidget* metrics_ = nullptr;
  QComboBox* sentenceModel_ = nullptr;
  QLineEdit* filter_ = nullptr;
  QPushButton* exportPlot_ = nullptr;
  QPushButton* exportTables_ = nullptr;
  QStandardItemModel* rows_ = nullptr;
  QSortFilterProxyModel* proxy_ = nullptr;
  QTableView* sentences_ = nullptr;
};

}  // namespace attnscope::ui
