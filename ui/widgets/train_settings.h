#pragma once
// The Train tab's settings: what to train on (a built-in task or a parallel corpus) and how,
// turned into attnscope::TrainOptions. Choosing a task fills in its default settings.
#include <attnscope/trainer.h>

#include <QStringList>
#include <QWidget>
#include <array>
#include <string>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace attnscope::ui {

class TrainSettings : public QWidget {
  Q_OBJECT
 public:
  explicit TrainSettings(QWidget* parent = nullptr);

  /// A built-in task's name, or empty for a parallel corpus.
  QString task() const;
  /// Chooses a task ("" for a parallel corpus) and fills in its defaults.
  void setTask(const QString& name);
  /// Training source and target, validation source and target.
  void setCorpusFiles(const QStringList& paths);
  QStringList corpusFiles() const;
  /// Start can go: a task is chosen, or all four corpus files are.
  bool isComplete() const;
  /// The settings as chosen, the model written to `outputPath`.
  attnscope::TrainOptions options(const std::string& outputPath) const;
  /// Gives the focus to the control of TrainOptions field `setting` ("epochs", "model.hidden").
  void focusSetting(const QString& setting);

  // For tests.
  QComboBox* taskBox() const { return task_; }
  QComboBox* scoreBox() const { return score_; }
  QComboBox* decoderBox() const { return decoder_; }
  QSpinBox* embeddingBox() const { return embedding_; }
  QSpinBox* hiddenBox() const { return hidden_; }
  QSpinBox* epochsBox() const { return epochs_; }
  QSpinBox* batchSizeBox() const { return batchSize_; }
  QSpinBox* examplesBox() const { return examples_; }
  QSpinBox* snapshotEveryBox() const { return snapshotEvery_; }
  QDoubleSpinBox* learningRateBox() const { return learningRate_; }

 Q_SIGNALS:
  /// The task or a corpus file changed (isComplete() may have too).
  void changed();

 private:
  void applyDefaults();
  void chooseFile(int index);
  QWidget* settingControl(const QString& setting) const;

  QComboBox* task_ = nullptr;
  QLabel* description_ = nullptr;
  QWidget* corpus_ = nullptr;
  std::array<QLineEdit*, 4> files_{};
  QComboBox* score_ = nullptr;
  QComboBox* decoder_ = nullptr;  // item data: ModelConfig::decoder
  QSpinBox* embedding_ = nullptr;
  QSpinBox* hidden_ = nullptr;
  QSpinBox* epochs_ = nullptr;
  QSpinBox* batchSize_ = nullptr;
  QDoubleSpinBox* learningRate_ = nullptr;
  QLabel* examplesLabel_ = nullptr;
  QSpinBox* examples_ = nullptr;
  QSpinBox* snapshotEvery_ = nullptr;
};

}  // namespace attnscope::ui
