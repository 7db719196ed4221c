#pragma once
// Perceptually uniform colormaps for attention weights. QCustomPlot 2.1 has no viridis preset,
// so the maps are built from colour stops sampled from matplotlib's definitions.
#include <qcustomplot.h>

#include <QStringList>

namespace attnscope::ui {

/// "viridis", "magma", "cividis", "grayscale".
QStringList colormapNames();

/// The named map (viridis for an unknown name), low weights first.
QCPColorGradient colormap(const QString& name);

/// Blue (−) to white (0) to red (+), for differences of two attention matrices and signed
/// attributions.
QCPColorGradient divergingColormap();

/// The grey of heatmap cells that have no value; hatched over, so that grayscale's own grey
/// is not mistaken for it.
inline constexpr const char* kNoValueColour = "#a0a0a0";

}  // namespace attnscope::ui
