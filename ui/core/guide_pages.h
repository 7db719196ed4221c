#pragma once
// The user guide's pages as the app holds them: docs/ (and the files its pages link to outside
// it: README.md, CHANGELOG.md, LICENSE) compiled in as resources under qrc:/guide/ (ui/CMakeLists),
// so Help > User guide needs no /usr/share/doc, which minimal systems strip.
#include <QList>
#include <QString>
#include <QStringList>
#include <QUrl>

namespace attnscope::ui {

struct GuidePage {
  QString title;  // as index.md names it ("The command line")
  QString file;   // relative to docs/ ("command-line.md")
};

/// The guide's first page, the contents.
inline constexpr char kGuideIndex[] = "index.md";

/// The resource address of `page`, a file of docs/ with an optional heading anchor
/// ("app.md#corpus-tab" gives qrc:/guide/docs/app.md#corpus-tab).
QUrl guideUrl(const QString& page);

/// The file of docs/ that `url` points to ("app.md"), or empty for a file outside docs/.
QString guideFile(const QUrl& url);

/// The pages index.md lists, in its order: each numbered item's first link, its text the title.
QList<GuidePage> guideContents(const QString& indexMarkdown);

/// The anchor GitHub gives a heading, so that the docs' links work on GitHub and in the app alike:
/// lowercase, spaces made hyphens, punctuation dropped ("The app's layers (ui/)" gives
/// "the-apps-layers-ui").
QString headingAnchor(const QString& heading);

/// The anchors of a page's headings, in order; a repeated one gets -1, -2, ... as on GitHub.
QStringList headingAnchors(const QStringList& headings);

}  // namespace attnscope::ui
