#pragma once
// The title line above an exported picture (for a slide or a paper): one bold line, centred and
// elided to the picture's width, in the widget's own text colour. Shared by the heatmap
// exporter and the beam tree, which draws its own pictures.
#include <QString>

class QPainter;
class QWidget;

namespace attnscope::ui {

/// The height of the band `title` takes above a picture drawn like `style`; 0 for no title.
int pictureTitleHeight(const QString& title, const QWidget& style);

/// Draws `title` in the band at the painter's top, `width` wide; returns the band's height.
int drawPictureTitle(QPainter& painter, const QString& title, int width, const QWidget& style);

}  // namespace attnscope::ui
