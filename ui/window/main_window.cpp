#include "window/main_window.h"

#include <attnscope/model_catalog.h>

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDragEnterEvent>
#include <QHBoxLayout>
#include <QHash>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QScreen>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include "core/about_text.h"
#include "core/app_settings.h"
#include "core/guide_section.h"
#include "core/message_text.h"
#include "core/model_info_text.h"
#include "plots/colormaps.h"
#include "plots/heatmap_plot.h"
#include "render/export_target.h"
#include "tabs/compare_view.h"
#include "tabs/corpus_view.h"
#include "tabs/heads_view.h"
#include "tabs/train_view.h"
#include "tabs/translation_view.h"
#include "widgets/attention_file_dialog.h"
#include "widgets/attention_view_controls.h"
#include "widgets/beam_view.h"
#include "widgets/combo_box_keys.h"
#include "widgets/decoding_tool_bar.h"
#include "widgets/discard_question.h"
#include "widgets/examples_menu.h"
#include "widgets/export_picture_dialog.h"
#include "widgets/file_dialogs.h"
#include "widgets/history_line_edit.h"
#include "widgets/tool_bar_rows.h"
#include "widgets/type_to_search.h"
#include "widgets/user_guide_window.h"
#include "workers/decoding_controller.h"
#include "workers/engine_worker.h"
#include "workers/model_list.h"

namespace attnscope::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  setWindowTitle(tr("attnscope"));
  setWindowIcon(QIcon(QStringLiteral(":/attnscope.svg")));
  setAcceptDrops(true);
  qApp->installEventFilter(new ComboBoxKeys(this));  // removed with the window
  worker_ = new EngineWorker;
  worker_->moveToThread(&workerThread_);
  connect(&workerThread_, &QThread::finished, worker_, &QObject::deleteLater);
  workerThread_.start();
  controller_ = new DecodingController(worker_, this);
  modelList_ = new ModelList(worker_, this);
  createWidgets();
  createMenus();
  wire();
  restoreSettings();
  modelList_->findShipped();
  source_->setFocus();
}

MainWindow::~MainWindow() {
  worker_->cancel(EngineWorker::Channel::Main);
  worker_->cancel(EngineWorker::Channel::Compare);
  workerThread_.quit();
  workerThread_.wait();
}

void MainWindow::createWidgets() {
  source_ = new HistoryLineEdit(this);
  source_->setClearButtonEnabled(true);
  toolBar_ = new DecodingToolBar(this);
  addToolBar(toolBar_);
  addToolBar(toolBar_->viewBar());
  toolBarRows_ = new ToolBarRows(this, toolBar_, toolBar_->viewBar());
  models_ = toolBar_->modelBox();
  translation_ = new TranslationView(controller_, modelList_, this);
  new TypeToSearch(translation_->heatmap(), source_);
  compare_ = new CompareView(this);
  heads_ = new HeadsView(this);
  corpus_ = new CorpusView(this);
  train_ = new TrainView(this);
  tabs_ = new QTabWidget(this);
  tabs_->addTab(translation_, tr("Translation"));
  tabs_->addTab(compare_, tr("Compare all"));
  tabs_->addTab(heads_, tr("Compare heads"));
  tabs_->setTabEnabled(tabs_->indexOf(heads_), false);  // until a model has several
  tabs_->setTabToolTip(tabs_->indexOf(heads_),
                       tr("Every head of one layer, for models with several heads"));
  tabs_->addTab(corpus_, tr("Corpus"));
  tabs_->setTabToolTip(tabs_->indexOf(corpus_),
                       tr("A test set through several models: BLEU by length, attention figures"));
  tabs_->addTab(train_, tr("Train"));
  tabs_->setTabToolTip(tabs_->indexOf(train_),
                       tr("Train a model and watch its attention form, batch by batch"));
  // The guide's section on the shown tab, which names it (GuideSection).
  auto* tabHelp = new QToolButton(tabs_);
  tabHelp->setObjectName(QStringLiteral("tabHelpButton"));
  tabHelp->setText(QStringLiteral("?"));
  tabHelp->setAutoRaise(true);
  tabHelp->setAccessibleName(tr("Help on this tab"));
  const auto nameTab = [this, tabHelp] {
    tabHelp->setToolTip(
        tr("The user guide on the %1 tab").arg(tabs_->tabText(tabs_->currentIndex())));
  };
  nameTab();
  connect(tabs_, &QTabWidget::currentChanged, tabHelp, nameTab);
  connect(tabHelp, &QToolButton::clicked, this, [this] {
    const auto* section = dynamic_cast<const GuideSection*>(tabs_->currentWidget());
    showUserGuide(section != nullptr ? section->guideSection() : QStringLiteral("app.md"));
  });
  tabs_->setCornerWidget(tabHelp, Qt::TopRightCorner);

  auto* inputRow = new QHBoxLayout;
  auto* translateButton = new QPushButton(tr("Translate"), this);
  inputRow->addWidget(source_, 1);
  inputRow->addWidget(translateButton);
  connect(translateButton, &QPushButton::clicked, this, &MainWindow::translate);
  setTabOrder(source_, translateButton);  // the line, then its button
  auto* central = new QWidget(this);
  auto* layout = new QVBoxLayout(central);
  layout->addLayout(inputRow);
  layout->addWidget(tabs_, 1);
  setCentralWidget(central);
  modelStatus_ = new QLabel(this);
  statusBar()->addPermanentWidget(modelStatus_);
}

void MainWindow::createMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("&Open model…"), QKeySequence::Open, this, [this] {
    const QString path = askOpenPath(
        this, AppSettings::Folder::Model, tr("Open model"),
        tr("attnscope models (*.attnmodel);;TorchScript models (*.pt *.pth);;All files (*)"));
    if (!path.isEmpty()) openModelFile(path);
  });
  file->addAction(tr("Open &attention…"), QKeySequence(tr("Ctrl+Shift+O")), this,
                  &MainWindow::openAttentionDialog);
  // Not Ctrl+E nor Ctrl+K: on X11 a text box keeps those (end of line, delete to its end).
  QAction* exportAction = file->addAction(tr("&Export…"), QKeySequence(tr("Ctrl+Shift+E")), this,
                                          &MainWindow::exportDialog);
  exportAction->setObjectName(QStringLiteral("exportAction"));
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

  examples_ = new ExamplesMenu(tr("E&xamples"), this);
  menuBar()->addMenu(examples_);
  connect(examples_, &ExamplesMenu::chosen, this, &MainWindow::translateSentence);
  connect(examples_, &ExamplesMenu::chosenWithModel, this,
          [this](const QString& key, const QString& sentence) {
            const bool switching = currentKey() != key;
            source_->setText(sentence);
            models_->setCurrentText(key);  // a switch translates the sentence with it
            if (!switching || currentKey() != key) translate();
          });

  QMenu* view = menuBar()->addMenu(tr("&View"));
  view->addAction(tr("Reset &zoom"), QKeySequence(tr("Ctrl+0")), this,
                  [this] { translation_->heatmap()->resetView(); });
  view->addAction(tr("&Compare all score functions"), QKeySequence(tr("Ctrl+Shift+K")), this,
                  [this] { showCompare(tabs_->currentWidget() != compare_); });
  view->addAction(translation_->resetEditsAction());
  view->addSeparator();
  copyUnknown_ = view->addAction(tr("Copy &unknown words from the source"));
  copyUnknown_->setCheckable(true);
  copyUnknown_->setChecked(true);
  copyUnknown_->setToolTip(
      tr("Replace each <unk> the model emits by the unknown source name or number its attention "
         "weighs most (a lowercase English word is never copied)"));

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&Model info"), QKeySequence(tr("Ctrl+I")), this,
                  &MainWindow::showModelInfoBox);
  help->addAction(tr("&Keys"), QKeySequence::HelpContents, this, [this] {
    QMessageBox::information(this, tr("Keys"), DecodingToolBar::keysHelp());
  });
  // Not F1, which is Keys (HelpContents) above.
  help->addAction(tr("&User guide"), QKeySequence(tr("Shift+F1")), this,
                  [this] { showUserGuide({}); });
  help->addAction(tr("&About attnscope"), this, [this] {
    QMessageBox::about(this, tr("About attnscope"), aboutText(QApplication::applicationVersion()));
  });
}

void MainWindow::wire() {
  // The model list.
  connect(
      modelList_, &ModelList::listed, this,
      [this](const QStringList& keys, const QList<QPair<QString, QString>>& files) {
        const QSignalBlocker block(models_);
        models_->insertItems(0, keys);  // before any model file opened meanwhile
        comparePair_ = QString::fromLatin1(kDefaultLanguagePair);
        compare_->setModels(modelList_->shippedKeys(comparePair_));
        QHash<QString, QString> pairs;
        for (const QString& key : keys) pairs.insert(key, modelList_->pairOf(key));
        corpus_->setModels(files, pairs);
        if (keys.isEmpty())
          statusBar()->showMessage(tr("No shipped models found: open one with File > Open model"));
      });
  connect(modelList_, &ModelList::listingFinished, this, [this] {
    showModelStatus();
    if (tabs_->currentWidget() == compare_) requestCompare();
  });
  connect(modelList_, &ModelList::fileAdded, this, [this](const QString& key, const QString& path) {
    corpus_->addModel(key, path, !train_->isOwnModel(path));  // a toy model: not ticked
    models_->addItem(key);
    toolBar_->setModelToolTip(key, modelToolTip(*modelList_->info(key)));
    if (readsTaskInput(*modelList_->info(key))) {  // the English sentence is not for it
      source_->clear();
      translate();  // an empty view, and the input line's hint says what it reads
    }
    models_->setCurrentText(key);
    Q_EMIT modelOpened(key);
  });
  connect(modelList_, &ModelList::infoChanged, this, [this](const QString& key) {
    toolBar_->setModelToolTip(key, modelToolTip(*modelList_->info(key)));
    if (key == currentKey()) showModelStatus();
  });
  connect(modelList_, &ModelList::errorOccurred, this, &MainWindow::showError);

  // The engine worker and the decoding session.
  connect(worker_, &EngineWorker::errorOccurred, this, &MainWindow::showError);
  connect(controller_, &DecodingController::snapshotChanged, translation_,
          &TranslationView::showSnapshot);
  connect(controller_, &DecodingController::playingChanged, toolBar_, &DecodingToolBar::setPlaying);

  // The tabs.
  connect(translation_, &TranslationView::updated, this, &MainWindow::heatmapUpdated);
  connect(translation_, &TranslationView::translationDrawn, this, &MainWindow::showHeads);
  connect(translation_, &TranslationView::statusMessage, statusBar(), &QStatusBar::showMessage);
  connect(tabs_, &QTabWidget::currentChanged, this, [this] {
    if (tabs_->currentWidget() == compare_) requestCompare();
  });
  compare_->setWorker(worker_);
  connect(compare_, &CompareView::compareRequested, this, &MainWindow::requestCompare);
  connect(compare_, &CompareView::resultShown, this, &MainWindow::compareUpdated);
  connect(translation_, &TranslationView::compareEditsRequested, compare_, &CompareView::setEdits);
  connect(translation_, &TranslationView::editsReset, compare_, &CompareView::clearEdits);
  connect(translation_, &TranslationView::compareEditsRequested, this,
          [this] { showCompare(true); });
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

  // The input and the toolbar.
  connect(source_, &QLineEdit::returnPressed, this, &MainWindow::translate);
  connect(models_, &QComboBox::currentIndexChanged, this, [this] {
    showModelStatus();
    retranslate();  // switching re-translates at once
  });
  connect(toolBar_, &DecodingToolBar::searchChanged, this, &MainWindow::retranslate);
  // With a beam tree shown, the step keys step through its search instead of greedy decoding.
  BeamView* beam = translation_->beamView();
  connect(toolBar_, &DecodingToolBar::resetRequested, this, [this, beam] {
    if (beam->isActive())
      beam->showFirstStep();
    else
      controller_->reset();
  });
  connect(toolBar_, &DecodingToolBar::stepBackRequested, this, [this, beam] {
    if (beam->isActive())
      beam->stepBack();
    else
      controller_->stepBack();
  });
  connect(toolBar_, &DecodingToolBar::playRequested, this, &MainWindow::togglePlay);
  connect(beam, &BeamView::playingChanged, toolBar_, &DecodingToolBar::setPlaying);
  connect(toolBar_, &DecodingToolBar::stepForwardRequested, this, &MainWindow::stepForward);
  connect(toolBar_, &DecodingToolBar::endRequested, this, &MainWindow::stepToEnd);
  connect(toolBar_, &DecodingToolBar::playIntervalChanged, controller_,
          &DecodingController::setPlayInterval);
  controller_->setPlayInterval(toolBar_->playInterval());
  connect(toolBar_->colormapBox(), &QComboBox::currentTextChanged, this,
          &MainWindow::applyColormap);
  connect(toolBar_->valuesBox(), &QCheckBox::toggled, this, [this](bool on) {
    translation_->setShowValues(on);
    compare_->setShowValues(on);
    heads_->setShowValues(on);
  });
  connect(copyUnknown_, &QAction::toggled, this, [this](bool copy) {
    const UnknownWords words = copy ? UnknownWords::kCopy : UnknownWords::kKeep;
    QMetaObject::invokeMethod(
        worker_, [w = worker_, words] { w->setUnknownWords(words); }, Qt::QueuedConnection);
    retranslate();
  });
}

QString MainWindow::modelStatus() const { return modelStatus_->text(); }

QString MainWindow::currentKey() const { return models_->currentText(); }

void MainWindow::selectModel(const QString& key) {
  modelList_->whenReady([this, key] { models_->setCurrentText(key); });
}

void MainWindow::runCorpus(const QString& source, const QString& reference) {
  tabs_->setCurrentWidget(corpus_);
  corpus_->setFiles(source, reference);
  modelList_->whenReady([this] { corpus_->run(); });
}

void MainWindow::showCompare(bool compare) {
  tabs_->setCurrentWidget(compare ? static_cast<QWidget*>(compare_) : translation_);
}

void MainWindow::showUserGuide(const QString& page) {
  if (guide_ == nullptr) guide_ = new UserGuideWindow(this);  // on its contents
  if (!page.isEmpty()) guide_->openPage(page);
  guide_->show();
  guide_->raise();
  guide_->activateWindow();
}

void MainWindow::translateSentence(const QString& sentence) {
  source_->setText(sentence);
  translate();
}

void MainWindow::stepSentence(const QString& sentence, int steps) {
  source_->setText(sentence);
  if (!modelList_->ready()) {
    modelList_->whenReady([this, sentence, steps] { stepSentence(sentence, steps); });
    return;
  }
  source_->addToHistory(sentence);
  controller_->start(currentKey(), sentence, steps);
  translation_->heatmap()->setFocus();
}

void MainWindow::translate() {
  if (!modelList_->ready()) {
    modelList_->whenReady([this] { translate(); });
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
    translation_->clear();
    return;
  }
  if (toolBar_->beamSize() > 1)
    searchBeam(sentence, -1);
  else
    controller_->start(currentKey(), sentence);
  if (tabs_->currentWidget() == compare_) requestCompare();
  translation_->heatmap()->setFocus();  // so → ← Space Home step at once
}

void MainWindow::searchBeam(const QString& sentence, int steps) {
  const BeamRequest request{currentKey(), sentence, toolBar_->beamSize(), toolBar_->lengthPenalty(),
                            toolBar_->coveragePenalty()};
  controller_->clear();  // no greedy session: the search's final beam is listed instead
  translation_->beamView()->search(request, steps);
}

void MainWindow::retranslate() {
  if (!source_->text().trimmed().isEmpty()) translate();
}

bool MainWindow::startsNewSession() const {
  return !source_->text().trimmed().isEmpty() &&
         !controller_->isSessionOf(currentKey(), source_->text());
}

bool MainWindow::stepsTheBeam() const {
  return toolBar_->beamSize() > 1 && !source_->text().trimmed().isEmpty() &&
         !currentKey().isEmpty();
}

bool MainWindow::beamHasSearchedTheInput(int steps) {
  const QString sentence = source_->text();
  if (translation_->beamView()->isSearchOf(currentKey(), sentence)) return true;
  source_->addToHistory(sentence);
  searchBeam(sentence, steps);
  translation_->heatmap()->setFocus();
  return false;
}

void MainWindow::stepForward() {
  if (stepsTheBeam()) {
    // The beam's search step by step; a sentence not searched yet from its first step.
    if (beamHasSearchedTheInput(1)) translation_->beamView()->stepForward();
    return;
  }
  // A sentence typed but not translated yet (or a beam shown) starts stepping from its first step.
  if (startsNewSession())
    controller_->start(currentKey(), source_->text(), 1);
  else
    controller_->stepForward();
}

void MainWindow::stepToEnd() {
  if (stepsTheBeam()) {
    // Every step of the search; a sentence not searched yet searched whole, as Enter does.
    if (beamHasSearchedTheInput(-1)) translation_->beamView()->showEveryStep();
    return;
  }
  // A sentence typed but not translated yet is translated to its end.
  if (startsNewSession())
    controller_->start(currentKey(), source_->text());
  else
    controller_->goToEnd();
}

void MainWindow::togglePlay() {
  if (stepsTheBeam()) {
    // Play reveals the beam's search step by step; a sentence not searched yet from its root.
    beamHasSearchedTheInput(0);
    translation_->beamView()->togglePlay(toolBar_->playInterval());
    return;
  }
  if (startsNewSession()) controller_->start(currentKey(), source_->text(), 0);
  controller_->togglePlay();
}

void MainWindow::showHeads() {
  const AttentionViewControls* view = translation_->viewControls();
  const bool several = view->heads() > 1;
  tabs_->setTabEnabled(tabs_->indexOf(heads_), several);
  if (several)
    heads_->setTranslation(translation_->shownTranslation(), translation_->shownModel(),
                           view->layers(), view->heads(), view->view().words);
}

void MainWindow::requestCompare() { compare_->compare(source_->text()); }

void MainWindow::showError(const QString& engineMessage) {
  const QString message = dialogMessage(engineMessage);
  // Not exec(): a modal loop here would stall the window's updates (and tests).
  auto* box =
      new QMessageBox(QMessageBox::Warning, tr("attnscope"), message, QMessageBox::Ok, this);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
  statusBar()->showMessage(message, 8000);
}

void MainWindow::showModelStatus() {
  const QString key = currentKey();
  const ModelInfo* info = modelList_->info(key);
  if (key.isEmpty())
    modelStatus_->clear();
  else if (info == nullptr)
    modelStatus_->setText(tr("%1 (loading…)").arg(key));
  else
    modelStatus_->setText(modelStatusText(key, *info));
  // What to type, and examples of it, follow the model: a task model reads no English.
  source_->setPlaceholderText(info != nullptr ? inputPlaceholder(*info)
                                              : tr("Type a sentence and press Enter"));
  translation_->setEmptyHeatmapText(source_->placeholderText());
  examples_->setModel(info);
  examples_->setOtherPairs(otherPairChoices());
  followLanguagePair();
  modelList_->requestInfo(key);
}

QList<QPair<QString, QString>> MainWindow::otherPairChoices() const {
  // In each pair: the model of the current one's score function, else additive, else the first.
  const QString current = currentKey();
  const ModelInfo* info = modelList_->info(current);
  const QString score = info != nullptr ? QString::fromStdString(info->config.score) : current;
  QList<QPair<QString, QString>> choices;
  for (const QString& pair : modelList_->shippedPairs()) {
    const QStringList keys = modelList_->shippedKeys(pair);
    QString key = keys.value(0);
    for (const QString& preferred :
         {QString::fromStdString(shipped_model_name(score.toStdString(), pair.toStdString())),
          QString::fromStdString(shipped_model_name("additive", pair.toStdString()))})
      if (keys.contains(preferred)) {
        key = preferred;
        break;
      }
    if (!key.isEmpty()) choices << qMakePair(pair, key);
  }
  return choices;
}

void MainWindow::followLanguagePair() {
  // The grid compares the shipped models of the current model's pair (the default pair's for a
  // model whose pair ships none).
  QString pair = modelList_->pairOf(currentKey());
  if (modelList_->shippedKeys(pair).isEmpty()) pair = QString::fromLatin1(kDefaultLanguagePair);
  if (pair == comparePair_) return;
  comparePair_ = pair;
  compare_->setModels(modelList_->shippedKeys(pair));
  compare_->setTargetLanguage(languagePairText(pair).section(QString::fromUtf8(" → "), 1));
  if (tabs_->currentWidget() == compare_) requestCompare();
}

void MainWindow::showModelInfoBox() {
  if (const ModelInfo* info = modelList_->info(currentKey()))
    QMessageBox::information(this, tr("Model %1").arg(currentKey()), modelInfoText(*info));
}

void MainWindow::openModelFile(const QString& path) { modelList_->openFile(path); }

void MainWindow::openAttentionDialog() {
  AttentionFileDialog dialog(this);
  if (dialog.exec() != QDialog::Accepted || dialog.path().isEmpty()) return;
  dialog.remember();
  openAttentionFile(dialog.path(), dialog.options());
}

void MainWindow::openAttentionFile(const QString& path, const AttentionFileOptions& options) {
  // Read here, not on the engine thread: no model is involved, and the reader is linear in a file
  // it refuses above 64 MB, with every matrix capped at 1000 × 1000.
  try {
    const AttentionFile file = read_attention_file(path.toStdString(), options);
    controller_->clear();  // no decoding session: nothing to step through
    showCompare(false);
    translation_->showAttentionFile(file, path, options.line);
  } catch (const std::exception& e) {
    showError(QString::fromStdString(e.what()));
  }
}

// Every tab is one (createWidgets adds only ExportTargets).
const ExportTarget& MainWindow::shownExportTarget() const {
  return dynamic_cast<const ExportTarget&>(*tabs_->currentWidget());
}

void MainWindow::exportTo(const QString& path, const ExportOptions& options) {
  try {
    shownExportTarget().exportTo(path, options);
    statusBar()->showMessage(tr("Exported %1").arg(path), 5000);
  } catch (const std::exception& e) {
    showError(QString::fromStdString(e.what()));
  }
}

void MainWindow::exportDialog() {
  const ExportTarget& target = shownExportTarget();
  if (const QString empty = target.nothingToExport(); !empty.isEmpty()) return showError(empty);
  const QString path = askSavePath(
      this, AppSettings::Folder::Export, tr("Export"), target.exportName() + QStringLiteral(".png"),
      tr("PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg);;CSV table (*.csv);;JSON "
         "(*.json)"));
  if (path.isEmpty()) return;
  ExportOptions options;
  options.size = target.exportSize();
  const auto format = exportFormatFor(path);
  if (format && isPicture(*format)) {
    ExportPictureDialog dialog(options.size, target.exportTitle(), format == ExportFormat::Png,
                               this);
    if (dialog.exec() != QDialog::Accepted) return;
    options.size = dialog.size();
    options.scale = dialog.scale();
    options.title = dialog.title();
  }
  exportTo(path, options);
}

void MainWindow::applyColormap(const QString& name) {
  const QCPColorGradient gradient = colormap(name);
  translation_->setGradient(gradient);
  compare_->setGradient(gradient);
  heads_->setGradient(gradient);
  train_->setGradient(gradient);
}

void MainWindow::restoreSettings() {
  const AppSettings settings;
  // The first run: room for the toolbar and a heatmap, within the screen.
  if (!restoreGeometry(settings.windowGeometry()) && screen() != nullptr)
    resize(QSize(1200, 800).boundedTo(screen()->availableSize()));
  restoreState(settings.windowState());
  translation_->splitter()->restoreState(settings.splitterState());
  modelList_->whenReady([this, score = settings.score()] {
    if (modelList_->fileOpened()) return;  // a model file given at start wins over last time's
    const QSignalBlocker blockModels(models_);
    if (models_->findText(score) >= 0) models_->setCurrentText(score);
  });
  toolBar_->restoreChoices();
  applyColormap(toolBar_->colormapBox()->currentText());
  copyUnknown_->setChecked(settings.copyUnknownWords());
  source_->setHistory(settings.history());
}

void MainWindow::saveSettings() {
  AppSettings settings;
  settings.setWindowGeometry(saveGeometry());
  settings.setWindowState(saveState());
  settings.setSplitterState(translation_->splitter()->saveState());
  // A shipped model (of any pair) is found again next time; an opened file may be gone.
  for (const QString& pair : modelList_->shippedPairs())
    if (modelList_->shippedKeys(pair).contains(currentKey())) settings.setScore(currentKey());
  toolBar_->saveChoices();
  settings.setCopyUnknownWords(copyUnknown_->isChecked());
  settings.setHistory(source_->history());
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!confirmDiscard(this, tr("Close attnscope?"), tr("Close anyway"),
                      {corpus_->unsavedWork(), train_->unsavedWork()}))
    return event->ignore();
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

}  // namespace attnscope::ui
