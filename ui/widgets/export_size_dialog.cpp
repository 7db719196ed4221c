#include "widgets/export_size_dialog.h"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSpinBox>

namespace attnscope::ui {

ExportSizeDialog::ExportSizeDialog(const QSize& initial, bool withScale, QWidget* parent)
    : QDialog(parent), withScale_(withScale) {
  setWindowTitle(tr("Export size"));
  width_ = new QSpinBox(this);
  height_ = new QSpinBox(this);
  for (QSpinBox* box : {width_, height_}) {
    box->setRange(16, 20000);
    box->setSuffix(tr(" px"));
  }
  width_->setValue(initial.width());
  height_->setValue(initial.height());
  scale_ = new QDoubleSpinBox(this);
  scale_->setRange(0.5, 8.0);
  scale_->setSingleStep(0.5);
  scale_->setValue(2.0);
  scale_->setToolTip(
      tr("Pixels per layout pixel: 2 gives a sharp picture for high-DPI screens and print"));
  auto* form = new QFormLayout(this);
  form->addRow(tr("Width:"), width_);
  form->addRow(tr("Height:"), height_);
  if (withScale)
    form->addRow(tr("Scale:"), scale_);
  else
    scale_->setVisible(false);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  form->addRow(buttons);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

QSize ExportSizeDialog::size() const { return {width_->value(), height_->value()}; }

double ExportSizeDialog::scale() const { return withScale_ ? scale_->value() : 1.0; }

}  // namespace attnscope::ui
