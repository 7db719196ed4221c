#include "widgets/export_picture_dialog.h"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QSpinBox>
#include <algorithm>

namespace attnscope::ui {

ExportPictureDialog::ExportPictureDialog(const QSize& initial, const QString& title, bool withSize,
                                         QWidget* parent)
    : QDialog(parent), initial_(initial), withSize_(withSize) {
  setWindowTitle(tr("Export picture"));
  title_ = new QLineEdit(title, this);
  title_->setClearButtonEnabled(true);
  title_->setPlaceholderText(tr("No title"));
  title_->setToolTip(tr("Drawn above the picture; empty for none"));
  // Wide enough for the suggested title, shown from its start (not scrolled to its end).
  title_->setMinimumWidth(
      std::clamp(title_->fontMetrics().horizontalAdvance(title) + 24, 360, 720));
  title_->setCursorPosition(0);
  auto* form = new QFormLayout(this);
  form->addRow(tr("&Title:"), title_);
  if (withSize) {
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
    form->addRow(tr("&Width:"), width_);
    form->addRow(tr("&Height:"), height_);
    form->addRow(tr("&Scale:"), scale_);
  }
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  form->addRow(buttons);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

QSize ExportPictureDialog::size() const {
  return withSize_ ? QSize(width_->value(), height_->value()) : initial_;
}

double ExportPictureDialog::scale() const { return withSize_ ? scale_->value() : 1.0; }

QString ExportPictureDialog::title() const { return title_->text().trimmed(); }

}  // namespace attnscope::ui
