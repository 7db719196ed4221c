#include "widgets/weights_dialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "core/what_if_text.h"

namespace attnscope::ui {

WeightsDialog::WeightsDialog(int step, const std::vector<float>& row, QWidget* parent)
    : QDialog(parent), step_(step), count_(static_cast<int>(row.size())) {
  setWindowTitle(tr("Attention weights"));
  auto* prompt = new QLabel(
      tr("Step %1: %2 weights, one per bar, separated by spaces or commas (renormalised):")
          .arg(step + 1)
          .arg(count_),
      this);
  prompt->setWordWrap(true);
  field_ = new QLineEdit(typedWeightsText(row), this);
  error_ = new QLabel(this);
  error_->setObjectName(QStringLiteral("weightsError"));
  error_->setStyleSheet(QStringLiteral("color: #d70015"));
  buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(prompt);
  layout->addWidget(field_);
  layout->addWidget(error_);
  layout->addWidget(buttons_);
  connect(buttons_, &QDialogButtonBox::accepted, this, &WeightsDialog::accept);
  connect(buttons_, &QDialogButtonBox::rejected, this, &WeightsDialog::reject);
  connect(field_, &QLineEdit::textChanged, this, &WeightsDialog::check);
  check();
}

void WeightsDialog::check() {
  weights_ = parseTypedWeights(field_->text(), step_, count_, &problem_);
  // One line: a long reason is elided, whole in the tooltip.
  error_->setText(
      error_->fontMetrics().elidedText(problem_, Qt::ElideRight, std::max(field_->width(), 300)));
  error_->setToolTip(problem_);
  error_->setVisible(!problem_.isEmpty());
  buttons_->button(QDialogButtonBox::Ok)->setEnabled(problem_.isEmpty());
}

void WeightsDialog::accept() {
  check();
  if (!problem_.isEmpty()) return;  // stays open, the reason under the field
  QDialog::accept();
}

}  // namespace attnscope::ui
