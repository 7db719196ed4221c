#pragma once
// Shows the user guide's Markdown pages (core/guide_pages.h) and follows their links. Qt 6.4's
// Markdown import gives headings no anchors, so each page's headings get GitHub's after it loads
// and a link to "app.md#corpus-tab" scrolls there; web links open in the desktop's browser; a
// linked text file (LICENSE) shows as it is written; wide screenshots shrink to the page's width.
#include <QTextBrowser>

namespace attnscope::ui {

class GuideBrowser : public QTextBrowser {
  Q_OBJECT
 public:
  explicit GuideBrowser(QWidget* parent = nullptr);

  /// The page shown, as loaded (source() lags behind while sourceChanged is emitted: QTextBrowser
  /// records it in its history only after).
  QUrl page() const { return page_; }
  /// The anchors of the shown page's headings, in order.
  QStringList pageAnchors() const;
  /// The first heading's text, the page's title ("The app").
  QString pageTitle() const;

  QVariant loadResource(int type, const QUrl& name) override;

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void anchorHeadings();
  void fitImages();

  QUrl page_;
};

}  // namespace attnscope::ui
