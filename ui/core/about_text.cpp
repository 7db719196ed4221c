#include "core/about_text.h"

#include <attnscope/cpu_dispatch.h>

#include <QtGlobal>

namespace attnscope::ui {

// ATTNSCOPE_TORCH_VERSION and ATTNSCOPE_LICENSE come from CMake (ui/CMakeLists.txt): no ui file
// includes a Torch header, and the licence is declared once, in the top-level CMakeLists.txt.
QString aboutText(const QString& appVersion) {
  return QStringLiteral(
             "<p><b>attnscope %1</b><br>Attention in neural machine translation, made "
             "visible.</p><p>Qt %2 · LibTorch %3</p><p>Kernels: %4; training's products: "
             "%5</p><p>Licence: %6 (the GNU General Public License, version 3 or later).</p>"
             "<p>The shipped models learned from Multi30k's image captions (Elliott et al. "
             "2016) and from everyday sentences of the Tatoeba Project "
             "(<a href=\"https://tatoeba.org\">tatoeba.org</a>, as collected by "
             "<a href=\"https://www.manythings.org/anki/\">www.manythings.org/anki</a>; "
             "CC BY 2.0 FR).</p>")
      .arg(appVersion, QString::fromLatin1(qVersion()), QStringLiteral(ATTNSCOPE_TORCH_VERSION),
           QString::fromStdString(kernel_isa_summary()).toHtmlEscaped(),
           QString::fromLatin1(precision_name(parse_precision("auto"))),
           QStringLiteral(ATTNSCOPE_LICENSE));
}

}  // namespace attnscope::ui
