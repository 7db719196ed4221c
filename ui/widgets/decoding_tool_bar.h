#pragma once
// The window's toolbar: the model, greedy or beam search, the step keys (Home ← Space →), the
// play speed, the colour map and the Numbers switch. It holds the choices; the window acts on
// its signals. Its step buttons take the focus by Tab; its labels have mnemonics (Alt+M).
#include <QToolBar>

class QAction;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
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
  /// The toolbar of how the heatmap looks (colour map, Numbers), added beside this one.
  QToolBar* viewBar() const { return viewBar_; }
  /// 1 for greedy search, else the beam's size.
  int beamSize() const;
  /// The beam's GNMT length penalty alpha; negative ("α off"): scores divided by the length.
  float lengthPenalty() const;
  /// The beam's GNMT coverage penalty beta (0: none).
  float coveragePenalty() const;
  /// Milliseconds between two steps while playing.
  int playInterval() const;
  /// Hovering model `key`'s entry in the model box shows `tip`.
  void setModelToolTip(const QString& key, const QString& tip);
  /// Play's button says Pause while playing.
  void setPlaying(bool playing);
  /// The decoding keys, for Help > Keys (HTML).
  static QString keysHelp();
  /// The choices of the last run: search, beam size and penalties, play speed, colour map, Numbers
  /// (a value out of range, from an edited settings file, falls back to the default).
  void restoreChoices();
  void saveChoices() const;

 Q_SIGNALS:
  /// Greedy or beam, or the beam's size or penalties, changed.
  void searchChanged();
  void resetRequested();
  void stepBackRequested();
  void playRequested();
  void stepForwardRequested();
  void endRequested();
  void playIntervalChanged(int milliseconds);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;
  void changeEvent(QEvent* event) override;

 private:
  // Play's button as wide as its widest text, so the buttons after it stay put when it toggles.
  void fixPlayWidth();

  QComboBox* models_ = nullptr;
  QComboBox* search_ = nullptr;
  QSpinBox* beam_ = nullptr;
  QDoubleSpinBox* alpha_ = nullptr;
  QDoubleSpinBox* beta_ = nullptr;
  QSlider* speed_ = nullptr;
  QComboBox* colormaps_ = nullptr;
  QCheckBox* values_ = nullptr;
  QAction* play_ = nullptr;
  QToolBar* viewBar_ = nullptr;
};

}  // namespace attnscope::ui
