#include "widgets/decoding_tool_bar.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QIcon>
#include <QKeyEvent>
#include <QLabel>
#include <QSlider>
#include <QSpinBox>
#include <QStyle>
#include <algorithm>
#include <cmath>

#include "core/app_settings.h"
#include "plots/colormaps.h"

namespace attnscope::ui {
namespace {

// The entries of the search box, in the order they are added.
enum class Search { Greedy = 0, Beam = 1 };

}  // namespace

DecodingToolBar::DecodingToolBar(QWidget* parent) : QToolBar(tr("Decoding"), parent) {
  setObjectName(QStringLiteral("decodingToolBar"));
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
  search_->setToolTip(
      tr("Greedy: the most probable word at each step, stepped one at a time. "
         "Beam: several hypotheses kept at each step, the search shown as a tree"));
  beam_->setToolTip(
      tr("Beam size: the hypotheses kept at each step (Greedy beside it is a beam "
         "of 1)"));
  // GNMT's penalties (Wu et al. 2016), for the beam only: greedy search ranks nothing.
  alpha_ = new QDoubleSpinBox(this);
  alpha_->setObjectName(QStringLiteral("lengthPenaltyBox"));
  alpha_->setRange(-0.1, 3.0);  // the minimum stands for "off"
  alpha_->setSingleStep(0.1);
  alpha_->setDecimals(1);
  alpha_->setValue(alpha_->minimum());
  alpha_->setPrefix(tr("α "));
  alpha_->setSpecialValueText(tr("α off"));
  alpha_->setToolTip(
      tr("Length penalty α: a beam hypothesis scores log P / ((5 + length) / 6)^α (0: log P "
         "itself); off: log P / length"));
  alpha_->setEnabled(false);
  beta_ = new QDoubleSpinBox(this);
  beta_->setObjectName(QStringLiteral("coveragePenaltyBox"));
  beta_->setRange(0.0, 3.0);
  beta_->setSingleStep(0.1);
  beta_->setDecimals(1);
  beta_->setPrefix(tr("β "));
  beta_->setToolTip(
      tr("Coverage penalty β: adds β · Σ log min(1, attention a source word received), so "
         "hypotheses that skip source words rank lower (0: none)"));
  beta_->setEnabled(false);
  speed_ = new QSlider(Qt::Horizontal, this);
  speed_->setRange(1, 20);  // steps per second
  speed_->setValue(4);
  speed_->setMaximumWidth(120);
  speed_->setToolTip(tr("Play speed: steps per second"));
  // How the heatmap looks, in a toolbar of its own: in a narrow window it moves to a row below
  // (MainWindow) instead of vanishing into this toolbar's overflow menu.
  viewBar_ = new QToolBar(tr("View"), parent);
  viewBar_->setObjectName(QStringLiteral("viewToolBar"));
  colormaps_ = new QComboBox(viewBar_);
  colormaps_->addItems(colormapNames());
  values_ = new QCheckBox(tr("&Numbers"), viewBar_);
  // Icons, not glyphs such as ⏸ that many fonts lack; the theme's, or the style's own.
  setToolButtonStyle(Qt::ToolButtonTextBesideIcon);

  auto* modelLabel = new QLabel(tr(" &Model: "), this);
  modelLabel->setBuddy(models_);
  addWidget(modelLabel);
  addWidget(models_);
  addSeparator();
  addWidget(search_);
  addWidget(beam_);
  addWidget(alpha_);
  addWidget(beta_);
  addSeparator();
  auto addStepAction = [this](const QString& text, const QString& tip, const QKeySequence& key,
                              const char* icon, QStyle::StandardPixmap fallback, auto signal,
                              const char* name) {
    QAction* action = addAction(
        QIcon::fromTheme(QLatin1String(icon), style()->standardIcon(fallback)), text, this, signal);
    action->setShortcut(key);
    action->setToolTip(QStringLiteral("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText)));
    action->setObjectName(QLatin1String(name));
    // Toolbar buttons take no focus by default: Tab should reach them.
    QWidget* button = widgetForAction(action);
    button->setFocusPolicy(Qt::TabFocus);
    button->installEventFilter(this);
    return action;
  };
  addStepAction(tr("Reset"), tr("Back to the start, without forced tokens"),
                QKeySequence(Qt::Key_Home), "media-skip-backward", QStyle::SP_MediaSkipBackward,
                &DecodingToolBar::resetRequested, "resetAction");
  addStepAction(tr("Back"), tr("One step back"), QKeySequence(Qt::Key_Left), "media-seek-backward",
                QStyle::SP_MediaSeekBackward, &DecodingToolBar::stepBackRequested,
                "stepBackAction");
  play_ = addStepAction(tr("Play"), tr("Play or pause"), QKeySequence(Qt::Key_Space),
                        "media-playback-start", QStyle::SP_MediaPlay,
                        &DecodingToolBar::playRequested, "playAction");
  addStepAction(tr("Step"), tr("One step forward"), QKeySequence(Qt::Key_Right),
                "media-seek-forward", QStyle::SP_MediaSeekForward,
                &DecodingToolBar::stepForwardRequested, "stepForwardAction");
  addStepAction(tr("End"), tr("Every step, to the end of the sentence"), QKeySequence(Qt::Key_End),
                "media-skip-forward", QStyle::SP_MediaSkipForward, &DecodingToolBar::endRequested,
                "endAction");
  fixPlayWidth();
  addWidget(speed_);
  addSeparator();
  auto* colourLabel = new QLabel(tr(" &Colours: "), viewBar_);
  colourLabel->setBuddy(colormaps_);
  viewBar_->addWidget(colourLabel);
  viewBar_->addWidget(colormaps_);
  viewBar_->addWidget(values_);

  // Tab in the order the toolbar reads, not the order its widgets were made.
  QWidget* previous = beta_;
  for (QAction* action : actions())
    if (QWidget* button = widgetForAction(action);
        button != nullptr && button->focusPolicy() == Qt::TabFocus) {
      setTabOrder(previous, button);
      previous = button;
    }
  setTabOrder(previous, speed_);

  connect(search_, &QComboBox::currentIndexChanged, this, [this](int index) {
    const bool beam = static_cast<Search>(index) == Search::Beam;
    for (QWidget* box : {static_cast<QWidget*>(beam_), static_cast<QWidget*>(alpha_),
                         static_cast<QWidget*>(beta_)})
      box->setEnabled(beam);
    Q_EMIT searchChanged();
  });
  connect(beam_, &QSpinBox::valueChanged, this, &DecodingToolBar::searchChanged);
  connect(alpha_, &QDoubleSpinBox::valueChanged, this, &DecodingToolBar::searchChanged);
  connect(beta_, &QDoubleSpinBox::valueChanged, this, &DecodingToolBar::searchChanged);
  connect(speed_, &QSlider::valueChanged, this,
          [this] { Q_EMIT playIntervalChanged(playInterval()); });
}

int DecodingToolBar::beamSize() const {
  return static_cast<Search>(search_->currentIndex()) == Search::Beam ? beam_->value() : 1;
}

float DecodingToolBar::lengthPenalty() const {
  return alpha_->value() <= alpha_->minimum() ? -1.0f : static_cast<float>(alpha_->value());
}

float DecodingToolBar::coveragePenalty() const { return static_cast<float>(beta_->value()); }

void DecodingToolBar::setModelToolTip(const QString& key, const QString& tip) {
  models_->setItemData(models_->findText(key), tip, Qt::ToolTipRole);
}

int DecodingToolBar::playInterval() const { return 1000 / speed_->value(); }

void DecodingToolBar::restoreChoices() {
  const AppSettings settings;
  const int beam = settings.beamSize();
  if (beam >= beam_->minimum() && beam <= beam_->maximum()) beam_->setValue(beam);
  search_->setCurrentIndex(
      static_cast<int>(beam > 1 && beam <= beam_->maximum() ? Search::Beam : Search::Greedy));
  // Out of range (an edited file): clamped by the boxes; negative alpha is "off".
  alpha_->setValue(std::max(alpha_->minimum(), settings.lengthPenalty()));
  const double beta = settings.coveragePenalty();
  beta_->setValue(std::isfinite(beta) ? beta : 0.0);
  const int speed = settings.playSpeed();
  if (speed >= speed_->minimum() && speed <= speed_->maximum()) speed_->setValue(speed);
  colormaps_->setCurrentText(settings.colormap());
  values_->setChecked(settings.showValues());
}

void DecodingToolBar::saveChoices() const {
  AppSettings settings;
  settings.setBeamSize(beamSize());
  settings.setLengthPenalty(lengthPenalty());
  settings.setCoveragePenalty(coveragePenalty());
  settings.setPlaySpeed(speed_->value());
  settings.setColormap(colormaps_->currentText());
  settings.setShowValues(values_->isChecked());
}

void DecodingToolBar::setPlaying(bool playing) {
  play_->setText(playing ? tr("Pause") : tr("Play"));
  play_->setIcon(playing ? QIcon::fromTheme(QStringLiteral("media-playback-pause"),
                                            style()->standardIcon(QStyle::SP_MediaPause))
                         : QIcon::fromTheme(QStringLiteral("media-playback-start"),
                                            style()->standardIcon(QStyle::SP_MediaPlay)));
}

void DecodingToolBar::fixPlayWidth() {
  QWidget* button = widgetForAction(play_);
  const QString text = play_->text();
  int width = 0;
  for (const QString& state : {tr("Play"), tr("Pause")}) {
    play_->setText(state);
    width = std::max(width, button->sizeHint().width());
  }
  play_->setText(text);
  button->setFixedWidth(width);
}

void DecodingToolBar::changeEvent(QEvent* event) {
  QToolBar::changeEvent(event);
  const bool resized = event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange;
  if (resized && play_ != nullptr) fixPlayWidth();
}

bool DecodingToolBar::eventFilter(QObject* watched, QEvent* event) {
  // A step button focused by Tab takes Space as any button does, instead of the Play shortcut.
  if (event->type() == QEvent::ShortcutOverride &&
      static_cast<QKeyEvent*>(event)->key() == Qt::Key_Space) {
    event->accept();
    return true;
  }
  return QToolBar::eventFilter(watched, event);
}

QString DecodingToolBar::keysHelp() {
  return tr(
      "<p>After Enter the heatmap has the focus (a frame shows it), so the decoding keys "
      "work at once:</p><table cellspacing='4'>"
      "<tr><td><b>→</b></td><td>one step forward (Step)</td></tr>"
      "<tr><td><b>←</b></td><td>one step back (Back)</td></tr>"
      "<tr><td><b>↑ ↓</b></td><td>the row above or below the framed one: its step in the step "
      "panel, as clicking the row shows it</td></tr>"
      "<tr><td><b>Space</b></td><td>play or pause (Play)</td></tr>"
      "<tr><td><b>Home</b></td><td>back to the start, forced tokens dropped (Reset)</td></tr>"
      "<tr><td><b>End</b></td><td>every step, to the end of the sentence (End); with a beam "
      "tree shown, every step of its search (→ ← Home step through it as through greedy "
      "decoding)</td></tr>"
      "<tr><td><b>Enter</b></td><td>in the input line: translate; on a candidate in the step "
      "panel: force it and decode on from there</td></tr>"
      "<tr><td><b>Tab</b></td><td>next control: the candidates (↑ ↓ choose one), the "
      "buttons Reset, Back, Play, Step, End (Space presses the focused one)</td></tr>"
      "<tr><td><b>Alt+M</b>, <b>Alt+C</b></td><td>the Model and Colours boxes</td></tr>"
      "<tr><td><b>Ctrl+0</b></td><td>show the whole heatmap again after zooming (mouse wheel: "
      "zoom; in a grid that scrolls, Ctrl+wheel)</td></tr>"
      "</table><p>Typing on the heatmap starts the next sentence.</p>"
      "<p>Anywhere in the window, the input line too:</p><table cellspacing='4'>"
      "<tr><td><b>↑ ↓</b></td><td>in the input line: earlier sentences</td></tr>"
      "<tr><td><b>Ctrl+O</b></td><td>open a model</td></tr>"
      "<tr><td><b>Ctrl+Shift+O</b></td><td>open an attention file (another tool's)</td></tr>"
      "<tr><td><b>Ctrl+Shift+E</b></td><td>export what the tab shows</td></tr>"
      "<tr><td><b>Ctrl+Shift+K</b></td><td>Compare all, and back</td></tr>"
      "<tr><td><b>Ctrl+Shift+R</b></td><td>reset attention edits (drag a bar of the step "
      "panel's attention, or right-click it, to edit)</td></tr>"
      "<tr><td><b>Ctrl+I</b></td><td>model info</td></tr>"
      "<tr><td><b>F1</b></td><td>these keys</td></tr>"
      "<tr><td><b>Shift+F1</b></td><td>the user guide (the <b>?</b> at the end of the tabs: "
      "its section on the shown tab)</td></tr></table>");
}

}  // namespace attnscope::ui
