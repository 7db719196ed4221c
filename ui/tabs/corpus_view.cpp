#include "tabs/corpus_view.h"

#include <attnscope/corpus.h>
#include <attnscope/model_folders.h>
#include <attnscope/trainer.h>

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/app_settings.h"
#include "core/model_info_text.h"
#include "plots/length_plot.h"
#include "widgets/file_dialogs.h"
#include "workers/corpus_worker.h"

namespace attnscope::ui {
namespace {

// What the source and reference dialogs list: one sentence per line, any extension.
const char* const kTextFilter =
    "Text, one sentence per line (*.txt *.en *.de *.fr *.gz *);;All files (*)";

// The sentence table's columns, in order.
enum Column {
  kLine,
  kWords,
  kBleu,
  kLogProbability,
  kEntropy,
  kSink,
  kUnknown,
  kCopied,
  kSource,
  kTranslation,
  kReference,
  kColumns
};

// Numbers sort by value, not by their text: the sort role holds the value.
constexpr int kSortRole = Qt::UserRole + 1;

// Where a dialog for a file that sits beside `sibling` starts: its folder, with no file chosen
// (proposing the sibling itself would make Enter choose the wrong file).
QString folderOf(const QString& sibling) {
  return sibling.isEmpty() ? QString() : QFileInfo(sibling).absolutePath();
}

QStandardItem* numberItem(double value, int decimals) {
  auto* item = new QStandardItem(QString::number(value, 'f', decimals));
  item->setData(value, kSortRole);
  item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

// A figure the run has none of (no reference, no attention): blank, sorted below every number.
QStandardItem* missingItem() {
  auto* item = new QStandardItem(QStringLiteral("–"));
  item->setData(-std::numeric_limits<double>::infinity(), kSortRole);
  item->setTextAlignment(Qt::AlignCenter);
  return item;
}

QStandardItem* figureItem(const std::optional<double>& value, int decimals) {
  return value ? numberItem(*value, decimals) : missingItem();
}

QStandardItem* textItem(const QString& text) {
  auto* item = new QStandardItem(text);
  item->setData(text, kSortRole);
  item->setToolTip(text);  // the column may be narrower than the sentence
  return item;
}

QTableWidgetItem* metricItem(const QString& text) {
  auto* item = new QTableWidgetItem(text);
  item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

// The metrics table's columns; the faithfulness ones show when a run measured them.
constexpr int kLeakColumn = 3;
constexpr int kFirstFaithfulnessColumn = 8;
constexpr int kMetricColumns = 14;

// A faithfulness figure, or n/a with the reason as its tooltip (`why`: the model's own words).
QTableWidgetItem* faithfulnessItem(double value, const std::string& why, bool percent) {
  if (std::isnan(value)) {
    auto* item = metricItem(QObject::tr("n/a"));
    item->setToolTip(why.empty() ? QObject::tr("No step of these sentences had a figure")
                                 : QString::fromStdString(why));
    return item;
  }
  return metricItem(percent ? QString::number(100 * value, 'f', 1) + QLatin1Char('%')
                            : QString::number(value, 'f', 3));
}

// The sentences of a source file, for the estimate; −1 when it cannot be read or is too large to
// count in passing (its run reads it and says what is wrong).
int countLines(const QString& path) {
  constexpr qint64 kLargest = 32 * 1024 * 1024;
  if (path.isEmpty() || QFileInfo(path).size() > kLargest) return -1;
  try {
    return static_cast<int>(read_utf8_lines(path.toStdString()).size());
  } catch (const std::exception&) {
    return -1;
  }
}

QString shortName(const QString& path) {
  return path.isEmpty() ? QObject::tr("none") : QFileInfo(path).fileName();
}

}  // namespace

CorpusView::CorpusView(QWidget* parent) : QWidget(parent) {
  sourceLabel_ = new QLabel(this);
  referenceLabel_ = new QLabel(this);
  auto* chooseSource = new QPushButton(tr("Open source…"), this);
  auto* chooseReference = new QPushButton(tr("Open reference…"), this);
  clearReference_ = new QPushButton(tr("Clear reference"), this);
  clearReference_->setToolTip(
      tr("Run without a reference: the attention figures only (BLEU needs one)"));
  trainingTargetLabel_ = new QLabel(this);
  auto* chooseTrainingTarget = new QPushButton(tr("Open training target…"), this);
  chooseTrainingTarget->setToolTip(
      tr("The target side of the models' training corpus (train.de.gz for the shipped models): "
         "the Leak column counts output words that are source words it never has"));
  clearTrainingTarget_ = new QPushButton(tr("Clear training target"), this);
  clearTrainingTarget_->setToolTip(tr("Do not count source words left in the output"));
  modelList_ = new QListWidget(this);
  modelList_->setFlow(QListView::LeftToRight);
  modelList_->setWrapping(true);
  modelList_->setMaximumHeight(56);
  modelList_->setToolTip(tr("The models to run; all of them by default"));
  run_ = new QPushButton(tr("Run"), this);
  cancel_ = new QPushButton(tr("Cancel"), this);
  faithfulness_ = new QCheckBox(tr("Faithfulness (slow)"), this);
  faithfulness_->setToolTip(
      tr("Also test whether each model's attention explains its output: rank agreement with "
         "integrated gradients and leave-one-out, and how much the output moves when attention "
         "is permuted or made uniform. Many times the decoding's time: the estimate beside says "
         "how long at this computer's pace."));
  estimate_ = new QLabel(this);
  estimate_->setToolTip(
      tr("The Corpus tab decodes greedily, as attnscope-cli eval does without --beam: the "
         "toolbar's beam search applies to the Translation tab. The time is estimated from the "
         "pace the last runs measured on this computer."));
  progress_ = new QProgressBar(this);
  progress_->setRange(0, 1);
  progress_->setValue(0);
  status_ = new QLabel(this);
  // As wide as the row gives it, whatever it says: a label as wide as its text widened the page
  // past the window (a horizontal scroll bar, buttons cut off) and moved the bar beside it.
  status_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

  plot_ = new LengthPlot(this);
  metrics_ = new QTableWidget(0, kMetricColumns, this);
  metrics_->setHorizontalHeaderLabels({tr("Model"), tr("BLEU"), tr("<unk> lines"), tr("Leak"),
                                       tr("Entropy"), tr("</s> sink"), tr("Diagonality"),
                                       tr("Coverage"), tr("τ (IG)"), tr("τ (LOO)"), tr("TVD perm."),
                                       tr("TVD unif."), tr("Argmax perm."), tr("Argmax unif.")});
  const QStringList metricTips = {
      tr("The model"),
      tr("Corpus BLEU of its greedy translations against the reference"),
      tr("Translations with an <unk> left after copying source words"),
      tr("Share of output words left in the source language: words written in lowercase in the "
         "source and found nowhere in the training target text (open it above to measure)"),
      tr("Mean attention entropy per step, in nats: 0 looks at one word"),
      tr("Mean share of attention on </s> at the steps before the last"),
      tr("Mean |argmax position / source length − step / target length|: 0 on the diagonal"),
      tr("Mean |attention a source word receives in all − 1|: 0 when every word gets 1"),
      tr("Mean Kendall τ-b per step between the attention row and |integrated gradients| (from "
         "an all-zero source, 32 steps): 1 ranks the source words as the gradients do, 0 not at "
         "all"),
      tr("Mean Kendall τ-b per step between the attention row and |leave one out| (how much "
         "log p of the step's word drops without each source word)"),
      tr("Mean total variation distance of a step's output distribution from the model's own "
         "when that step's attention row is randomly permuted (10 permutations, the prefix "
         "forced): 0 unchanged, 1 nothing in common"),
      tr("The same when the step's attention is uniform over the source"),
      tr("Share of permuted steps whose most probable word changes"),
      tr("Share of uniform-attention steps whose most probable word changes")};
  for (int c = 0; c < metricTips.size(); ++c)
    metrics_->horizontalHeaderItem(c)->setToolTip(metricTips[c]);
  // Shown once a run measured them: until then the plot beside the table keeps their room.
  metrics_->setColumnHidden(kLeakColumn, true);
  for (int c = kFirstFaithfulnessColumn; c < kMetricColumns; ++c)
    metrics_->setColumnHidden(c, true);
  metrics_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  metrics_->verticalHeader()->setVisible(false);
  metrics_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  metrics_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);

  sentenceModel_ = new QComboBox(this);
  // As wide as the model it shows: "additive (en→fr)" is not cut to "additive" after a run.
  sentenceModel_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  filter_ = new QLineEdit(this);
  filter_->setPlaceholderText(tr("Filter sentences (source, translation or reference)"));
  filter_->setClearButtonEnabled(true);
  exportPlot_ = new QPushButton(tr("Export plot…"), this);
  exportTables_ = new QPushButton(tr("Export tables…"), this);
  rows_ = new QStandardItemModel(0, kColumns, this);
  rows_->setHorizontalHeaderLabels({tr("Line"), tr("Words"), tr("BLEU+1"), tr("Mean log p"),
                                    tr("Entropy"), tr("</s> sink"), tr("<unk>"), tr("Copied"),
                                    tr("Source"), tr("Translation"), tr("Reference")});
  proxy_ = new QSortFilterProxyModel(this);
  proxy_->setSourceModel(rows_);
  proxy_->setSortRole(kSortRole);
  proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  proxy_->setFilterKeyColumn(-1);  // the text columns; numbers rarely match a word
  sentences_ = new QTableView(this);
  sentences_->setModel(proxy_);
  sentences_->setSortingEnabled(true);
  sentences_->setWordWrap(false);  // one line per sentence, elided; more rows in view
  sentences_->setSelectionBehavior(QAbstractItemView::SelectRows);
  sentences_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  sentences_->verticalHeader()->setVisible(false);
  // Numbers as wide as they need, the two sentences share the rest (a tooltip shows them whole).
  sentences_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  sentences_->horizontalHeader()->setSectionResizeMode(kSource, QHeaderView::Stretch);
  sentences_->horizontalHeader()->setSectionResizeMode(kTranslation, QHeaderView::Stretch);
  sentences_->horizontalHeader()->setSectionResizeMode(kReference, QHeaderView::Stretch);
  sentences_->horizontalHeader()->setSortIndicator(kLine, Qt::AscendingOrder);
  sentences_->setToolTip(tr("Double-click a sentence to open it in the Translation tab"));
  // Rows to read in a small window too (the tab scrolls instead), with a horizontal scroll bar.
  sentences_->setMinimumHeight(sentences_->horizontalHeader()->sizeHint().height() +
                               7 * sentences_->verticalHeader()->defaultSectionSize() +
                               sentences_->horizontalScrollBar()->sizeHint().height() +
                               2 * sentences_->frameWidth());

  auto* files = new QGridLayout;
  files->addWidget(new QLabel(tr("Source:"), this), 0, 0);
  files->addWidget(sourceLabel_, 0, 1);
  files->addWidget(chooseSource, 0, 2);
  files->addWidget(new QLabel(tr("Reference:"), this), 1, 0);
  files->addWidget(referenceLabel_, 1, 1);
  files->addWidget(chooseReference, 1, 2);
  files->addWidget(clearReference_, 1, 3);
  files->addWidget(new QLabel(tr("Training target:"), this), 2, 0);
  files->addWidget(trainingTargetLabel_, 2, 1);
  files->addWidget(chooseTrainingTarget, 2, 2);
  files->addWidget(clearTrainingTarget_, 2, 3);
  files->setColumnStretch(1, 1);
  auto* runRow = new QHBoxLayout;
  runRow->addWidget(run_);
  runRow->addWidget(cancel_);
  runRow->addWidget(faithfulness_);
  runRow->addWidget(estimate_);
  runRow->addWidget(progress_, 1);
  runRow->addWidget(status_, 1);
  auto* measures = new QSplitter(Qt::Horizontal, this);
  measures->addWidget(plot_);
  measures->addWidget(metrics_);
  measures->setStretchFactor(0, 1);  // the plot takes what the table leaves
  measures->setStretchFactor(1, 0);
  auto* tableControls = new QHBoxLayout;
  tableControls->addWidget(new QLabel(tr("Sentences of"), this));
  tableControls->addWidget(sentenceModel_);
  tableControls->addWidget(filter_, 1);
  tableControls->addWidget(exportPlot_);
  tableControls->addWidget(exportTables_);
  auto* tablePane = new QWidget(this);
  auto* tableLayout = new QVBoxLayout(tablePane);
  tableLayout->setContentsMargins(0, 0, 0, 0);
  tableLayout->addLayout(tableControls);
  tableLayout->addWidget(sentences_, 1);
  auto* body = new QSplitter(Qt::Vertical, this);
  body->addWidget(measures);
  body->addWidget(tablePane);
  body->setStretchFactor(0, 2);
  body->setStretchFactor(1, 3);
  // A small window scrolls the tab rather than squeezing the plot and the table to nothing.
  auto* page = new QWidget(this);
  auto* layout = new QVBoxLayout(page);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(files);
  layout->addWidget(modelList_);
  layout->addLayout(runRow);
  layout->addWidget(body, 1);
  auto* scroll = new QScrollArea(this);
  scroll->setWidget(page);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  (new QVBoxLayout(this))->addWidget(scroll);

  worker_ = new CorpusWorker;
  worker_->moveToThread(&thread_);
  connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
  connect(worker_, &CorpusWorker::progress, this, &CorpusView::showProgress);
  connect(worker_, &CorpusWorker::evaluated, this,
          [this](quint64 generation, const CorpusReport& report) {
            if (generation == generation_) showResults(generation, report);
          });
  connect(worker_, &CorpusWorker::finished, this, &CorpusView::showReport);
  connect(worker_, &CorpusWorker::failed, this, &CorpusView::endRun);
  connect(worker_, &CorpusWorker::cancelled, this,
          [this](quint64 generation) { endRun(generation, QString()); });
  thread_.setObjectName(QStringLiteral("attnscope corpus"));
  thread_.start();

  connect(chooseSource, &QPushButton::clicked, this, &CorpusView::chooseSource);
  connect(chooseReference, &QPushButton::clicked, this, &CorpusView::chooseReference);
  connect(clearReference_, &QPushButton::clicked, this, [this] { setFiles(source_, QString()); });
  connect(chooseTrainingTarget, &QPushButton::clicked, this, &CorpusView::chooseTrainingTarget);
  connect(clearTrainingTarget_, &QPushButton::clicked, this,
          [this] { setTrainingTarget(QString()); });
  connect(run_, &QPushButton::clicked, this, &CorpusView::run);
  connect(cancel_, &QPushButton::clicked, this, &CorpusView::cancel);
  connect(modelList_, &QListWidget::itemChanged, this, &CorpusView::updateButtons);
  connect(modelList_, &QListWidget::itemChanged, this, &CorpusView::updateEstimate);
  connect(faithfulness_, &QCheckBox::toggled, this, &CorpusView::updateEstimate);
  connect(
      worker_, &CorpusWorker::paceMeasured, this,
      [this](quint64, bool faithfulness, double seconds, int sentences) {
        if (sentences < 20) return;  // too few to say the pace
        AppSettings settings;
        settings.setCorpusPace(settings.corpusPace().measured(faithfulness, seconds / sentences));
        updateEstimate();
      });
  connect(exportPlot_, &QPushButton::clicked, this, &CorpusView::exportPlotDialog);
  connect(exportTables_, &QPushButton::clicked, this, &CorpusView::exportTablesDialog);
  connect(sentenceModel_, &QComboBox::currentIndexChanged, this, &CorpusView::fillSentences);
  connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
  connect(sentences_, &QTableView::doubleClicked, this, &CorpusView::openRow);

  const AppSettings settings;
  setFiles(settings.corpusSource(), settings.corpusReference());
  setTrainingTarget(settings.corpusTrainingTarget());
}

CorpusView::~CorpusView() {
  worker_->cancel();  // a run stops after its current batch
  thread_.quit();
  thread_.wait();
}

namespace {
constexpr int kPathRole = Qt::UserRole;
constexpr int kPairRole = Qt::UserRole + 1;
}  // namespace

void CorpusView::setModels(const QList<QPair<QString, QString>>& models,
                           const QHash<QString, QString>& pairs) {
  modelList_->clear();
  // The reference's language, when its name ends in one that a listed model writes.
  QString language = QString::fromStdString(language_of_corpus_file(reference_.toStdString()));
  bool written = false;
  for (const QString& pair : pairs) written = written || pair.endsWith(QLatin1Char('-') + language);
  if (!written) language.clear();
  for (const auto& [key, path] : models) {
    const QString pair = pairs.value(key);
    const bool checked =
        pair.isEmpty() || (language.isEmpty() ? pair == QLatin1String(kDefaultLanguagePair)
                                              : pair.endsWith(QLatin1Char('-') + language));
    addModel(key, path, checked, pair);
  }
}

QString CorpusView::referenceLanguage() const {
  // A file's name is no proof of its language ("notes.md" is not Moldavian): a code counts only
  // when a listed model writes that language, so a name never unticks every model.
  const QString code = QString::fromStdString(language_of_corpus_file(reference_.toStdString()));
  for (int i = 0; i < modelList_->count(); ++i)
    if (modelList_->item(i)->data(kPairRole).toString().endsWith(QLatin1Char('-') + code))
      return code;
  return {};
}

void CorpusView::checkModelsInto(const QString& language) {
  for (int i = 0; i < modelList_->count(); ++i) {
    QListWidgetItem* item = modelList_->item(i);
    const QString pair = item->data(kPairRole).toString();
    if (!pair.isEmpty())
      item->setCheckState(pair.endsWith(QLatin1Char('-') + language) ? Qt::Checked : Qt::Unchecked);
  }
  updateButtons();
}

void CorpusView::addModel(const QString& key, const QString& path, bool checked,
                          const QString& pair) {
  auto* item = new QListWidgetItem(key, modelList_);
  item->setData(kPathRole, path);
  item->setData(kPairRole, pair);
  item->setToolTip(pair.isEmpty() ? path
                                  : QStringLiteral("%1 · %2").arg(languagePairText(pair), path));
  item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
  item->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
  updateButtons();
}

QString CorpusView::unsavedWork() const {
  return isRunning() ? tr("the Corpus run in progress") : QString();
}

void CorpusView::setFiles(const QString& source, const QString& reference) {
  const QString before = referenceLanguage();
  const bool newSource = source != source_;
  source_ = source;
  reference_ = reference;
  if (const QString language = referenceLanguage(); !language.isEmpty() && language != before)
    checkModelsInto(language);
  if (newSource || sourceLines_ < 0) sourceLines_ = countLines(source);
  sourceLabel_->setText(source.isEmpty() ? tr("no file: open one, one sentence per line") : source);
  referenceLabel_->setText(reference.isEmpty() ? tr("none (no BLEU)") : reference);
  AppSettings().setCorpusFiles(source, reference);
  // The tables stay until the next run: say whose they are, not the files named above.
  if (!report_.isEmpty() && !isRunning() &&
      (report_.sourcePath != source || report_.referencePath != reference))
    setStatus(tr("The figures below are the last run's (%1, reference %2): Run to measure "
                 "these files")
                  .arg(shortName(report_.sourcePath), shortName(report_.referencePath)));
  updateButtons();
  updateEstimate();
}

void CorpusView::setTrainingTarget(const QString& path) {
  trainingTarget_ = path;
  trainingTargetLabel_->setText(path.isEmpty() ? tr("none (no leak share)") : path);
  AppSettings().setCorpusTrainingTarget(path);
  updateButtons();
}

void CorpusView::chooseTrainingTarget() {
  const QString path =
      askOpenPath(this, AppSettings::Folder::Corpus,
                  tr("Open the target side of the training corpus"), tr(kTextFilter),
                  trainingTarget_.isEmpty() ? folderOf(reference_.isEmpty() ? source_ : reference_)
                                            : trainingTarget_);
  if (!path.isEmpty()) setTrainingTarget(path);
}

void CorpusView::chooseSource() {
  const QString path = askOpenPath(this, AppSettings::Folder::Corpus, tr("Open source sentences"),
                                   tr(kTextFilter), source_);
  if (!path.isEmpty()) setFiles(path, reference_);
}

void CorpusView::chooseReference() {
  const QString path =
      askOpenPath(this, AppSettings::Folder::Corpus, tr("Open reference translations"),
                  tr(kTextFilter), reference_.isEmpty() ? folderOf(source_) : reference_);
  if (!path.isEmpty()) setFiles(source_, path);
}

void CorpusView::updateButtons() {
  bool anyModel = false;
  for (int i = 0; i < modelList_->count(); ++i)
    anyModel = anyModel || modelList_->item(i)->checkState() == Qt::Checked;
  run_->setEnabled(!isRunning() && anyModel && !source_.isEmpty());
  // A greyed button says why.
  run_->setToolTip(isRunning()         ? tr("A run is in progress: Cancel it first")
                   : source_.isEmpty() ? tr("Open source sentences first")
                   : !anyModel         ? tr("Tick at least one model")
                                       : tr("Translate the source with each ticked model"));
  cancel_->setEnabled(isRunning());
  clearReference_->setEnabled(!reference_.isEmpty());
  clearTrainingTarget_->setEnabled(!trainingTarget_.isEmpty());
  exportPlot_->setEnabled(!report_.isEmpty() && report_.hasReferences());
  exportTables_->setEnabled(!report_.isEmpty());
}

void CorpusView::run() {
  if (isRunning() || source_.isEmpty()) return;
  CorpusRequest request;
  request.sourcePath = source_;
  request.referencePath = reference_;
  request.trainingTargetPath = trainingTarget_;
  request.faithfulness = faithfulness_->isChecked();
  request.pace = AppSettings().corpusPace();
  for (int i = 0; i < modelList_->count(); ++i) {
    const QListWidgetItem* item = modelList_->item(i);
    if (item->checkState() != Qt::Checked) continue;
    request.models << item->text();
    request.paths << item->data(kPathRole).toString();
  }
  if (request.models.isEmpty()) return;
  generation_ = worker_->nextGeneration();
  progress_->setRange(0, 1);
  progress_->setValue(0);
  setStatus(report_.isEmpty()
                ? tr("Reading %1…").arg(shortName(source_))
                : tr("Reading %1… (the tables show the last run until this one's first "
                     "model is done)")
                      .arg(shortName(source_)));
  runClock_.start();
  updateButtons();
  QMetaObject::invokeMethod(worker_,
                            [w = worker_, g = generation_, request] { w->run(g, request); });
}

void CorpusView::cancel() {
  if (!isRunning()) return;
  worker_->cancel();
  setStatus(tr("Cancelling…"));
}

void CorpusView::showProgress(quint64 generation, qint64 done, qint64 total, const QString& doing) {
  if (generation != generation_) return;
  // A bar's range is an int: a huge run's units are scaled down alike.
  const qint64 scale = std::max<qint64>(1, total / std::numeric_limits<int>::max() + 1);
  progress_->setRange(0, static_cast<int>(std::max<qint64>(1, total / scale)));
  progress_->setValue(static_cast<int>(done / scale));
  // Time left from the pace so far, once there is a pace to go by.
  const double elapsed = runClock_.isValid() ? runClock_.elapsed() / 1000.0 : 0.0;
  QString left;
  if (done > 0 && done < total && elapsed >= 3.0)
    left = tr(" · %1 left")
               .arg(durationText(elapsed * static_cast<double>(total - done) /
                                 static_cast<double>(done)));
  setStatus(doing + left);
}

void CorpusView::setStatus(const QString& text) {
  status_->setText(text);
  status_->setToolTip(text);  // whole, where the row cuts it
}

void CorpusView::updateEstimate() {
  int models = 0;
  for (int i = 0; i < modelList_->count(); ++i)
    models += modelList_->item(i)->checkState() == Qt::Checked ? 1 : 0;
  QString text = tr("Greedy search");
  if (sourceLines_ > 0 && models > 0) {
    const double seconds =
        AppSettings().corpusPace().runSeconds(sourceLines_, models, faithfulness_->isChecked());
    text += tr(" · %1: %2").arg(runSizeText(sourceLines_, models), durationText(seconds));
  }
  estimate_->setText(text);
}

void CorpusView::showReport(quint64 generation, const CorpusReport& report) {
  if (generation != generation_) return;
  generation_ = 0;
  progress_->setValue(progress_->maximum());
  setStatus(runSizeText(static_cast<qint64>(report.sources.size()), report.models.size()));
  showResults(generation, report);
  updateButtons();
  Q_EMIT runEnded();
}

void CorpusView::showResults(quint64 generation, const CorpusReport& report) {
  // A model finished during the run: the sentences the user is reading stay as they are (same
  // model, scroll, sort); another run's are replaced.
  const bool sameRun = generation == shownGeneration_;
  shownGeneration_ = generation;
  const QString chosen = sentenceModel_->currentText();
  report_ = report;
  plot_->setVisible(report.hasReferences());
  plot_->setEvaluations(report.models, report.evaluations);
  fillMetrics();
  {
    const QSignalBlocker block(sentenceModel_);
    sentenceModel_->clear();
    sentenceModel_->addItems(report.models.mid(0, static_cast<int>(report.evaluations.size())));
    if (sameRun) sentenceModel_->setCurrentText(chosen);
  }
  if (!sameRun || sentenceModel_->currentText() != chosen) fillSentences();
  updateButtons();
}

void CorpusView::endRun(quint64 generation, const QString& message) {
  if (generation != generation_) return;
  generation_ = 0;  // the bar stays where the run stopped
  const QString shown =
      shownGeneration_ == generation ? tr(" (the models it finished are shown)") : QString();
  setStatus((message.isEmpty() ? tr("Cancelled") : message) + shown);
  updateButtons();
  if (!message.isEmpty()) Q_EMIT errorOccurred(message);
  Q_EMIT runEnded();
}

void CorpusView::fillMetrics() {
  metrics_->setRowCount(0);
  for (size_t m = 0; m < report_.evaluations.size(); ++m) {
    const CorpusEvaluation& e = report_.evaluations[m];
    const int row = metrics_->rowCount();
    metrics_->insertRow(row);
    metrics_->setItem(row, 0, new QTableWidgetItem(report_.models.value(static_cast<int>(m))));
    const auto figure = [](bool known, double value) {
      return metricItem(known ? QString::number(value, 'f', 3) : QStringLiteral("–"));
    };
    metrics_->setItem(row, 1,
                      metricItem(report_.hasReferences() ? QString::number(e.bleu.bleu, 'f', 2)
                                                         : QStringLiteral("–")));
    const UnknownWordOutcome& unknown = e.unknown_words == UnknownWords::kCopy ? e.copy : e.keep;
    metrics_->setItem(row, 2, metricItem(QString::number(unknown.sentences_with_unknown)));
    auto* leak =
        metricItem(e.has_leak ? QString::number(unknown.leak.percent(), 'f', 2) + QLatin1Char('%')
                              : QStringLiteral("–"));
    leak->setToolTip(e.has_leak ? tr("%1 of %2 output words; %3 of %4 translations have one")
                                      .arg(unknown.leak.leaked_words)
                                      .arg(unknown.leak.output_words)
                                      .arg(unknown.leak.sentences_with_leak)
                                      .arg(e.sentences.size())
                                : tr("Open the training target above to measure it"));
    metrics_->setItem(row, kLeakColumn, leak);
    const AttentionMetrics& a = e.attention;
    metrics_->setItem(row, 4, figure(e.has_attention, a.mean_entropy()));
    metrics_->setItem(row, 5, figure(e.has_attention, a.mean_end_sink()));
    metrics_->setItem(row, 6, figure(e.has_attention, a.mean_diagonality()));
    metrics_->setItem(row, 7, figure(e.has_attention, a.mean_coverage_spread()));
    if (!e.has_attention)
      metrics_->item(row, 0)->setToolTip(tr("No attention: no attention figures"));
    if (m < report_.faithfulness.size()) {
      const ModelFaithfulness& f = report_.faithfulness[m];
      int c = kFirstFaithfulnessColumn;
      metrics_->setItem(row, c++, faithfulnessItem(f.ig.mean_tau(), f.ig.unavailable, false));
      metrics_->setItem(row, c++, faithfulnessItem(f.loo.mean_tau(), f.loo.unavailable, false));
      metrics_->setItem(row, c++,
                        faithfulnessItem(f.permuted.mean_tvd(), f.permuted.unavailable, false));
      metrics_->setItem(row, c++,
                        faithfulnessItem(f.uniform.mean_tvd(), f.uniform.unavailable, false));
      metrics_->setItem(
          row, c++,
          faithfulnessItem(f.permuted.argmax_changed_share(), f.permuted.unavailable, true));
      metrics_->setItem(
          row, c++,
          faithfulnessItem(f.uniform.argmax_changed_share(), f.uniform.unavailable, true));
    }
  }
  metrics_->setColumnHidden(kLeakColumn, !report_.hasLeak());
  for (int c = kFirstFaithfulnessColumn; c < kMetricColumns; ++c)
    metrics_->setColumnHidden(c, !report_.hasFaithfulness());
  // The whole table in view: the plot beside it gives way, not the figures.
  metrics_->resizeColumnsToContents();
  metrics_->setMinimumWidth(metrics_->horizontalHeader()->length() + 2 * metrics_->frameWidth() +
                            metrics_->verticalScrollBar()->sizeHint().width());
  // And every model's row, up to nine (a pair's seven and two more): without a reference there
  // is no plot to hold the pane open, and the table showed two rows; the sentences give way.
  int height = metrics_->horizontalHeader()->sizeHint().height() + 2 * metrics_->frameWidth();
  for (int row = 0; row < std::min(metrics_->rowCount(), 9); ++row)
    height += metrics_->rowHeight(row);
  metrics_->setMinimumHeight(height);
}

void CorpusView::fillSentences() {
  rows_->removeRows(0, rows_->rowCount());
  const int m = sentenceModel_->currentIndex();
  if (m < 0 || static_cast<size_t>(m) >= report_.evaluations.size()) return;
  const CorpusEvaluation& e = report_.evaluations[static_cast<size_t>(m)];
  sentences_->setSortingEnabled(false);  // one sort after all rows, not one per row
  for (size_t i = 0; i < e.sentences.size(); ++i) {
    const SentenceEvaluation& s = e.sentences[i];
    const SentenceFigures f = sentenceFigures(report_, e, s);
    QList<QStandardItem*> row;
    row << numberItem(static_cast<double>(i + 1), 0)
        << numberItem(static_cast<double>(s.source_words), 0) << figureItem(f.bleu, 2)
        << numberItem(s.mean_log_probability, 3) << figureItem(f.entropy, 3)
        << figureItem(f.sink, 3) << numberItem(static_cast<double>(s.unknown), 0)
        << numberItem(static_cast<double>(s.copied), 0)
        << textItem(QString::fromStdString(report_.sources.at(i)))
        << textItem(i < e.translations.size() ? QString::fromStdString(e.translations[i].text())
                                              : QString())
        << (report_.hasReferences() && i < report_.references.size()
                ? textItem(QString::fromStdString(report_.references[i]))
                : missingItem());
    rows_->appendRow(row);
  }
  sentences_->setSortingEnabled(true);
}

void CorpusView::openRow(const QModelIndex& index) {
  if (!index.isValid()) return;
  const QModelIndex source = proxy_->mapToSource(index);
  const QString sentence = rows_->item(source.row(), kSource)->text();
  Q_EMIT openSentence(sentenceModel_->currentText(), sentence);
}

void CorpusView::exportPlot(const QString& path, const ExportOptions& options) const {
  if (report_.isEmpty() || !report_.hasReferences())
    throw std::runtime_error("cannot export '" + path.toStdString() +
                             "': no BLEU by length yet (run with a reference first)");
  ::attnscope::ui::exportPlot(plot_, path, options);
}

void CorpusView::exportTables(const QString& path) const {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix != QStringLiteral("csv") && suffix != QStringLiteral("json"))
    throw std::runtime_error("cannot export '" + path.toStdString() +
                             "': unknown table type (use .csv or .json)");
  if (report_.isEmpty())
    throw std::runtime_error("cannot export '" + path.toStdString() + "': nothing was run yet");
  saveExport(path, suffix == QStringLiteral("csv") ? corpusToCsv(report_) : corpusToJson(report_));
}

QSize CorpusView::exportSize() const { return plot_->size(); }

QString CorpusView::nothingToExport() const {
  return report_.isEmpty() ? tr("Nothing to export yet: run a test set first.") : QString();
}

void CorpusView::exportTo(const QString& path, const ExportOptions& options) const {
  const auto format = exportFormatFor(path);
  if (format && !isPicture(*format))
    exportTables(path);
  else
    exportPlot(path, options);
}

void CorpusView::exportPlotDialog() {
  const QString path =
      askSavePath(this, AppSettings::Folder::Export, tr("Export BLEU by length"),
                  QStringLiteral("bleu-by-length.png"),
                  tr("PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg)"));
  if (path.isEmpty()) return;
  try {
    ExportOptions options;
    options.size = plot_->size();
    exportPlot(path, options);
  } catch (const std::exception& e) {
    Q_EMIT errorOccurred(QString::fromStdString(e.what()));
  }
}

void CorpusView::exportTablesDialog() {
  const QString path =
      askSavePath(this, AppSettings::Folder::Export, tr("Export tables"),
                  QStringLiteral("corpus.csv"), tr("CSV table (*.csv);;JSON (*.json)"));
  if (path.isEmpty()) return;
  try {
    exportTables(path);
  } catch (const std::exception& e) {
    Q_EMIT errorOccurred(QString::fromStdString(e.what()));
  }
}

}  // namespace attnscope::ui
