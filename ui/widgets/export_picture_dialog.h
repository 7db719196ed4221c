#pragma once
// Asks what an exported picture needs: a title to draw above it (for a slide or a paper), and
// for PNG its size and pixel scale. PDF and SVG are vector pictures: they keep the layout on
// screen and scale without loss, so they ask no size.
#include <QDialog>

class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

namespace attnscope::ui {

class ExportPictureDialog : public QDialog {
  Q_OBJECT
 public:
  /// `title`: the suggested title (empty: none); `withSize`: a raster picture (PNG).
  ExportPictureDialog(const QSize& initial, const QString& title, bool withSize,
                      QWidget* parent = nullptr);
  QSize size() const;
  double scale() const;
  QString title() const;

 private:
  QLineEdit* title_ = nullptr;
  QSpinBox* width_ = nullptr;
  QSpinBox* height_ = nullptr;
  QDoubleSpinBox* scale_ = nullptr;
  QSize initial_;
  bool withSize_ = false;
};

}  // namespace attnscope::ui
