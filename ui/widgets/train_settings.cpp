#include "widgets/train_settings.h"

#include <attnscope/score_functions.h>
#include <attnscope/training_tasks.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QToolButton>

#include "core/app_settings.h"
#include "widgets/file_dialogs.h"

namespace attnscope::ui {
namespace {

// Snapshots every this many batches when the defaults do not say: a task's few hundred batches
// an epoch give a smooth timeline, a corpus' larger model is decoded less often.
constexpr int kTaskSnapshotEvery = 10;
constexpr int kCorpusSnapshotEvery = 50;

QSpinBox* spinBox(QWidget* parent, int minimum, int maximum, const QString& tip) {
  auto* box = new QSpinBox(parent);
  box->setRange(minimum, maximum);
  box->setGroupSeparatorShown(true);
  box->setToolTip(tip);
  return box;
}

}  // namespace

TrainSettings::TrainSettings(QWidget* parent) : QWidget(parent) {
  task_ = new QComboBox(this);
  for (const TaskSpec& spec : training_tasks()) {
    task_->addItem(QString::fromStdString(spec.name), QString::fromStdString(spec.name));
    task_->setItemData(task_->count() - 1, QString::fromStdString(spec.description),
                       Qt::ToolTipRole);
  }
  task_->addItem(tr("Parallel corpus…"), QString());
  task_->setItemData(task_->count() - 1,
                     tr("Your own sentence pairs: four files, one sentence per line"),
                     Qt::ToolTipRole);
  description_ = new QLabel(this);
  description_->setWordWrap(true);

  corpus_ = new QWidget(this);
  auto* corpusLayout = new QFormLayout(corpus_);
  corpusLayout->setContentsMargins(0, 0, 0, 0);
  const QStringList fileLabels = {tr("Training source"), tr("Training target"),
                                  tr("Validation source"), tr("Validation target")};
  for (int i = 0; i < 4; ++i) {
    files_[i] = new QLineEdit(corpus_);
    files_[i]->setPlaceholderText(tr("plain text or .gz, one sentence per line"));
    auto* browse = new QToolButton(corpus_);
    browse->setText(QStringLiteral("…"));
    browse->setToolTip(tr("Choose the %1 file").arg(fileLabels[i].toLower()));
    auto* row = new QHBoxLayout;
    row->addWidget(files_[i], 1);
    row->addWidget(browse);
    corpusLayout->addRow(fileLabels[i], row);
    connect(browse, &QToolButton::clicked, this, [this, i] { chooseFile(i); });
    connect(files_[i], &QLineEdit::textChanged, this, [this] {
      AppSettings().setTrainCorpusFiles(corpusFiles());
      Q_EMIT changed();
    });
  }

  score_ = new QComboBox(this);
  for (const std::string& name : score_function_names())
    score_->addItem(QString::fromStdString(name));
  score_->setItemData(score_->findText(QString::fromUtf8(kNoAttention)),
                      tr("No attention: the baseline that reads one fixed context"),
                      Qt::ToolTipRole);
  score_->setCurrentText(QStringLiteral("additive"));
  score_->setToolTip(tr("How the decoder scores each source token (none: no attention)"));
  decoder_ = new QComboBox(this);
  decoder_->addItem(tr("GRU"), QString::fromLatin1(kGruDecoder));
  decoder_->setItemData(0, tr("Attention queried with the previous state (Bahdanau et al.)"),
                        Qt::ToolTipRole);
  decoder_->addItem(tr("Conditional GRU"), QString::fromLatin1(kConditionalGruDecoder));
  decoder_->setItemData(1,
                        tr("Attention queried between two GRUs, after reading the previous word "
                           "(Nematus)"),
                        Qt::ToolTipRole);
  decoder_->setToolTip(tr("The decoder's recurrence: when attention is queried"));
  embedding_ = spinBox(this, 1, 4096, tr("Word (or character) embedding size"));
  hidden_ = spinBox(this, 1, 4096, tr("Size of the decoder's GRU and of each encoder direction"));
  epochs_ = spinBox(this, 1, 10000, tr("Passes over the training examples at most"));
  batchSize_ = spinBox(this, 1, 65536, tr("Sentence pairs per training step"));
  learningRate_ = new QDoubleSpinBox(this);
  learningRate_->setDecimals(5);
  learningRate_->setRange(0.00001, 1.0);
  learningRate_->setSingleStep(0.0005);
  learningRate_->setToolTip(tr("Adam's step size"));
  examples_ = spinBox(this, 1, 10000000, tr("Generated training examples per epoch"));
  snapshotEvery_ = spinBox(this, 0, 1000000,
                           tr("Decode the probe and record its attention every this many batches"));
  snapshotEvery_->setSpecialValueText(tr("never"));
  snapshotEvery_->setSuffix(tr(" batches"));

  auto* form = new QFormLayout(this);
  form->setContentsMargins(0, 0, 0, 0);
  form->addRow(tr("Train on"), task_);
  form->addRow(description_);
  form->addRow(corpus_);
  form->addRow(tr("Score function"), score_);
  form->addRow(tr("Decoder"), decoder_);
  form->addRow(tr("Embedding"), embedding_);
  form->addRow(tr("Hidden"), hidden_);
  form->addRow(tr("Epochs"), epochs_);
  form->addRow(tr("Batch size"), batchSize_);
  form->addRow(tr("Learning rate"), learningRate_);
  examplesLabel_ = new QLabel(tr("Examples"), this);
  form->addRow(examplesLabel_, examples_);
  form->addRow(tr("Snapshot every"), snapshotEvery_);

  setCorpusFiles(AppSettings().trainCorpusFiles());
  connect(task_, &QComboBox::currentIndexChanged, this, [this] {
    AppSettings().setTrainTask(task());
    applyDefaults();
    Q_EMIT changed();
  });
  setTask(AppSettings().trainTask());
  applyDefaults();  // also when the remembered task is the one already shown
}

QString TrainSettings::task() const { return task_->currentData().toString(); }

void TrainSettings::setTask(const QString& name) {
  const int index = task_->findData(name);
  task_->setCurrentIndex(index >= 0 ? index : 0);
}

void TrainSettings::setCorpusFiles(const QStringList& paths) {
  for (int i = 0; i < 4; ++i) files_[i]->setText(paths.value(i));
}

QStringList TrainSettings::corpusFiles() const {
  QStringList paths;
  for (const QLineEdit* edit : files_) paths << edit->text().trimmed();
  return paths;
}

bool TrainSettings::isComplete() const {
  if (!task().isEmpty()) return true;
  for (const QString& path : corpusFiles())
    if (path.isEmpty()) return false;
  return true;
}

void TrainSettings::applyDefaults() {
  const bool isTask = !task().isEmpty();
  const TrainOptions defaults = isTask ? task_options(task().toStdString(), "") : TrainOptions{};
  description_->setText(
      isTask ? QString::fromStdString(training_task(task().toStdString()).description)
             : tr("Your own parallel corpus, plain or .gz: BLEU on the validation set per epoch."));
  corpus_->setVisible(!isTask);
  examplesLabel_->setVisible(isTask);
  examples_->setVisible(isTask);
  if (isTask) examples_->setValue(training_task(task().toStdString()).train_examples);
  decoder_->setCurrentIndex(decoder_->findData(QString::fromStdString(defaults.model.decoder)));
  embedding_->setValue(static_cast<int>(defaults.model.embedding));
  hidden_->setValue(static_cast<int>(defaults.model.hidden));
  epochs_->setValue(defaults.epochs);
  batchSize_->setValue(defaults.batch_size);
  learningRate_->setValue(defaults.learning_rate);
  snapshotEvery_->setValue(defaults.snapshot_every > 0 ? defaults.snapshot_every
                           : isTask                    ? kTaskSnapshotEvery
                                                       : kCorpusSnapshotEvery);
}

void TrainSettings::chooseFile(int index) {
  const QString path =
      askOpenPath(this, AppSettings::Folder::Corpus, tr("Choose a corpus file"),
                  tr("Text, one sentence per line (*.txt *.en *.de *.fr *.gz *);;All files (*)"),
                  files_[index]->text());
  if (!path.isEmpty()) files_[index]->setText(path);
}

TrainOptions TrainSettings::options(const std::string& outputPath) const {
  const std::string name = task().toStdString();
  TrainOptions options = name.empty() ? TrainOptions{} : task_options(name, outputPath);
  options.output_path = outputPath;
  if (name.empty()) {
    const QStringList paths = corpusFiles();
    options.source_path = paths[0].toStdString();
    options.target_path = paths[1].toStdString();
    options.validation_source_path = paths[2].toStdString();
    options.validation_target_path = paths[3].toStdString();
    // The language pair the model will name, as train.fr.gz says; else en-de as before.
    for (auto [path, language] : {std::pair{&options.source_path, &options.model.source_language},
                                  std::pair{&options.target_path, &options.model.target_language}})
      if (const std::string code = language_of_corpus_file(*path); !code.empty()) *language = code;
  } else {
    options.task_examples = examples_->value();
  }
  options.model.score = score_->currentText().toStdString();
  options.model.decoder = decoder_->currentData().toString().toStdString();
  options.model.embedding = embedding_->value();
  // A task's additive scorer is as wide as its GRU (task_options); it stays so when resized.
  if (options.model.attention == options.model.hidden) options.model.attention = hidden_->value();
  options.model.hidden = hidden_->value();
  options.epochs = epochs_->value();
  options.batch_size = batchSize_->value();
  options.learning_rate = learningRate_->value();
  options.snapshot_every = snapshotEvery_->value();
  options.command = "attnscope (Train tab)";
  return options;
}

QWidget* TrainSettings::settingControl(const QString& setting) const {
  if (setting == QLatin1String("task")) return task_;
  if (setting == QLatin1String("model.score")) return score_;
  if (setting == QLatin1String("model.decoder")) return decoder_;
  if (setting == QLatin1String("model.embedding")) return embedding_;
  if (setting == QLatin1String("model.hidden")) return hidden_;
  if (setting == QLatin1String("epochs")) return epochs_;
  if (setting == QLatin1String("batch_size")) return batchSize_;
  if (setting == QLatin1String("learning_rate")) return learningRate_;
  if (setting == QLatin1String("task_examples")) return examples_;
  if (setting == QLatin1String("snapshot_every")) return snapshotEvery_;
  const QStringList fileSettings = {QStringLiteral("source_path"), QStringLiteral("target_path"),
                                    QStringLiteral("validation_source_path"),
                                    QStringLiteral("validation_target_path")};
  const int file = static_cast<int>(fileSettings.indexOf(setting));
  return file >= 0 ? files_[file] : nullptr;
}

void TrainSettings::focusSetting(const QString& setting) {
  if (QWidget* control = settingControl(setting)) control->setFocus(Qt::OtherFocusReason);
}

}  // namespace attnscope::ui
