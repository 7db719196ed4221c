#include "plots/colormaps.h"

namespace attnscope::ui {
namespace {

QCPColorGradient fromStops(const QStringList& hexColors) {
  QCPColorGradient gradient;
  gradient.clearColorStops();
  for (int i = 0; i < hexColors.size(); ++i)
    gradient.setColorStopAt(static_cast<double>(i) / (hexColors.size() - 1), QColor(hexColors[i]));
  gradient.setColorInterpolation(QCPColorGradient::ciRGB);
  gradient.setLevelCount(256);
  return gradient;
}

}  // namespace

QStringList colormapNames() { return {"viridis", "magma", "cividis", "grayscale"}; }

QCPColorGradient colormap(const QString& name) {
  if (name == "magma")
    return fromStops({"#000004", "#1c1044", "#4f127b", "#812581", "#b5367a", "#e55964", "#fb8761",
                      "#fec287", "#fcfdbf"});
  if (name == "cividis")
    return fromStops({"#00224e", "#123570", "#3b496c", "#575d6d", "#707173", "#8a8779", "#a69d75",
                      "#c4b56c", "#e4cf5b", "#fee838"});
  if (name == "grayscale") return fromStops({"#ffffff", "#000000"});  // as in printed papers
  return fromStops({"#440154", "#472d7b", "#3b528b", "#2c728e", "#21918c", "#28ae80", "#5ec962",
                    "#addc30", "#fde725"});
}

QCPColorGradient divergingColormap() {
  return fromStops({"#2166ac", "#67a9cf", "#d1e5f0", "#f7f7f7", "#fddbc7", "#ef8a62", "#b2182b"});
}

}  // namespace attnscope::ui
