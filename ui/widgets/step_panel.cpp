#include "widgets/step_panel.h"

#include <QVBoxLayout>
#include <cmath>

#include "core/token_text.h"
#include "plots/attention_bars.h"
#include "widgets/candidates_view.h"

namespace attnscope::ui {

StepPanel::StepPanel(QWidget* parent) : QWidget(parent) {
  heading_ = new QLabel(this);
  heading_->setWordWrap(true);
  candidates_ = new CandidatesView(this);
  bars_ = new AttentionBars(this);
  attentionLabel_ = new QLabel(this);
  attentionLabel_->setWordWrap(true);
  attributionLabel_ = new QLabel(this);
  attributionLabel_->setWordWrap(true);
  attributionBars_ = new AttentionBars(this);
  attributionBars_->setObjectName(QStringLiteral("attributionBars"));
  attributionBars_->setUnitRange(false);  // its own scale: gradients are far below 1
  attributionBars_->setEditable(false, tr("An attribution is measured, not set: edit the "
                                          "attention above and see what the output does"));
  entropy_ = new QLabel(this);
  entropy_->setWordWrap(true);  // unwrapped, its width cut the panel off in a narrow column
  entropy_->setToolTip(
      tr("Entropy of this step's attention: 0 when it looks at one word, "
         "log n when spread evenly over n words"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(heading_);
  candidatesLabel_ = new QLabel(this);
  candidatesLabel_->setWordWrap(true);
  setBeamNodeCandidates(false);
  layout->addWidget(candidatesLabel_);
  // The list as tall as its candidates: the bars below get the room it left empty.
  candidates_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
  candidates_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
  layout->addWidget(candidates_);
  layout->addWidget(attentionLabel_);
  layout->addWidget(bars_, 1);
  layout->addWidget(entropy_);
  layout->addWidget(attributionLabel_);
  layout->addWidget(attributionBars_, 1);
  connect(candidates_, &CandidatesView::candidateChosen, this, &StepPanel::candidateChosen);
  setAttentionEdited(false);
  showAttribution({}, {}, {}, false, {});
  showStep(nullptr, 0, {});
}

void StepPanel::setBeamNodeCandidates(bool beam) {
  candidatesLabel_->setText(beam ? tr("Next-token candidates (click or Enter to show its node):")
                                 : tr("Next-token candidates (click or Enter to force):"));
  candidates_->setChoice(beam ? CandidatesView::Choice::kShowNode : CandidatesView::Choice::kForce);
}

void StepPanel::setAttentionEdited(bool edited) {
  attentionLabel_->setText(
      edited ? tr("Attention at this step, <b>edited</b> (the model's own dashed). The word above, "
                  "its candidates and the heatmap stay the model's own; the what-if line shows "
                  "what the model writes with your edit:")
             : tr("Attention at this step:"));
}

void StepPanel::showAttribution(const QString& title, const QStringList& sourceLabels,
                                const std::vector<float>& row, bool signedValues,
                                const QString& valueName, const QString& note,
                                const QString& detail) {
  attributionLabel_->setVisible(!title.isEmpty());
  attributionBars_->setVisible(!title.isEmpty() && note.isEmpty());
  if (title.isEmpty()) return;
  QString text = note.isEmpty() ? tr("%1 at this step:").arg(title.toHtmlEscaped())
                                : tr("%1: %2").arg(title.toHtmlEscaped(), note.toHtmlEscaped());
  // The label wraps, so the numbers are never clipped; the hover repeats them.
  if (!detail.isEmpty())
    text +=
        QStringLiteral("<br><span style='font-size:small'>%1</span>").arg(detail.toHtmlEscaped());
  attributionLabel_->setText(text);
  attributionLabel_->setToolTip(detail);
  attributionBars_->setDetail(detail);
  attributionBars_->setSigned(signedValues);
  attributionBars_->setValueName(valueName);
  attributionBars_->setRow(sourceLabels, row);
}

QString StepPanel::pieceText(const QString& token, const QString& marker, bool words, bool first) {
  if (marker.isEmpty() || (token.startsWith('<') && token.endsWith('>'))) return token;
  if (marker == QLatin1String("@@")) {
    if (!words || !token.endsWith(marker)) return token;
    return token.chopped(marker.size()) + QStringLiteral("…");
  }
  if (!token.startsWith(marker)) return words && !first ? QStringLiteral("…") + token : token;
  if (!words) return readableToken(token, first);
  const QString rest = token.mid(marker.size());
  return rest.isEmpty() ? readableToken(token, first) : rest;
}

void StepPanel::showStep(const Step* step, int index, const QStringList& sourceLabels,
                         const QString& marker, bool words) {
  if (step == nullptr) {
    heading_->setText(tr("No step yet: press Enter to translate, or → to decode one step."));
    candidates_->clear();
    bars_->setRow({}, {});
    entropy_->clear();
    return;
  }
  const QString token = QString::fromStdString(step->token);
  const bool first = index == 0;
  heading_->setText(tr("Step %1: <b>%2</b> (p = %3)%4")
                        .arg(QString::number(index + 1),
                             pieceText(token, marker, words, first).toHtmlEscaped(),
                             QString::number(step->probability, 'f', 3),
                             step->forced ? tr(", forced") : QString()));
  QStringList labels;
  for (const Candidate& c : step->candidates)
    labels << pieceText(QString::fromStdString(c.token), marker, words, first);
  candidates_->setCandidates(step->candidates, token, labels);
  bars_->setRow(sourceLabels, step->attention);
  if (step->attention.empty()) {  // the baseline without attention: no row, no entropy
    entropy_->setText(tr("No attention: this model reads one fixed context at every step."));
    return;
  }
  const double uniform = std::log(std::max<qsizetype>(1, sourceLabels.size()));
  entropy_->setText(tr("Attention entropy: %1 nats (uniform: %2)")
                        .arg(step->entropy, 0, 'f', 3)
                        .arg(uniform, 0, 'f', 3));
}

}  // namespace attnscope::ui
