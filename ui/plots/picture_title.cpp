#include "plots/picture_title.h"

#include <QFont>
#include <QFontMetrics>
#include <QPainter>
#include <QWidget>

namespace attnscope::ui {
namespace {

QFont titleFont(const QWidget& style) {
  QFont font = style.font();
  font.setBold(true);
  font.setPointSizeF(style.font().pointSizeF() * 1.15);
  return font;
}

}  // namespace

int pictureTitleHeight(const QString& title, const QWidget& style) {
  if (title.isEmpty()) return 0;
  return QFontMetrics(titleFont(style)).height() * 3 / 2;
}

int drawPictureTitle(QPainter& painter, const QString& title, int width, const QWidget& style) {
  const int height = pictureTitleHeight(title, style);
  if (height == 0) return 0;
  const QFont font = titleFont(style);
  painter.save();
  painter.setFont(font);
  painter.setPen(style.palette().color(QPalette::Text));  // as the plots' own titles
  const QRect band(8, 0, width - 16, height);
  painter.drawText(band, Qt::AlignCenter,
                   QFontMetrics(font).elidedText(title, Qt::ElideRight, band.width()));
  painter.restore();
  return height;
}

}  // namespace attnscope::ui
