#include "widgets/step_panel.h"

#include <QVBoxLayout>
#include <cmath>

#include "plots/attention_bars.h"
#include "widgets/candidates_view.h"

namespace attnscope::ui {

StepPanel::StepPanel(QWidget* parent) : QWidget(parent) {
  heading_ = new QLabel(this);
  heading_->setWordWrap(true);
  candidates_ = new CandidatesView(this);
  bars_ = new AttentionBars(this);
  entropy_ = new QLabel(this);
  entropy_->setToolTip(
      tr("Entropy of this step's attention: 0 when it looks at one word, "
         "log n when spread evenly over n words"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(heading_);
  layout->addWidget(new QLabel(tr("Next-token candidates (click to force):"), this));
  layout->addWidget(candidates_, 1);
  layout->addWidget(new QLabel(tr("Attention at this step:"), this));
  layout->addWidget(bars_, 1);
  layout->addWidget(entropy_);
  connect(candidates_, &CandidatesView::candidateChosen, this, &StepPanel::candidateChosen);
  showStep(nullptr, 0, {});
}

void StepPanel::showStep(const Step* step, int index, const QStringList& sourceTokens) {
  if (step == nullptr) {
    heading_->setText(tr("No step yet: press Enter to translate, or → to decode one step."));
    candidates_->clear();
    bars_->setRow({}, {});
    entropy_->clear();
    return;
  }
  const QString token = QString::fromStdString(step->token);
  heading_->setText(tr("Step %1: <b>%2</b> (p = %3)%4")
                        .arg(QString::number(index + 1), token.toHtmlEscaped(),
                             QString::number(step->probability, 'f', 3),
                             step->forced ? tr(", forced") : QString()));
  candidates_->setCandidates(step->candidates, token);
  bars_->setRow(sourceTokens, step->attention);
  if (step->attention.empty()) {  // the baseline without attention: no row, no entropy
    entropy_->setText(tr("No attention: this model reads one fixed context at every step."));
    return;
  }
  const double uniform = std::log(std::max<qsizetype>(1, sourceTokens.size()));
  entropy_->setText(tr("Attention entropy: %1 nats (uniform: %2)")
                        .arg(step->entropy, 0, 'f', 3)
                        .arg(uniform, 0, 'f', 3));
}

}  // namespace attnscope::ui
