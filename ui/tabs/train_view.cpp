#include "tabs/train_view.h"

#include <QFile>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QVBoxLayout>
#include <cmath>
#include <stdexcept>

#include "plots/heatmap_plot.h"
#include "plots/training_curves.h"
#include "render/exporter.h"
#include "render/snapshot_timeline.h"
#include "tabs/snapshot_view.h"
#include "widgets/discard_question.h"
#include "widgets/file_dialogs.h"
#include "widgets/train_settings.h"
#include "workers/train_worker.h"

namespace attnscope::ui {
namespace {

constexpr int kCurvesInterval = 200;  // ms: the curves, like the heatmap, at most 5 times a second

QString duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return QStringLiteral("–");
  const auto s = static_cast<qint64>(std::llround(seconds));
  return s >= 3600 ? QStringLiteral("%1:%2:%3")
                         .arg(s / 3600)
                         .arg(s / 60 % 60, 2, 10, QLatin1Char('0'))
                         .arg(s % 60, 2, 10, QLatin1Char('0'))
                   : QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

}  // namespace

TrainView::TrainView(QWidget* parent) : QWidget(parent) {
  settings_ = new TrainSettings(this);
  start_ = new QPushButton(tr("Start"), this);
  pause_ = new QPushButton(tr("Pause"), this);
  resume_ = new QPushButton(tr("Resume"), this);
  stop_ = new QPushButton(tr("Stop"), this);
  stop_->setToolTip(tr("End the run after this batch: the epoch so far is validated and kept"));
  save_ = new QPushButton(tr("Save model…"), this);
  open_ = new QPushButton(tr("Open in Translation tab"), this);
  exportTimeline_ = new QPushButton(tr("Export timeline…"), this);
  exportTimeline_->setToolTip(tr("The probe's attention snapshots as an animation or frames"));
  log_ = new QPlainTextEdit(this);
  log_->setReadOnly(true);
  log_->setMaximumBlockCount(1000);
  log_->setPlaceholderText(tr("Each epoch's losses and validation figures appear here"));
  progress_ = new QProgressBar(this);
  progress_->setRange(0, 1);
  progress_->setValue(0);
  status_ = new QLabel(tr("Choose what to train and press Start"), this);
  // A long status must not widen the window: it is cut, not the layout stretched.
  status_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  status_->setWordWrap(true);  // the summary at the end is read whole
  snapshots_ = new SnapshotView(this);
  curves_ = new TrainingCurves(this);

  auto* buttons = new QGridLayout;
  buttons->addWidget(start_, 0, 0);
  buttons->addWidget(pause_, 0, 1);
  buttons->addWidget(resume_, 0, 2);
  buttons->addWidget(stop_, 0, 3);
  buttons->addWidget(save_, 1, 0, 1, 2);
  buttons->addWidget(exportTimeline_, 1, 2, 1, 2);
  buttons->addWidget(open_, 2, 0, 1, 4);
  auto* side = new QWidget(this);
  auto* sideLayout = new QVBoxLayout(side);
  sideLayout->setContentsMargins(0, 0, 0, 0);
  sideLayout->addWidget(settings_);
  sideLayout->addLayout(buttons);
  sideLayout->addWidget(log_, 1);
  side->setMaximumWidth(360);

  auto* progressRow = new QHBoxLayout;
  progressRow->addWidget(progress_, 1);
  progressRow->addWidget(status_, 2);
  auto* plots = new QSplitter(Qt::Vertical, this);
  plots->addWidget(snapshots_);
  plots->addWidget(curves_);
  plots->setStretchFactor(0, 3);
  plots->setStretchFactor(1, 2);
  auto* main = new QVBoxLayout;
  main->addLayout(progressRow);
  main->addWidget(plots, 1);
  // In a scroll area, as the Corpus tab: the settings column would otherwise hold the window
  // taller than a 900×600 screen gives it.
  auto* page = new QWidget(this);
  auto* layout = new QHBoxLayout(page);
  layout->addWidget(side);
  layout->addLayout(main, 1);
  auto* scroll = new QScrollArea(this);
  scroll->setWidget(page);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  (new QVBoxLayout(this))->addWidget(scroll);

  worker_ = new TrainWorker;
  worker_->moveToThread(&thread_);
  connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
  connect(worker_, &TrainWorker::progress, this, &TrainView::showProgress);
  connect(worker_, &TrainWorker::epochDone, this, &TrainView::showEpoch);
  connect(worker_, &TrainWorker::snapshot, this, &TrainView::showSnapshot);
  connect(worker_, &TrainWorker::message, this, &TrainView::log);
  connect(worker_, &TrainWorker::paused, this, &TrainView::showPaused);
  connect(worker_, &TrainWorker::finished, this, &TrainView::finish);
  connect(worker_, &TrainWorker::failed, this, &TrainView::fail);
  thread_.setObjectName(QStringLiteral("attnscope training"));
  thread_.start();

  curvesTimer_.setSingleShot(true);
  connect(&curvesTimer_, &QTimer::timeout, curves_, &TrainingCurves::refresh);
  connect(start_, &QPushButton::clicked, this, &TrainView::start);
  connect(pause_, &QPushButton::clicked, this, &TrainView::pause);
  connect(resume_, &QPushButton::clicked, this, &TrainView::resume);
  connect(stop_, &QPushButton::clicked, this, &TrainView::stop);
  connect(save_, &QPushButton::clicked, this, &TrainView::saveModelDialog);
  connect(open_, &QPushButton::clicked, this, [this] {
    if (modelPath().isEmpty()) return;
    listed_ = true;
    // The saved copy, once there is one: its name in the list and its path in Model info are
    // the user's, not the temporary folder's.
    Q_EMIT openModel(!savedPath_.isEmpty() && QFileInfo::exists(savedPath_) ? savedPath_
                                                                            : modelPath());
  });
  connect(exportTimeline_, &QPushButton::clicked, this, &TrainView::exportTimelineDialog);
  connect(settings_, &TrainSettings::changed, this, &TrainView::updateButtons);
  updateButtons();
}

TrainView::~TrainView() {
  // A paused run is woken by stop(); train() then validates the epoch so far and returns. The
  // thread is joined before dir_ (and the model in it) goes.
  worker_->stop();
  thread_.quit();
  thread_.wait();
}

QString TrainView::modelPath() const {
  return !isRunning() && !modelPath_.isEmpty() && QFileInfo::exists(modelPath_) ? modelPath_
                                                                                : QString();
}

const std::vector<TrainingSnapshot>& TrainView::snapshots() const {
  return snapshots_->snapshots();
}

void TrainView::setGradient(const QCPColorGradient& gradient) { snapshots_->setGradient(gradient); }

void TrainView::updateButtons() {
  const bool running = isRunning();
  settings_->setEnabled(!running);
  start_->setEnabled(!running && settings_->isComplete());
  pause_->setEnabled(state_ == State::Running);
  resume_->setEnabled(state_ == State::Pausing || state_ == State::Paused);
  stop_->setEnabled(running && state_ != State::Stopping);
  const bool model = !modelPath().isEmpty();
  save_->setEnabled(model);
  open_->setEnabled(model);
  exportTimeline_->setEnabled(!running && !snapshots().empty());
}

void TrainView::start() {
  if (isRunning() || !settings_->isComplete()) return;
  if (!confirmDiscard(this, tr("Start a new run?"), tr("Discard and start"), {unsavedWork()}))
    return;
  if (!dir_.isValid()) {
    Q_EMIT errorOccurred(
        tr("cannot create a temporary folder for the model: %1").arg(dir_.errorString()));
    return;
  }
  const QString task = settings_->task();
  TrainOptions options = settings_->options(std::string());
  // The last run's model, discarded unseen (never opened in the Translation tab), goes with its
  // number: the next model is not named "-2" after a "-1" nobody listed.
  if (!modelPath_.isEmpty() && !listed_) {
    QFile::remove(modelPath_);
    QFile::remove(modelPath_ + QStringLiteral(".state"));
    --runs_;
  }
  listed_ = false;
  savedPath_.clear();
  // The file's name is the model's name in the Translation tab's list.
  modelPath_ = dir_.filePath(QStringLiteral("%1-%2-%3.attnmodel")
                                 .arg(task.isEmpty() ? QStringLiteral("corpus") : task,
                                      QString::fromStdString(options.model.score))
                                 .arg(++runs_));
  options.output_path = modelPath_.toStdString();
  task_ = !task.isEmpty();
  epochs_ = options.epochs;
  patience_ = options.patience;
  saved_ = false;
  secondsPerBatch_ = 0.0;
  totalBatch_ = 0;
  snapshots_->clear();
  curves_->reset(options.epochs, task_);
  log_->clear();
  progress_->setRange(0, 1);
  progress_->setValue(0);
  status_->setText(task_ ? tr("Generating the examples…") : tr("Reading the corpus…"));
  state_ = State::Running;
  updateButtons();
  worker_->start(options);
}

void TrainView::pause() {
  if (state_ != State::Running) return;
  worker_->pause();  // takes effect after the current batch: showPaused()
  state_ = State::Pausing;
  status_->setText(tr("Pausing after this batch…"));
  updateButtons();
}

void TrainView::resume() {
  if (state_ != State::Pausing && state_ != State::Paused) return;
  const bool wasPaused = state_ == State::Paused;
  worker_->resume();
  state_ = State::Running;
  status_->setText(tr("Resumed"));
  updateButtons();
  if (wasPaused) Q_EMIT pausedChanged(false);
}

void TrainView::stop() {
  if (!isRunning() || state_ == State::Stopping) return;
  worker_->stop();  // wakes a paused run too
  state_ = State::Stopping;
  status_->setText(tr("Stopping: validating the epoch so far…"));
  updateButtons();
}

void TrainView::showPaused() {
  if (state_ != State::Pausing) return;  // resumed or stopped meanwhile
  state_ = State::Paused;
  status_->setText(tr("Paused after batch %1").arg(totalBatch_));
  updateButtons();
  Q_EMIT pausedChanged(true);
}

void TrainView::showProgress(const TrainProgress& p) {
  totalBatch_ = std::max<qint64>(totalBatch_, p.total_batch);
  const int batches = std::max(1, p.batches);
  progress_->setRange(0, std::max(1, p.epochs) * batches);
  progress_->setValue((p.epoch - 1) * batches + std::min(p.batch, batches));
  // The trainer's ETA is for this epoch; the later epochs take about as long (validation aside),
  // and patience may end the run sooner. At an epoch's last batch its ETA says nothing of a
  // batch's time: the last estimate stands.
  if (p.batch < batches && p.eta_seconds > 0)
    secondsPerBatch_ = p.eta_seconds / (batches - p.batch);
  const double run = p.eta_seconds + (p.epochs - p.epoch) * batches * secondsPerBatch_;
  if (state_ == State::Running)
    status_->setText(tr("Epoch %1 of %2 · batch %3 of %4 · %5 sentences/s · epoch: %6 left · "
                        "run: ≤ %7 left")
                         .arg(p.epoch)
                         .arg(p.epochs)
                         .arg(p.batch)
                         .arg(p.batches)
                         .arg(p.sentences_per_second, 0, 'f', 0)
                         .arg(duration(p.eta_seconds), duration(run)));
  if (std::isfinite(p.loss)) curves_->addTrainingLoss(static_cast<double>(p.total_batch), p.loss);
  scheduleCurves();
  Q_EMIT progressed(p.total_batch);
}

void TrainView::showEpoch(const EpochSummary& s) {
  curves_->addEpoch(s, static_cast<double>(totalBatch_));
  scheduleCurves();
  const QString figure = task_ && s.validation_accuracy >= 0
                             ? tr("exact match %1 %").arg(100.0 * s.validation_accuracy, 0, 'f', 1)
                             : tr("BLEU %1").arg(s.validation_bleu, 0, 'f', 2);
  QString notes;
  if (s.partial) notes += tr(", stopped early");
  if (s.best) {
    notes += tr(", best so far: kept as the model");
    snapshots_->setKeptEpoch(s.epoch);
  }
  log(tr("Epoch %1: training loss %2, validation loss %3, %4 (%5)%6")
          .arg(s.epoch)
          .arg(s.train_loss, 0, 'f', 3)
          .arg(s.validation_loss, 0, 'f', 3)
          .arg(figure, duration(s.total_seconds), notes));
}

void TrainView::showSnapshot(const TrainingSnapshot& snapshot) {
  totalBatch_ = std::max<qint64>(totalBatch_, snapshot.batch);
  snapshots_->addSnapshot(snapshot);
  if (std::isfinite(snapshot.loss))
    curves_->addTrainingLoss(static_cast<double>(snapshot.batch), snapshot.loss);
  scheduleCurves();
}

void TrainView::finish(const TrainingRecord& record, bool stopped) {
  // Fewer epochs than asked for: patience ended the run (no better epoch for a while).
  QString status = stopped ? tr("Stopped after %1 batches").arg(totalBatch_)
                           : tr("Finished after %1 of %2 epochs").arg(record.epochs).arg(epochs_);
  if (!stopped && record.epochs < epochs_)
    status += (task_ ? tr(" (no better exact match for %1 epochs)")
                     : tr(" (no better BLEU for %1 epochs)"))
                  .arg(patience_);
  // The kept epoch with the figures that chose it, as its log line shows them.
  const QString figure =
      record.validation_accuracy >= 0
          ? tr("exact match %1 %").arg(100.0 * record.validation_accuracy, 0, 'f', 1)
          : tr("BLEU %1").arg(record.validation_bleu, 0, 'f', 2);
  status += QFileInfo::exists(modelPath_) ? tr("; the model is epoch %1's (%2, validation loss %3)")
                                                .arg(record.best_epoch)
                                                .arg(figure)
                                                .arg(record.validation_loss, 0, 'f', 3)
                                          : tr("; no model was saved");
  snapshots_->setKeptEpoch(QFileInfo::exists(modelPath_) ? record.best_epoch : 0);
  log(status);  // under the epochs it sums up, whole (the status line may cut it)
  if (progress_->maximum() > 1 && !stopped) progress_->setValue(progress_->maximum());
  endRun(status);
}

void TrainView::fail(const QString& message, const QString& setting) {
  log(message);
  endRun(message);
  settings_->focusSetting(setting);
  Q_EMIT errorOccurred(message);
}

void TrainView::endRun(const QString& status) {
  state_ = State::Idle;
  status_->setText(status);
  status_->setToolTip(status);
  curvesTimer_.stop();
  curves_->refresh();
  updateButtons();
  Q_EMIT runEnded();
}

void TrainView::scheduleCurves() {
  if (!curvesTimer_.isActive()) curvesTimer_.start(kCurvesInterval);
}

void TrainView::log(const QString& line) { log_->appendPlainText(line); }

void TrainView::saveModel(const QString& path) {
  const QString model = modelPath();
  if (model.isEmpty())
    throw std::runtime_error("cannot save '" + path.toStdString() + "': no trained model yet");
  QFile file(model);
  if (!file.open(QIODevice::ReadOnly))
    throw std::runtime_error("cannot save '" + path.toStdString() + "': the trained model '" +
                             model.toStdString() + "' cannot be read");
  saveExport(path, file.readAll());
  saved_ = true;
  savedPath_ = path;
}

QString TrainView::unsavedWork() const {
  if (isRunning()) return tr("the training run in progress");
  if (!modelPath().isEmpty() && !saved_) return tr("the trained model, which is not saved");
  return {};
}

bool TrainView::isOwnModel(const QString& path) const {
  const QString folder = QFileInfo(dir_.path()).canonicalFilePath();
  return !folder.isEmpty() && QFileInfo(path).canonicalPath() == folder;
}

void TrainView::writeAndReport(const std::function<void()>& write, const QString& done) {
  try {
    write();
    status_->setText(done);
  } catch (const std::exception& e) {
    Q_EMIT errorOccurred(QString::fromStdString(e.what()));
  }
}

void TrainView::saveModelDialog() {
  const QString path =
      askSavePath(this, AppSettings::Folder::Model, tr("Save model"),
                  QFileInfo(modelPath_).fileName(), tr("attnscope models (*.attnmodel)"));
  if (path.isEmpty()) return;
  writeAndReport([&] { saveModel(path); }, tr("Saved the model to %1").arg(path));
}

void TrainView::exportTimeline(const QString& path) { ui::exportTimeline(snapshots(), path); }

void TrainView::exportTimelineDialog() {
  const QString path =
      askSavePath(this, AppSettings::Folder::Timeline, tr("Export timeline"),
                  QFileInfo(modelPath_).completeBaseName() + QStringLiteral("-timeline.gif"),
                  tr("Animation (*.gif);;Small multiples (*.png *.svg *.pdf)"));
  if (path.isEmpty()) return;
  writeAndReport([&] { exportTimeline(path); }, tr("Exported the timeline to %1").arg(path));
}

QSize TrainView::exportSize() const { return snapshots_->heatmap()->size(); }

QString TrainView::nothingToExport() const {
  return snapshots().empty() ? tr("Nothing to export yet: start a training run first.") : QString();
}

void TrainView::exportTo(const QString& path, const ExportOptions& options) const {
  exportHeatmaps({snapshots_->heatmap()}, path, options);
}

}  // namespace attnscope::ui
