#include "main_window.h"

#include <attnscope/model_catalog.h>
#include <attnscope/translator.h>

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QCursor>
#include <QDragEnterEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>

#include "attention_file_dialog.h"
#include "attention_view_controls.h"
#include "colormaps.h"
#include "compare_view.h"
#include "copied_words.h"
#include "corpus_view.h"
#include "decoding_controller.h"
#include "export_size_dialog.h"
#include "heads_view.h"
#include "heatmap_plot.h"
#include "history_line_edit.h"
#include "length_plot.h"
#include "snapshot_view.h"
#include "step_panel.h"
#include "train_view.h"

namespace attnscope::ui {
namespace {

// The pages of the tab widget and the entries of the search box, in the order they are added.
enum class Tab { Translation = 0, Compare = 1, Heads = 2, Corpus = 3, Train = 4 };
enum class Search { Greedy = 0, Beam = 1 };

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  setWindowTitle(tr("attnscope"));
  setWindowIcon(QIcon(QStringLiteral(":/attnscope.svg")));
  setAcceptDrops(true);
  worker_ = new EngineWorker;
  worker_->moveToThread(&workerThread_);
  connect(&workerThread_, &QThread::finished, worker_, &QObject::deleteLater);
  workerThread_.start();
  // One sentence at a time is a chain of small, memory-bound operations: a second OpenMP thread
  // only spins. Measured with attnscope-gui-bench: translate + redraw 17 ms with one thread on
  // the worker, against 40 ms to over a second with two while the machine is busy.
  post([] { set_thread_count(1); });
  controller_ = new DecodingController(worker_, this);
  connect(controller_, &DecodingController::snapshotChanged, this, &MainWindow::showSnapshot);
  connect(controller_, &DecodingController::beamReady, this, &MainWindow::showBeam);
  connect(worker_, &EngineWorker::errorOccurred, this, &MainWindow::showError);
  connect(worker_, &EngineWorker::modelsFound, this, &MainWindow::listModels);
  connect(worker_, &EngineWorker::modelFileRead, this, &MainWindow::addModelFile);
  connect(worker_, &EngineWorker::modelFileFailed, this,
          [this](const QString& /*path*/, const QString& message) {
            --openingFiles_;
            showError(message);
            runDeferred();
          });
  connect(worker_, &EngineWorker::modelLoaded, this,
          [this](const QString& key, const ModelInfo& info) {
            infos_.insert(key, info);
            if (key == currentKey()) showModelInfo();
          });
  connect(worker_, &EngineWorker::compareProgress, this,
          [this](quint64 generation, int done, int total) {
            if (generation == compareGeneration_)
              compare_->setStatus(tr("Decoding with %1 of %2 models…").arg(done).arg(total));
          });
  connect(worker_, &EngineWorker::compareReady, this,
          [this](quint64 generation, const CompareResult& result) {
            if (generation != compareGeneration_) return;
            compare_->setResult(result);
            Q_EMIT compareUpdated();
          });
  createWidgets();
  createActions();
  restoreSettings();
  post([w = worker_] { w->findModels(); });  // file system access, so not on this thread
  source_->setFocus();
}

MainWindow::~MainWindow() {
  worker_->cancel(EngineWorker::Channel::Main);
  worker_->cancel(EngineWorker::Channel::Compare);
  workerThread_.quit();
  workerThread_.wait();
}

template <typename Call>
void MainWindow::post(Call&& call) {
  QMetaObject::invokeMethod(worker_, std::forward<Call>(call), Qt::QueuedConnection);
}

void MainWindow::createWidgets() {
  source_ = new HistoryLineEdit(this);
  source_->setPlaceholderText(tr("Type an English sentence and press Enter"));
  source_->setClearButtonEnabled(true);
  models_ = new QComboBox(this);
  models_->setToolTip(tr("The model: a shipped score function, or a model file you opened"));
  models_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  search_ = new QComboBox(this);
  search_->addItems({tr("Greedy"), tr("Beam")});
  beam_ = new QSpinBox(this);
  beam_->setRange(2, 20);
  beam_->setValue(5);
  beam_->setPrefix(tr("beam "));
  beam_->setEnabled(false);
  speed_ = new QSlider(Qt::Horizontal, this);
  speed_->setRange(1, 20);  // steps per second
  speed_->setValue(4);
  speed_->setMaximumWidth(120);
  speed_->setToolTip(tr("Play speed: steps per second"));
  colormaps_ = new QComboBox(this);
  colormaps_->addItems(colormapNames());
  values_ = new QCheckBox(tr("Numbers"), this);

  heatmap_ = new HeatmapPlot(this);
  heatmap_->setFocusPolicy(Qt::StrongFocus);
  heatmap_->installEventFilter(this);  // typing there starts a new sentence
  stepPanel_ = new StepPanel(this);
  beamList_ = new QListWidget(this);
  beamList_->setVisible(false);
  beamList_->setToolTip(tr("The final beam, best first: choose one to see its heatmap"));
  output_ = new QLabel(this);
  output_->setWordWrap(true);
  output_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
  output_->setTextFormat(Qt::RichText);
  // Copied words are links only to say where they came from when the mouse is on them.
  connect(output_, &QLabel::linkHovered, this, [this](const QString& link) {
    const QString note = copyNoteOfLink(shown_, link);
    if (note.isEmpty())
      QToolTip::hideText();
    else
      QToolTip::showText(QCursor::pos(), note, output_);
  });
  QFont big = output_->font();
  big.setPointSizeF(big.pointSizeF() * 1.25);
  output_->setFont(big);

  auto* side = new QWidget(this);
  auto* sideLayout = new QVBoxLayout(side);
  sideLayout->setContentsMargins(0, 0, 0, 0);
  sideLayout->addWidget(beamList_);
  sideLayout->addWidget(stepPanel_, 1);
  auto* splitter = new QSplitter(this);
  splitter->setObjectName(QStringLiteral("mainSplitter"));
  splitter->addWidget(heatmap_);
  splitter->addWidget(side);
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 1);
  viewControls_ = new AttentionViewControls(this);
  auto* single = new QWidget(this);
  auto* singleLayout = new QVBoxLayout(single);
  singleLayout->addWidget(output_);
  singleLayout->addWidget(viewControls_);
  singleLayout->addWidget(splitter, 1);

  compare_ = new CompareView(this);
  tabs_ = new QTabWidget(this);
  tabs_->addTab(single, tr("Translation"));
  tabs_->addTab(compare_, tr("Compare all"));
  heads_ = new HeadsView(this);
  tabs_->addTab(heads_, tr("Compare heads"));
  tabs_->setTabEnabled(static_cast<int>(Tab::Heads), false);  // until a model has several
  tabs_->setTabToolTip(static_cast<int>(Tab::Heads),
                       tr("Every head of one layer, for models with several heads"));
  corpus_ = new CorpusView(this);
  tabs_->addTab(corpus_, tr("Corpus"));
  tabs_->setTabToolTip(static_cast<int>(Tab::Corpus),
                       tr("A test set through several models: BLEU by length, attention figures"));
  train_ = new TrainView(this);
  tabs_->addTab(train_, tr("Train"));
  tabs_->setTabToolTip(static_cast<int>(Tab::Train),
                       tr("Train a model and watch its attention form, batch by batch"));

  auto* inputRow = new QHBoxLayout;
  auto* translateButton = new QPushButton(tr("Translate"), this);
  inputRow->addWidget(source_, 1);
  inputRow->addWidget(translateButton);
  auto* central = new QWidget(this);
  auto* layout = new QVBoxLayout(central);
  layout->addLayout(inputRow);
  layout->addWidget(tabs_, 1);
  setCentralWidget(central);
  modelStatus_ = new QLabel(this);
  statusBar()->addPermanentWidget(modelStatus_);

  connect(source_, &QLineEdit::returnPressed, this, &MainWindow::translate);
  connect(translateButton, &QPushButton::clicked, this, &MainWindow::translate);
  connect(models_, &QComboBox::currentIndexChanged, this, [this] {
    showModelInfo();
    if (!source_->text().trimmed().isEmpty()) translate();  // switching re-translates at once
  });
  connect(search_, &QComboBox::currentIndexChanged, this, [this](int index) {
    beam_->setEnabled(static_cast<Search>(index) == Search::Beam);
    if (!source_->text().trimmed().isEmpty()) translate();
  });
  connect(beam_, &QSpinBox::valueChanged, this, [this] {
    if (!source_->text().trimmed().isEmpty()) translate();
  });
  connect(colormaps_, &QComboBox::currentTextChanged, this, &MainWindow::applyColormap);
  connect(values_, &QCheckBox::toggled, this, [this](bool on) {
    heatmap_->setShowValues(on);
    compare_->setShowValues(on);
    heads_->setShowValues(on);
  });
  connect(speed_, &QSlider::valueChanged, this,
          [this](int perSecond) { controller_->setPlayInterval(1000 / perSecond); });
  controller_->setPlayInterval(1000 / speed_->value());
  connect(controller_, &DecodingController::playingChanged, this,
          [this](bool playing) { playAction_->setText(playing ? tr("⏸ Pause") : tr("▶ Play")); });
  connect(viewControls_, &AttentionViewControls::changed, this, [this] {
    drawTranslation(shown_, shownKey_);
    if (beamHypotheses_.isEmpty())
      showSelectedStep();
    else
      heatmap_->setCurrentRow(-1);
    Q_EMIT heatmapUpdated();
  });
  connect(heatmap_, &HeatmapPlot::rowClicked, this, [this](int row) {
    controller_->setSelectedRow(heatmap_->matrix().lastStepOf(row));
    showSelectedStep();
  });
  connect(stepPanel_, &StepPanel::candidateChosen, this, &MainWindow::force);
  connect(beamList_, &QListWidget::currentRowChanged, this, &MainWindow::showHypothesis);
  connect(tabs_, &QTabWidget::currentChanged, this, [this](int index) {
    if (static_cast<Tab>(index) == Tab::Compare) requestCompare();
  });
  connect(compare_, &CompareView::compareRequested, this, &MainWindow::requestCompare);
  connect(corpus_, &CorpusView::errorOccurred, this, &MainWindow::showError);
  connect(train_, &TrainView::errorOccurred, this, &MainWindow::showError);
  connect(train_, &TrainView::openModel, this, [this](const QString& path) {
    showCompare(false);  // the Translation tab, where the model is selected once it is read
    openModelFile(path);
  });
  connect(corpus_, &CorpusView::openSentence, this,
          [this](const QString& key, const QString& sentence) {
            models_->setCurrentText(key);
            showCompare(false);
            translateSentence(sentence);
          });
}

void MainWindow::createActions() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* open = file->addAction(tr("&Open model…"), this, [this] {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open model"), QString(),
        tr("attnscope models (*.attnmodel);;TorchScript models (*.pt *.pth);;All files (*)"));
    if (!path.isEmpty()) openModelFile(path);
  });
  open->setShortcut(QKeySequence::Open);
  file->addAction(tr("Open &attention…"), QKeySequence(tr("Ctrl+Shift+O")), this,
                  &MainWindow::openAttentionDialog);
  QAction* exportAction = file->addAction(tr("&Export…"), this, &MainWindow::exportDialog);
  exportAction->setShortcut(QKeySequence(tr("Ctrl+E")));
  exportAction->setObjectName(QStringLiteral("exportAction"));
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

  QMenu* examplesMenu = menuBar()->addMenu(tr("E&xamples"));
  QFile examples(QStringLiteral(":/examples.txt"));
  if (examples.open(QIODevice::ReadOnly | QIODevice::Text))
    for (const QString& line :
         QString::fromUtf8(examples.readAll()).split('\n', Qt::SkipEmptyParts))
      examplesMenu->addAction(line, this, [this, line] { translateSentence(line); });

  QToolBar* bar = addToolBar(tr("Decoding"));
  bar->setObjectName(QStringLiteral("decodingToolBar"));
  bar->addWidget(new QLabel(tr(" Model: "), this));
  bar->addWidget(models_);
  bar->addSeparator();
  bar->addWidget(search_);
  bar->addWidget(beam_);
  bar->addSeparator();
  auto addStepAction = [&](const QString& text, const QKeySequence& key, auto slot,
                           const char* name) {
    QAction* action = bar->addAction(text, this, slot);
    action->setShortcut(key);
    action->setToolTip(QStringLiteral("%1 (%2)").arg(text, key.toString(QKeySequence::NativeText)));
    action->setObjectName(QLatin1String(name));
    return action;
  };
  addStepAction(
      tr("Reset"), QKeySequence(Qt::Key_Home), [this] { controller_->rewind(); }, "resetAction");
  addStepAction(
      tr("◀ Back"), QKeySequence(Qt::Key_Left), [this] { controller_->stepBack(); },
      "stepBackAction");
  playAction_ = addStepAction(tr("▶ Play"), QKeySequence(Qt::Key_Space), &MainWindow::togglePlay,
                              "playAction");
  addStepAction(tr("Step ▶"), QKeySequence(Qt::Key_Right), &MainWindow::stepForward,
                "stepForwardAction");
  bar->addWidget(speed_);
  bar->addSeparator();
  bar->addWidget(new QLabel(tr(" Colours: "), this));
  bar->addWidget(colormaps_);
  bar->addWidget(values_);

  QMenu* view = menuBar()->addMenu(tr("&View"));
  view->addAction(tr("Reset &zoom"), QKeySequence(tr("Ctrl+0")), this,
                  [this] { heatmap_->resetView(); });
  view->addAction(tr("&Compare all score functions"), QKeySequence(tr("Ctrl+K")), this,
                  [this] { showCompare(static_cast<Tab>(tabs_->currentIndex()) != Tab::Compare); });
  view->addSeparator();
  copyUnknown_ = view->addAction(tr("Copy &unknown words from the source"));
  copyUnknown_->setCheckable(true);
  copyUnknown_->setChecked(true);
  copyUnknown_->setToolTip(
      tr("Replace each <unk> the model emits by the source word its attention weighs most"));
  connect(copyUnknown_, &QAction::toggled, this, [this](bool copy) {
    post([w = worker_, copy] {
      w->setUnknownWords(copy ? UnknownWords::kCopy : UnknownWords::kKeep);
    });
    if (!source_->text().trimmed().isEmpty()) translate();
  });
  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&Model info"), QKeySequence(tr("Ctrl+I")), this, [this] {
    const auto it = infos_.find(currentKey());
    if (it == infos_.end()) return;
    const ModelInfo& m = *it;
    if (m.format == "torchscript") {
      QMessageBox::information(this, tr("Model %1").arg(currentKey()), torchScriptInfo(m));
      return;
    }
    QMessageBox::information(
        this, tr("Model %1").arg(currentKey()),
        tr("Score function: %1\nLanguages: %2 → %3\nEmbedding %4, hidden %5, vocabularies %6 / %7\n"
           "Parameters: %8\nFile: %9 (%10 MB)\nTrained on: %11, %12 epochs (best: %13), %14 min\n"
           "Validation BLEU: %15\nTest BLEU (%16): greedy %17, beam 5 %18")
            // One multi-argument arg(): the languages, path and corpora are the file's text, and
            // a chained arg() would replace a "%9" inside them.
            .arg(QString::fromStdString(m.config.score),
                 QString::fromStdString(m.config.source_language),
                 QString::fromStdString(m.config.target_language),
                 QString::number(m.config.embedding), QString::number(m.config.hidden),
                 QString::number(m.config.source_vocab),
                 QString::number(m.config.target_vocab) +
                     (m.subwords.empty()           ? QString()
                      : m.subwords == "characters" ? tr(" characters (a character model)")
                                                   : tr(" SentencePiece pieces (a subword model)")),
                 QString::number(m.parameters), QString::fromStdString(m.path),
                 QString::number(m.file_bytes / 1e6, 'f', 1),
                 QString::fromStdString(m.training.corpus), QString::number(m.training.epochs),
                 QString::number(m.training.best_epoch),
                 QString::number(m.training.seconds / 60.0, 'f', 0),
                 QString::number(m.training.validation_bleu, 'f', 2),
                 QString::fromStdString(m.training.test_corpus),
                 QString::number(m.training.test_bleu, 'f', 2),
                 QString::number(m.training.test_bleu_beam5, 'f', 2)));
  });
  help->addAction(tr("&About attnscope"), this, [this] {
    QMessageBox::about(this, tr("About attnscope"),
                       tr("attnscope %1: attention in neural machine translation, made visible.")
                           .arg(QApplication::applicationVersion()));
  });
}

void MainWindow::listModels(const QStringList& keys) {
  modelsListed_ = true;
  {
    const QSignalBlocker block(models_);
    models_->insertItems(0, keys);  // before any model file opened meanwhile
  }
  compare_->setModels(keys);
  QList<QPair<QString, QString>> files;
  for (const QString& key : keys) {
    try {  // the worker found them a moment ago; one removed since is left out
      files << qMakePair(key, QString::fromStdString(resolve_model(key.toStdString())));
    } catch (const std::exception&) {
    }
  }
  corpus_->setModels(files);
  if (keys.isEmpty())
    statusBar()->showMessage(tr("No shipped models found: open one with File > Open model"));
  runDeferred();
  showModelInfo();
  if (static_cast<Tab>(tabs_->currentIndex()) == Tab::Compare) requestCompare();
}

void MainWindow::whenReady(std::function<void()> call) {
  if (ready())
    call();
  else
    deferred_ << std::move(call);
}

void MainWindow::runDeferred() {
  if (!ready()) return;
  const QList<std::function<void()>> calls = std::move(deferred_);
  deferred_.clear();
  for (const auto& call : calls) call();
}

QString MainWindow::currentKey() const { return models_->currentText(); }

int MainWindow::beamSize() const {
  return static_cast<Search>(search_->currentIndex()) == Search::Beam ? beam_->value() : 1;
}

void MainWindow::selectModel(const QString& key) {
  whenReady([this, key] { models_->setCurrentText(key); });
}

void MainWindow::runCorpus(const QString& source, const QString& reference) {
  tabs_->setCurrentWidget(corpus_);
  corpus_->setFiles(source, reference);
  whenReady([this] { corpus_->run(); });
}

void MainWindow::showCompare(bool compare) {
  tabs_->setCurrentIndex(static_cast<int>(compare ? Tab::Compare : Tab::Translation));
}

void MainWindow::translateSentence(const QString& sentence) {
  source_->setText(sentence);
  translate();
}

void MainWindow::stepSentence(const QString& sentence, int steps) {
  source_->setText(sentence);
  if (!ready()) {
    deferred_ << [this, sentence, steps] { stepSentence(sentence, steps); };
    return;
  }
  source_->addToHistory(sentence);
  controller_->start(currentKey(), sentence, steps);
  heatmap_->setFocus();
}

void MainWindow::translate() {
  if (!ready()) {
    deferred_ << [this] { translate(); };
    return;
  }
  const QString sentence = source_->text();
  if (currentKey().isEmpty()) {
    controller_->clear();
    showError(tr("No model: open one with File > Open model"));
    return;
  }
  source_->addToHistory(sentence);
  if (sentence.trimmed().isEmpty()) {  // nothing to translate: an empty view, not an error
    controller_->clear();
    heatmap_->setMatrix({});
    output_->clear();
    stepPanel_->showStep(nullptr, 0, {});
    Q_EMIT heatmapUpdated();
    return;
  }
  const int beam = beamSize();
  if (beam > 1)
    controller_->translateBeam(currentKey(), sentence, beam);
  else
    controller_->start(currentKey(), sentence);
  if (static_cast<Tab>(tabs_->currentIndex()) == Tab::Compare) requestCompare();
  heatmap_->setFocus();  // so → ← Space Home step at once
}

bool MainWindow::startsNewSession() const {
  return !source_->text().trimmed().isEmpty() &&
         !controller_->isSessionOf(currentKey(), source_->text());
}

void MainWindow::stepForward() {
  // A sentence typed but not translated yet (or a beam shown) starts stepping from its first step.
  if (startsNewSession())
    controller_->start(currentKey(), source_->text(), 1);
  else
    controller_->stepForward();
}

void MainWindow::togglePlay() {
  if (startsNewSession()) controller_->start(currentKey(), source_->text(), 0);
  controller_->togglePlay();
}

void MainWindow::force(const QString& token) { controller_->force(controller_->shownRow(), token); }

void MainWindow::showSnapshot() {
  const SessionSnapshot& snapshot = *controller_->snapshot();
  beamHypotheses_.clear();
  beamList_->clear();
  beamList_->setVisible(false);
  const QString label = snapshot.modelKey;
  // While stepping, leave room for about as many rows as the source has, so rows keep their size.
  heatmap_->setReservedRows(
      snapshot.finished ? 0 : static_cast<int>(snapshot.translation.source.tokens.size()));
  drawTranslation(snapshot.translation, snapshot.modelKey);
  QString text = translationHtml(snapshot.translation);
  if (!snapshot.finished) text += QStringLiteral(" <span style='color:gray'>…</span>");
  if (snapshot.translation.source.truncated)
    text += tr("<br><i>The sentence has %1 words; the model reads the first %2.</i>")
                .arg(snapshot.translation.source.original_length)
                .arg(snapshot.translation.source.tokens.size() - 1);
  if (!snapshot.translation.source.unknown_words.empty()) {
    QStringList unknown;
    for (const auto& w : snapshot.translation.source.unknown_words)
      unknown << QString::fromStdString(w);
    text += tr("<br><i>Unknown words (read as &lt;unk&gt;): %1</i>")
                .arg(unknown.join(", ").toHtmlEscaped());
    if (!snapshot.translation.copied.empty())
      text += tr("<br><i>Where the model wrote &lt;unk&gt;, the source word its attention weighs "
                 "most is copied (<span style='color:%1'>blue</span>, framed in the heatmap)</i>")
                  .arg(QLatin1String(kCopiedColour));
  }
  output_->setText(text);
  showSelectedStep();
  statusBar()->showMessage(tr("%1: %2 steps%3")
                               .arg(label, QString::number(snapshot.steps.size()),
                                    snapshot.finished ? tr(", finished") : QString()),
                           4000);
  Q_EMIT heatmapUpdated();
}

void MainWindow::drawTranslation(const Translation& t, const QString& modelKey) {
  shown_ = t;
  shownKey_ = modelKey;
  // The model's info says what there is to choose (known before any of its results arrive);
  // the translation only when there is none.
  ModelInfo model = infos_.value(modelKey);
  if (!infos_.contains(modelKey)) {
    model.attention_layers = t.layers();
    model.attention_heads = t.heads();
    model.subword_marker = t.subword_marker;
  }
  viewControls_->adaptTo(model);
  heatmap_->setMatrix(
      AttentionMatrix::fromTranslation(t, viewControls_->describe(), viewControls_->view()));
  const bool heads = viewControls_->heads() > 1;
  tabs_->setTabEnabled(static_cast<int>(Tab::Heads), heads);
  if (heads)
    heads_->setTranslation(t, modelKey, viewControls_->layers(), viewControls_->heads(),
                           viewControls_->view().words);
}

void MainWindow::showSelectedStep() {
  const int row = controller_->shownRow();
  heatmap_->setCurrentRow(heatmap_->matrix().rowOf(row));
  if (row < 0) {
    stepPanel_->showStep(nullptr, 0, {});
    return;
  }
  const SessionSnapshot& session = *controller_->snapshot();
  QStringList sourceTokens;
  for (const auto& t : session.translation.source.tokens) sourceTokens << QString::fromStdString(t);
  // The bars show the layer and head the heatmap shows (over pieces: what the model reads).
  Step step = session.steps[row];
  const AttentionChoice choice = viewControls_->view().choice;
  if (choice.layer >= 0 && !step.heads.empty()) {
    step.attention = step.heads.row(choice.layer, choice.head);
    step.entropy = attention_entropy(step.attention);
  }
  stepPanel_->showStep(&step, row, sourceTokens);
}

void MainWindow::showBeam(const QList<Translation>& hypotheses) {
  if (hypotheses.isEmpty()) return;
  beamHypotheses_ = hypotheses;
  const QSignalBlocker block(beamList_);
  beamList_->clear();
  for (const Translation& t : hypotheses)
    beamList_->addItem(
        QStringLiteral("%1   (%2)")
            .arg(QString::fromStdString(t.text()), QString::number(t.score, 'f', 3)));
  beamList_->setVisible(true);
  beamList_->setCurrentRow(0);
  showHypothesis(0);
}

void MainWindow::showHypothesis(int index) {
  if (index < 0 || index >= beamHypotheses_.size()) return;
  const Translation& t = beamHypotheses_[index];
  heatmap_->setReservedRows(0);
  drawTranslation(t, currentKey());
  heatmap_->setCurrentRow(-1);
  output_->setText(tr("%1 <span style='color:gray'>(beam %2, hypothesis %3, score %4)</span>")
                       .arg(translationHtml(t), QString::number(beamHypotheses_.size()),
                            QString::number(index + 1), QString::number(t.score, 'f', 3)));
  stepPanel_->showStep(nullptr, 0, {});
  Q_EMIT heatmapUpdated();
}

void MainWindow::requestCompare() {
  const QString sentence = source_->text();
  if (sentence.trimmed().isEmpty() || compare_->plots().isEmpty()) return;
  const CompareTarget target = compare_->target();
  if (target.kind == CompareTarget::Kind::Reference && target.text.trimmed().isEmpty()) {
    compare_->setStatus(tr("Type a German reference above and press Enter."));
    return;
  }
  compareGeneration_ = worker_->nextGeneration(EngineWorker::Channel::Compare);
  const QStringList keys = compare_->models();
  post([w = worker_, g = compareGeneration_, keys, sentence, target,
        words = compare_->showsWords()] { w->compare(g, keys, sentence, target, words); });
}

void MainWindow::showError(const QString& message) {
  // Not exec(): a modal loop here would stall the window's updates (and tests).
  auto* box =
      new QMessageBox(QMessageBox::Warning, tr("attnscope"), message, QMessageBox::Ok, this);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
  statusBar()->showMessage(message, 8000);
}

QString MainWindow::torchScriptInfo(const ModelInfo& m) const {
  const auto text = [](const std::string& s) {
    return s.empty() ? tr("not given") : QString::fromStdString(s);
  };
  return tr("TorchScript model (docs/model-protocol.md): %1\nLanguages: %2 → %3\n"
            "Vocabularies: %4 source / %5 target tokens, tokenizer '%6'%7\n"
            "Attention: %8 layer(s) × %9 head(s)\nParameters: %10\nFile: %11 (%12 MB)")
      // One multi-argument arg(): the name, languages and path are the file's text.
      .arg(QString::fromStdString(m.name), text(m.config.source_language),
           text(m.config.target_language), QString::number(m.config.source_vocab),
           QString::number(m.config.target_vocab), QString::fromStdString(m.tokenizer),
           m.subword_marker.empty()
               ? QString()
               : tr(", subword pieces marked '%1'").arg(QString::fromStdString(m.subword_marker)),
           QString::number(m.attention_layers), QString::number(m.attention_heads),
           QString::number(m.parameters), QString::fromStdString(m.path),
           QString::number(m.file_bytes / 1e6, 'f', 1));
}

void MainWindow::showModelInfo() {
  const QString key = currentKey();
  if (key.isEmpty()) {
    modelStatus_->clear();
    return;
  }
  const auto it = infos_.find(key);
  if (it == infos_.end()) {
    modelStatus_->setText(tr("%1 (loading…)").arg(key));
    post([w = worker_, key] { w->loadModel(key); });  // lazily, off the GUI thread
    return;
  }
  const ModelInfo& m = *it;
  // A TorchScript model has no score function, training record or BLEU: its own name says what
  // it is, its format and attention shape what it offers to look at.
  QString extra = m.training.test_bleu >= 0
                      ? tr(", test BLEU %1").arg(m.training.test_bleu, 0, 'f', 1)
                      : QString();
  if (m.format == "torchscript")
    extra = tr(" · TorchScript, %1 layer(s) × %2 head(s)%3")
                .arg(m.attention_layers)
                .arg(m.attention_heads)
                .arg(m.subword_marker.empty() ? QString() : tr(", subwords"));
  if (!m.has_attention) extra += tr(" · no attention (baseline)");
  const QString kind = QString::fromStdString(m.config.score.empty() ? m.name : m.config.score);
  // A toy module's few thousand parameters would read "0.0M".
  const QString parameters = m.parameters >= 100000 ? tr("%1M").arg(m.parameters / 1e6, 0, 'f', 1)
                                                    : QString::number(m.parameters);
  modelStatus_->setText(
      tr("%1 · %2 parameters%3")
          .arg(key == kind ? key : QStringLiteral("%1 (%2)").arg(key, kind), parameters, extra));
}

void MainWindow::openModelFile(const QString& path) {
  modelOpened_ = true;
  ++openingFiles_;  // calls that need a model wait for it, as they would for a synchronous open
  post([w = worker_, path] { w->readModelFile(path); });
}

void MainWindow::addModelFile(const QString& path, const ModelInfo& info) {
  --openingFiles_;
  QString key = QFileInfo(path).completeBaseName();
  if (models_->findText(key) >= 0)
    key += QStringLiteral(" (%1)").arg(QFileInfo(path).absolutePath());
  post([w = worker_, key, path] { w->registerModel(key, path); });
  infos_.insert(key, info);
  corpus_->addModel(key, path);
  models_->addItem(key);
  models_->setCurrentText(key);
  Q_EMIT modelOpened(key);
  runDeferred();
}

void MainWindow::openAttentionDialog() {
  AttentionFileDialog dialog(this);
  if (dialog.exec() != QDialog::Accepted || dialog.path().isEmpty()) return;
  dialog.remember();
  openAttentionFile(dialog.path(), dialog.options());
}

void MainWindow::openAttentionFile(const QString& path, const AttentionFileOptions& options) {
  // Read here, not on the engine thread: no model is involved, and the reader is linear in a file
  // it refuses above 64 MB, with every matrix capped at 1000 × 1000.
  AttentionFile file;
  try {
    file = read_attention_file(path.toStdString(), options);
  } catch (const std::exception& e) {
    showError(QString::fromStdString(e.what()));
    return;
  }
  controller_->clear();  // no decoding session: nothing to step through
  beamHypotheses_.clear();
  beamList_->clear();
  beamList_->setVisible(false);
  showCompare(false);
  heatmap_->setReservedRows(0);
  viewControls_->adaptTo(ModelInfo{});  // a file's one matrix: no layers, heads or pieces
  heatmap_->setMatrix(AttentionMatrix::fromAttentionFile(file));
  heatmap_->setCurrentRow(-1);
  stepPanel_->showStep(nullptr, 0, {});
  QStringList target;
  for (const auto& token : file.target_tokens) target << QString::fromStdString(token);
  const QString line = options.line > 1 ? tr(", line %1").arg(options.line) : QString();
  output_->setText(tr("%1 <span style='color:gray'>(%2: %3%4)</span>")
                       .arg(target.join(QLatin1Char(' ')).toHtmlEscaped(),
                            QString::fromStdString(file.format),
                            QFileInfo(path).fileName().toHtmlEscaped(), line));
  Q_EMIT heatmapUpdated();
}

void MainWindow::exportTo(const QString& path, const ExportOptions& options) {
  const auto tab = static_cast<Tab>(tabs_->currentIndex());
  ExportOptions o = options;
  o.columns = 3;
  const QList<HeatmapPlot*> plots = tab == Tab::Compare ? compare_->exportedPlots()
                                    : tab == Tab::Heads ? heads_->plots()
                                    : tab == Tab::Train
                                        ? QList<HeatmapPlot*>{train_->snapshotView()->heatmap()}
                                        : QList<HeatmapPlot*>{heatmap_};
  try {
    const auto format = exportFormatFor(path);
    if (tab == Tab::Corpus && (format == ExportFormat::Csv || format == ExportFormat::Json))
      corpus_->exportTables(path);  // the Corpus tab: its tables, or its plot
    else if (tab == Tab::Corpus)
      corpus_->exportPlot(path, o);
    else
      exportHeatmaps(plots, path, o);
    statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
  } catch (const std::exception& e) {
    showError(QString::fromStdString(e.what()));
  }
}

void MainWindow::exportDialog() {
  QSettings settings;
  const QString folder = settings.value(QStringLiteral("exportFolder")).toString();
  QString selected;
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Export heatmap"), folder + QStringLiteral("/attention.png"),
      tr("PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg);;CSV table (*.csv);;JSON "
         "(*.json)"),
      &selected);
  if (path.isEmpty()) return;
  settings.setValue(QStringLiteral("exportFolder"), QFileInfo(path).absolutePath());
  ExportOptions options;
  const auto tab = static_cast<Tab>(tabs_->currentIndex());
  const QWidget* shown = tab == Tab::Compare  ? static_cast<QWidget*>(compare_)
                         : tab == Tab::Heads  ? static_cast<QWidget*>(heads_)
                         : tab == Tab::Corpus ? static_cast<QWidget*>(corpus_->plot())
                         : tab == Tab::Train  ? train_->snapshotView()->heatmap()
                                              : heatmap_;
  options.size = shown->size();
  const auto format = exportFormatFor(path);
  if (format == ExportFormat::Png || format == ExportFormat::Pdf || format == ExportFormat::Svg) {
    ExportSizeDialog dialog(options.size, format == ExportFormat::Png, this);
    if (dialog.exec() != QDialog::Accepted) return;
    options.size = dialog.size();
    options.scale = dialog.scale();
  }
  exportTo(path, options);
}

void MainWindow::applyColormap(const QString& name) {
  heatmap_->setGradient(colormap(name));
  compare_->setGradient(name);
  heads_->setGradient(name);
  train_->setGradient(colormap(name));
}

void MainWindow::restoreSettings() {
  QSettings settings;
  restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray());
  restoreState(settings.value(QStringLiteral("windowState")).toByteArray());
  if (auto* splitter = findChild<QSplitter*>(QStringLiteral("mainSplitter")))
    splitter->restoreState(settings.value(QStringLiteral("splitter")).toByteArray());
  const QString score =
      settings.value(QStringLiteral("score"), QStringLiteral("additive")).toString();
  whenReady([this, score] {
    if (modelOpened_) return;  // a model file given at start wins over last time's choice
    const QSignalBlocker blockModels(models_);
    if (models_->findText(score) >= 0) models_->setCurrentText(score);
  });
  colormaps_->setCurrentText(
      settings.value(QStringLiteral("colormap"), QStringLiteral("viridis")).toString());
  applyColormap(colormaps_->currentText());
  values_->setChecked(settings.value(QStringLiteral("showValues"), false).toBool());
  copyUnknown_->setChecked(settings.value(QStringLiteral("copyUnknownWords"), true).toBool());
  source_->setHistory(settings.value(QStringLiteral("history")).toStringList());
}

void MainWindow::saveSettings() {
  QSettings settings;
  settings.setValue(QStringLiteral("geometry"), saveGeometry());
  settings.setValue(QStringLiteral("windowState"), saveState());
  if (auto* splitter = findChild<QSplitter*>(QStringLiteral("mainSplitter")))
    settings.setValue(QStringLiteral("splitter"), splitter->saveState());
  if (score_function_names().end() != std::find(score_function_names().begin(),
                                                score_function_names().end(),
                                                currentKey().toStdString()))
    settings.setValue(QStringLiteral("score"), currentKey());
  settings.setValue(QStringLiteral("colormap"), colormaps_->currentText());
  settings.setValue(QStringLiteral("showValues"), values_->isChecked());
  settings.setValue(QStringLiteral("copyUnknownWords"), copyUnknown_->isChecked());
  settings.setValue(QStringLiteral("history"), source_->history());
}

void MainWindow::closeEvent(QCloseEvent* event) {
  saveSettings();
  QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  for (const QUrl& url : event->mimeData()->urls())
    if (url.isLocalFile()) openModelFile(url.toLocalFile());
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
  // After a translation the heatmap has the focus for the step keys; a printable character typed
  // there starts the next sentence, as in a search box: it replaces the input line's text.
  const bool keyEvent =
      event->type() == QEvent::KeyPress || event->type() == QEvent::ShortcutOverride;
  if (watched == heatmap_ && keyEvent) {
    auto* key = static_cast<QKeyEvent*>(event);
    const bool printable = !key->text().isEmpty() && key->text().front().isPrint() &&
                           !(key->modifiers() & (Qt::ControlModifier | Qt::AltModifier));
    // Once typing has started, Space is part of the sentence, not Play.
    if (event->type() == QEvent::ShortcutOverride) {
      if (printable && focusWidget() == source_) event->accept();
      return printable && focusWidget() == source_;
    }
    if (printable) {
      if (focusWidget() != source_) {  // the first character: not when it goes on typing
        source_->selectAll();
        source_->setFocus(Qt::ShortcutFocusReason);
      }
      QCoreApplication::sendEvent(source_, event);
      return true;
    }
  }
  return QMainWindow::eventFilter(watched, event);
}

}  // namespace attnscope::ui
