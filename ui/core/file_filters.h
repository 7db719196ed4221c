#pragma once
// File-dialog name filters ("PNG image (*.png)") and the extension they stand for, so that a
// name typed without one gets it: a model saved as "dates_model" under "*.attnmodel" must show
// up in the Open dialog, which lists only "*.attnmodel".
#include <QString>

namespace attnscope::ui {

/// The first extension a name filter lists: "png" for "PNG image (*.png)", "txt" for
/// "Text (*.txt *.en)"; empty for "All files (*)" or a filter without a pattern.
QString filterSuffix(const QString& nameFilter);

/// `path` with the filter's extension appended when its file name has none; unchanged when it
/// has one (any: "notes.v2" stays) or the filter names none.
QString withFilterSuffix(const QString& path, const QString& nameFilter);

}  // namespace attnscope::ui
