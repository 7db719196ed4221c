#pragma once
// What the app's positional arguments are: `attnscope "A sentence."` translates it, `attnscope
// model.attnmodel` opens that model.
#include <QString>

namespace attnscope::ui {

/// Whether `argument`, one of `count` positional arguments, names a model file to open: it ends
/// in .attnmodel, .pt or .pth and is a file, or the only argument, or a path. Then a missing file
/// gets its message instead of being translated as words; "… script.pt" inside a sentence is
/// text.
bool namesModelFile(const QString& argument, qsizetype count);

}  // namespace attnscope::ui
