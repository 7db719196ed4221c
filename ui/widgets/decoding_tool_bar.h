#pragma once
// The window's toolbar: the model, greedy or beam search, the step keys (Home ← Space →), the
// play speed, the colour map and the Numbers switch. It holds the choices; the window acts on
// its signals.
#include <QToolBar>

class QAction;
class QCheckBox;
class QComboBox;
class QSlider;
class QSpinBox;

namespace attnscope::ui {

class DecodingToolBar : public QToolBar {
  Q_OBJECT
 public:
  explicit DecodingToolBar(QWidget* parent = nullptr);

  QComboBox* modelBox() const { return models_; }
  QComboBox* colormapBox() const { return colormaps_; }
  QCheckBox* valuesBox() const { return values_; }
  /// 1 for greedy search, else the beam's size.
  int beamSize() const;
  /// Milliseconds between two steps while playing.
  int playInterval() const;
  /// Play's button says Pause while playing.
  void setPlaying(bool playing);

 Q_SIGNALS:
  /// Greedy or beam, or the beam's size, changed.
  void searchChanged();
  void resetRequested();
  void stepBackRequested();
  void playRequested();
  void stepForwardRequested();
  void playIntervalChanged(int milliseconds);

 private:
  QComboBox* models_ = nullptr;
  QComboBox* search_ = nullptr;
  QSpinBox* beam_ = nullptr;
  QSlider* speed_ = nullptr;
  QComboBox* colormaps_ = nullptr;
  QCheckBox* values_ = nullptr;
  QAction* play_ = nullptr;
};

}  // namespace attnscope::ui
