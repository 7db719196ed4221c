#include "widgets/decoding_tool_bar.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QSlider>
#include <QSpinBox>

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
  speed_ = new QSlider(Qt::Horizontal, this);
  speed_->setRange(1, 20);  // steps per second
  speed_->setValue(4);
  speed_->setMaximumWidth(120);
  speed_->setToolTip(tr("Play speed: steps per second"));
  colormaps_ = new QComboBox(this);
  colormaps_->addItems(colormapNames());
  values_ = new QCheckBox(tr("Numbers"), this);

  addWidget(new QLabel(tr(" Model: "), this));
  addWidget(models_);
  addSeparator();
  addWidget(search_);
  addWidget(beam_);
  addSeparator();
  auto addStepAction = [this](const QString& text, const QKeySequence& key, auto signal,
                              const char* name) {
    QAction* action = addAction(text, this, signal);
    action->setShortcut(key);
    action->setToolTip(QStringLiteral("%1 (%2)").arg(text, key.toString(QKeySequence::NativeText)));
    action->setObjectName(QLatin1String(name));
    return action;
  };
  addStepAction(tr("Reset"), QKeySequence(Qt::Key_Home), &DecodingToolBar::resetRequested,
                "resetAction");
  addStepAction(tr("◀ Back"), QKeySequence(Qt::Key_Left), &DecodingToolBar::stepBackRequested,
                "stepBackAction");
  play_ = addStepAction(tr("▶ Play"), QKeySequence(Qt::Key_Space), &DecodingToolBar::playRequested,
                        "playAction");
  addStepAction(tr("Step ▶"), QKeySequence(Qt::Key_Right), &DecodingToolBar::stepForwardRequested,
                "stepForwardAction");
  addWidget(speed_);
  addSeparator();
  addWidget(new QLabel(tr(" Colours: "), this));
  addWidget(colormaps_);
  addWidget(values_);

  connect(search_, &QComboBox::currentIndexChanged, this, [this](int index) {
    beam_->setEnabled(static_cast<Search>(index) == Search::Beam);
    Q_EMIT searchChanged();
  });
  connect(beam_, &QSpinBox::valueChanged, this, &DecodingToolBar::searchChanged);
  connect(speed_, &QSlider::valueChanged, this,
          [this] { Q_EMIT playIntervalChanged(playInterval()); });
}

int DecodingToolBar::beamSize() const {
  return static_cast<Search>(search_->currentIndex()) == Search::Beam ? beam_->value() : 1;
}

int DecodingToolBar::playInterval() const { return 1000 / speed_->value(); }

void DecodingToolBar::setPlaying(bool playing) {
  play_->setText(playing ? tr("⏸ Pause") : tr("▶ Play"));
}

}  // namespace attnscope::ui
