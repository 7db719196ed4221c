#include "plots/cell_color_map.h"

#include <cmath>

namespace attnscope::ui {

void CellColorMap::draw(QCPPainter* painter) {
  if (!painter->modes().testFlag(QCPPainter::pmVectorized)) return QCPColorMap::draw(painter);
  QCPColorMapData* cells = data();
  const int columns = cells->keySize(), rows = cells->valueSize();
  if (columns == 0 || rows == 0) return;
  // Cell centres span the data ranges; a cell is one step wide (one unit for a single cell).
  const double keyStep = columns > 1 ? cells->keyRange().size() / (columns - 1) : 1.0;
  const double valueStep = rows > 1 ? cells->valueRange().size() / (rows - 1) : 1.0;
  QCPColorGradient colours = gradient();
  const bool logarithmic = dataScaleType() == QCPAxis::stLogarithmic;
  painter->save();
  // No antialiasing, and each rectangle outlined in its own colour: viewers draw no hairline
  // seams between neighbouring cells.
  painter->setAntialiasing(false);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < columns; ++c) {
      const double value = cells->cell(c, r);
      QColor colour;
      if (!std::isnan(value))
        colour = QColor::fromRgba(colours.color(value, dataRange(), logarithmic));
      else if (colours.nanHandling() == QCPColorGradient::nhNanColor)
        colour = colours.nanColor();
      else
        continue;
      double key = 0.0, centre = 0.0;
      cells->cellToCoord(c, r, &key, &centre);
      const QRectF rect = QRectF(coordsToPixels(key - keyStep / 2, centre - valueStep / 2),
                                 coordsToPixels(key + keyStep / 2, centre + valueStep / 2))
                              .normalized();
      painter->setPen(QPen(colour, 0));
      painter->setBrush(colour);
      painter->drawRect(rect);
    }
  painter->restore();
}

}  // namespace attnscope::ui
