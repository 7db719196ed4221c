#pragma once
// Export files without pictures: the format a path names, the matrices as CSV or JSON text, and
// the one way every export reaches the disk (a temporary name renamed when complete, QSaveFile,
// so a failed export never leaves a half-written file under the final name).
#include <QByteArray>
#include <QList>
#include <QString>
#include <optional>

#include "core/attention_matrix.h"

namespace attnscope::ui {

enum class ExportFormat { Png, Pdf, Svg, Csv, Json };

/// From the file name's extension; std::nullopt when it is none of png, pdf, svg, csv, json.
std::optional<ExportFormat> exportFormatFor(const QString& path);

/// Whether `format` is a picture (PNG, PDF, SVG) rather than a data file.
inline bool isPicture(ExportFormat format) {
  return format == ExportFormat::Png || format == ExportFormat::Pdf || format == ExportFormat::Svg;
}

/// Writes `bytes` to `path` as every export does: under a temporary name renamed when complete.
/// Throws std::runtime_error with a one-line message naming the path.
void saveExport(const QString& path, const QByteArray& bytes);

/// Throws std::runtime_error "cannot export to 'path': problem", the one shape of every export
/// error.
[[noreturn]] void failExport(const QString& path, const QString& problem);

/// A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
QString csvField(const QString& text);

/// The matrices alone as CSV or JSON text (for tests and the exporter).
QByteArray matricesToCsv(const QList<AttentionMatrix>& matrices);
QByteArray matricesToJson(const QList<AttentionMatrix>& matrices);

}  // namespace attnscope::ui
