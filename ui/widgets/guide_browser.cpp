#include "widgets/guide_browser.h"

#include <QAbstractTextDocumentLayout>
#include <QFileInfo>
#include <QImageReader>
#include <QScrollBar>
#include <QStyle>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFragment>

#include "core/guide_pages.h"

namespace attnscope::ui {

namespace {

// The headings of `document`, in order.
QList<QTextBlock> headingBlocks(const QTextDocument& document) {
  QList<QTextBlock> headings;
  for (QTextBlock block = document.begin(); block.isValid(); block = block.next())
    if (block.blockFormat().headingLevel() > 0 && !block.text().isEmpty()) headings << block;
  return headings;
}

// The file behind a resource address ("qrc:/guide/docs/a.png" is ":/guide/docs/a.png").
QString resourceFile(const QUrl& url) {
  return url.scheme() == QLatin1String("qrc") ? QLatin1Char(':') + url.path() : url.toLocalFile();
}

}  // namespace

GuideBrowser::GuideBrowser(QWidget* parent) : QTextBrowser(parent) {
  setOpenLinks(true);
  setOpenExternalLinks(true);  // http(s): the desktop's browser, through QDesktopServices
  // Emitted after each load, after Back and Forward too (which then restore their scroll
  // position), and after a link within the page.
  connect(this, &QTextBrowser::sourceChanged, this, [this](const QUrl& url) {
    page_ = page_.resolved(url);  // as QTextBrowser resolves it
    anchorHeadings();
    fitImages();
    if (url.hasFragment()) scrollToAnchor(url.fragment());
  });
}

QStringList GuideBrowser::pageAnchors() const {
  QStringList anchors;
  // Each of a heading's fragments (plain text, code, a link) has its anchor: the first one's.
  for (const QTextBlock& heading : headingBlocks(*document()))
    anchors << heading.begin().fragment().charFormat().anchorNames();
  return anchors;
}

QString GuideBrowser::pageTitle() const {
  for (const QTextBlock& heading : headingBlocks(*document()))
    if (heading.blockFormat().headingLevel() == 1) return heading.text();
  return {};
}

QVariant GuideBrowser::loadResource(int type, const QUrl& name) {
  const QVariant data = QTextBrowser::loadResource(type, name);
  // QTextBrowser reads a file that is neither Markdown nor an image as HTML, which would run
  // LICENSE's lines together: a text file shows as written.
  const QString suffix = QFileInfo(name.path()).suffix().toLower();
  if (type == QTextDocument::HtmlResource && data.isValid() && suffix != QLatin1String("html") &&
      suffix != QLatin1String("htm"))
    return QStringLiteral("<pre>%1</pre>")
        .arg(QString::fromUtf8(data.toByteArray()).toHtmlEscaped());
  return data;
}

void GuideBrowser::resizeEvent(QResizeEvent* event) {
  QTextBrowser::resizeEvent(event);
  fitImages();
}

void GuideBrowser::anchorHeadings() {
  const QList<QTextBlock> headings = headingBlocks(*document());
  QStringList texts;
  for (const QTextBlock& heading : headings) texts << heading.text();
  const QStringList anchors = ui::headingAnchors(texts);
  for (int i = 0; i < headings.size(); ++i) {
    QTextCursor cursor(headings[i]);
    cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
    QTextCharFormat anchor;
    anchor.setAnchor(true);
    anchor.setAnchorNames({anchors[i]});
    cursor.mergeCharFormat(anchor);
  }
}

void GuideBrowser::fitImages() {
  // Room for a vertical scroll bar that shows up once the page is laid out.
  const int room = viewport()->width() - 2 * int(document()->documentMargin()) -
                   style()->pixelMetric(QStyle::PM_ScrollBarExtent);
  if (room <= 0) return;
  struct Image {
    int position;
    int length;
    QTextImageFormat format;
  };
  QList<Image> images;  // first gathered: a changed format splits the block's fragments anew
  for (QTextBlock block = document()->begin(); block.isValid(); block = block.next())
    for (auto it = block.begin(); !it.atEnd(); ++it)
      if (it.fragment().charFormat().isImageFormat())
        images.append({it.fragment().position(), it.fragment().length(),
                       it.fragment().charFormat().toImageFormat()});
  QList<Image> changed;
  for (Image& image : images) {
    const QSize natural =
        QImageReader(resourceFile(page_.resolved(QUrl(image.format.name())))).size();
    if (natural.isEmpty()) continue;
    const int width = qMin(natural.width(), room);
    if (qRound(image.format.width()) == width) continue;
    image.format.setWidth(width);
    image.format.setHeight(double(natural.height()) * width / natural.width());
    changed << image;
  }
  if (changed.isEmpty()) return;
  // The text at the top of the view stays there (a heading scrolled to, the reader's place), though
  // the pictures above it change height.
  const QTextBlock top = cursorForPosition(QPoint(0, 0)).block();
  const bool scrolled = verticalScrollBar()->value() > 0;
  for (const Image& image : changed) {
    QTextCursor cursor(document());
    cursor.setPosition(image.position);
    cursor.setPosition(image.position + image.length, QTextCursor::KeepAnchor);
    cursor.setCharFormat(image.format);
  }
  if (scrolled)
    verticalScrollBar()->setValue(
        qRound(document()->documentLayout()->blockBoundingRect(top).top()));
}

}  // namespace attnscope::ui
