#pragma once
// How big a picture export is: plain data, so that a plot can take it without reaching up into
// render/ (the beam tree draws itself; the exporter renders QCustomPlots).
#include <QSize>
#include <QString>

namespace attnscope::ui {

struct ExportOptions {
  QSize size{900, 700};  // the picture's size in pixels (points for PDF)
  double scale = 1.0;    // PNG only: pixel ratio, 2.0 for a high-DPI picture of the same layout
  int columns = 3;       // grid layout when several plots are exported; 0: the picture's shape
                         // chooses (cells closest to a heatmap's)
  QString title;         // drawn above the plots (the model, the pair, the sentence); "": none
};

}  // namespace attnscope::ui
