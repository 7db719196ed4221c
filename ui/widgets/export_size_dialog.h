#pragma once
// Asks for the size (and for PNG the pixel scale) of an exported picture.
#include <QDialog>

class QDoubleSpinBox;
class QSpinBox;

namespace attnscope::ui {

class ExportSizeDialog : public QDialog {
  Q_OBJECT
 public:
  ExportSizeDialog(const QSize& initial, bool withScale, QWidget* parent = nullptr);
  QSize size() const;
  double scale() const;

 private:
  QSpinBox* width_ = nullptr;
  QSpinBox* height_ = nullptr;
  QDoubleSpinBox* scale_ = nullptr;
  bool withScale_ = false;
};

}  // namespace attnscope::ui
