#pragma once
// Messages as a dialog shows them. The engine's one-line messages start in lower case, as a
// command-line tool's do after "attnscope-cli: "; a dialog starts a sentence.
#include <QString>

namespace attnscope::ui {

/// `message` with its first letter capitalised ("cannot read 'x'" → "Cannot read 'x'"); one
/// that starts with anything but a lower-case letter (a path, a quote) is left as it is.
QString dialogMessage(const QString& message);

}  // namespace attnscope::ui
