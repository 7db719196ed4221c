#pragma once
// What a tab offers to File > Export: the window asks the shown tab, never which tab it is.
#include <QSize>
#include <QString>

#include "render/exporter.h"

namespace attnscope::ui {

class ExportTarget {
 public:
  virtual ~ExportTarget() = default;
  /// The picture's size as shown on screen: the Export dialog's starting size.
  virtual QSize exportSize() const = 0;
  /// Why the tab has nothing to export yet ("Translate a sentence first."), or empty when it
  /// has something: File > Export says so before it asks for a file.
  virtual QString nothingToExport() const { return {}; }
  /// The file name File > Export offers, without its extension: what the picture shows
  /// ("attention", "attention-ig", "compare-what-if").
  virtual QString exportName() const { return QStringLiteral("attention"); }
  /// The title File > Export suggests to draw above a picture (the model, the language pair,
  /// the sentence); empty: none suggested.
  virtual QString exportTitle() const { return {}; }
  /// Writes what the tab shows to `path`, in the format its extension names (a tab may accept
  /// only some). Throws std::runtime_error with a one-line message naming the path.
  virtual void exportTo(const QString& path, const ExportOptions& options) const = 0;
};

}  // namespace attnscope::ui
