#include "core/guide_pages.h"

#include <QHash>
#include <QRegularExpression>

namespace attnscope::ui {

namespace {
constexpr char kGuideFolder[] = "qrc:/guide/docs/";
}

QUrl guideUrl(const QString& page) {
  return QUrl(QString::fromLatin1(kGuideFolder)).resolved(QUrl(page));
}

QString guideFile(const QUrl& url) {
  const QString folder = QUrl(QString::fromLatin1(kGuideFolder)).path();
  const QString path = url.adjusted(QUrl::RemoveFragment | QUrl::RemoveQuery).path();
  if (url.scheme() != QLatin1String("qrc") || !path.startsWith(folder)) return {};
  return path.mid(folder.size());
}

QList<GuidePage> guideContents(const QString& indexMarkdown) {
  // "1. [Install](install.md): building from source, ..."
  static const QRegularExpression item(
      QStringLiteral(R"(^\s*\d+\.\s+\[([^\]]+)\]\(([^)#\s]+)[^)]*\))"),
      QRegularExpression::MultilineOption);
  QList<GuidePage> pages;
  for (auto it = item.globalMatch(indexMarkdown); it.hasNext();) {
    const QRegularExpressionMatch match = it.next();
    pages.append({match.captured(1), match.captured(2)});
  }
  return pages;
}

QString headingAnchor(const QString& heading) {
  // GitHub keeps letters, digits, marks, '_' and '-', makes each space a hyphen and drops the rest.
  QString anchor;
  for (const QChar c : heading.toLower()) {
    if (c.isLetterOrNumber() || c.isMark() || c == QLatin1Char('_') || c == QLatin1Char('-'))
      anchor += c;
    else if (c == QLatin1Char(' '))
      anchor += QLatin1Char('-');
  }
  return anchor;
}

QStringList headingAnchors(const QStringList& headings) {
  QStringList anchors;
  QHash<QString, int> seen;
  for (const QString& heading : headings) {
    const QString anchor = headingAnchor(heading);
    const int times = seen.value(anchor);
    seen.insert(anchor, times + 1);
    anchors << (times == 0 ? anchor : QStringLiteral("%1-%2").arg(anchor).arg(times));
  }
  return anchors;
}

}  // namespace attnscope::ui
