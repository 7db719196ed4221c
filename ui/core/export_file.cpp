#include "core/export_file.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <stdexcept>

namespace attnscope::ui {

void failExport(const QString& path, const QString& problem) {
  throw std::runtime_error(
      QStringLiteral("cannot export to '%1': %2").arg(path, problem).toStdString());
}

std::optional<ExportFormat> exportFormatFor(const QString& path) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == "png") return ExportFormat::Png;
  if (suffix == "pdf") return ExportFormat::Pdf;
  if (suffix == "svg") return ExportFormat::Svg;
  if (suffix == "csv") return ExportFormat::Csv;
  if (suffix == "json") return ExportFormat::Json;
  return std::nullopt;
}

QString csvField(const QString& text) {
  if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) &&
      !text.contains(QLatin1Char('\n')))
    return text;
  QString quoted = text;
  quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
  return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QByteArray matricesToCsv(const QList<AttentionMatrix>& matrices) {
  QString out;
  if (matrices.size() == 1) {  // a spreadsheet-shaped matrix: targets down, sources across
    const AttentionMatrix& m = matrices.front();
    out += QStringLiteral("target\\source");
    if (!m.view.isEmpty()) out += QStringLiteral(" (%1)").arg(m.view);  // "(words)", "(pieces)"
    for (const QString& s : m.sourceTokens) out += QLatin1Char(',') + csvField(s);
    out += QLatin1Char('\n');
    for (int r = 0; r < m.rows(); ++r) {
      out += csvField(m.targetTokens[r]);
      for (double w : m.weights[r]) out += QLatin1Char(',') + QString::number(w, 'g', 7);
      out += QLatin1Char('\n');
    }
  } else {  // several heatmaps: one row per cell, easy to load in a data frame
    // "view" last, so that readers of the first six columns by position still read them.
    out += QStringLiteral("model,target_index,target,source_index,source,weight,view\n");
    for (const AttentionMatrix& m : matrices)
      for (int r = 0; r < m.rows(); ++r)
        for (int c = 0; c < m.columns(); ++c)
          // One multi-argument arg(): chained ones would replace a "%2" inside a token.
          out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7\n")
                     .arg(csvField(m.title), QString::number(r), csvField(m.targetTokens[r]),
                          QString::number(c), csvField(m.sourceTokens[c]),
                          QString::number(m.weights[r][c], 'g', 7), csvField(m.view));
  }
  return out.toUtf8();
}

QByteArray matricesToJson(const QList<AttentionMatrix>& matrices) {
  QJsonArray heatmaps;
  for (const AttentionMatrix& m : matrices) {
    QJsonArray rows, unknown;
    for (const auto& row : m.weights) {
      QJsonArray values;
      for (double w : row) values.append(w);
      rows.append(values);
    }
    for (bool u : m.unknownSource) unknown.append(u);
    QJsonObject heatmap{{"model", m.title},
                        {"source_tokens", QJsonArray::fromStringList(m.sourceTokens)},
                        {"unknown_source", unknown},
                        {"target_tokens", QJsonArray::fromStringList(m.targetTokens)},
                        {"attention", rows}};
    if (!m.view.isEmpty()) heatmap.insert(QStringLiteral("view"), m.view);
    if (!m.copiedFrom.isEmpty()) {  // per row: the column a copied word came from, or -1
      QJsonArray copied;
      for (int column : m.copiedFrom) copied.append(column);
      heatmap.insert(QStringLiteral("copied_from"), copied);
    }
    heatmaps.append(heatmap);
  }
  const QJsonObject root =
      matrices.size() == 1 ? heatmaps.first().toObject() : QJsonObject{{"heatmaps", heatmaps}};
  return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

void saveExport(const QString& path, const QByteArray& bytes) {
  const QFileInfo existing(path);
  if (existing.exists() && !existing.isFile())
    failExport(path, existing.isDir() ? QStringLiteral("it is a directory")
                                      : QStringLiteral("it exists and is not a regular file"));
  QSaveFile file(path);
  // Unbuffered, every write checked: Qt 6.4's QSaveFile::commit() ignores a failed final flush,
  // so a small export to a full disk would otherwise be renamed into place cut off.
  if (!file.open(QIODevice::WriteOnly | QIODevice::Unbuffered))
    failExport(path, file.errorString());
  for (qint64 done = 0; done < bytes.size();) {
    const qint64 n = file.write(bytes.constData() + done, bytes.size() - done);
    if (n <= 0) failExport(path, file.errorString());
    done += n;
  }
  if (!file.commit()) failExport(path, file.errorString());
}

}  // namespace attnscope::ui
