#pragma once
// A colour map whose cells are rectangles in a vector picture (SVG, PDF), not one embedded
// bitmap: a paper's figure stays sharp at any zoom and its cells can be edited.
#include <qcustomplot.h>

namespace attnscope::ui {

class CellColorMap : public QCPColorMap {
  Q_OBJECT
 public:
  using QCPColorMap::QCPColorMap;

 protected:
  /// On screen and in PNG the map's bitmap, as QCPColorMap draws it; with the painter in
  /// QCPPainter::pmVectorized mode one filled rectangle a cell.
  void draw(QCPPainter* painter) override;
};

}  // namespace attnscope::ui
