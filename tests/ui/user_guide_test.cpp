// QtTest (offscreen) of Help > User guide: the pages of docs/ compiled into the app, their
// contents, every link and image they hold (so a broken link in docs/ fails here), heading
// anchors as GitHub makes them, Back and Forward, the search in a page and across pages, web
// links handed to the desktop, and each tab's "?" opening its section of app.md.
#include <QAbstractTextDocumentLayout>
#include <QDesktopServices>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QScrollBar>
#include <QSet>
#include <QTabWidget>
#include <QTextBlock>
#include <QToolButton>
#include <QtTest>

#include "core/guide_pages.h"
#include "ui/fixture.h"
#include "widgets/guide_browser.h"
#include "widgets/user_guide_window.h"

using namespace attnscope::ui;

namespace {

struct Link {
  QString href;
  int position;  // in the page's text
};

// The links of the page `browser` shows, in order.
QList<Link> linksOf(const QTextBrowser& browser) {
  QList<Link> links;
  for (QTextBlock block = browser.document()->begin(); block.isValid(); block = block.next())
    for (auto it = block.begin(); !it.atEnd(); ++it) {
      const QTextCharFormat format = it.fragment().charFormat();
      if (format.isAnchor() && !format.anchorHref().isEmpty())
        links.append({format.anchorHref(), it.fragment().position()});
    }
  return links;
}

// The images of the page `browser` shows, as the page names them.
QStringList imagesOf(const QTextBrowser& browser) {
  QStringList images;
  for (QTextBlock block = browser.document()->begin(); block.isValid(); block = block.next())
    for (auto it = block.begin(); !it.atEnd(); ++it)
      if (it.fragment().charFormat().isImageFormat())
        images << it.fragment().charFormat().toImageFormat().name();
  return images;
}

bool isWebLink(const QUrl& url) {
  return url.scheme() == QLatin1String("http") || url.scheme() == QLatin1String("https");
}

// The heading block of the page `browser` shows that has `anchor`, or an invalid block.
QTextBlock headingWithAnchor(const QTextBrowser& browser, const QString& anchor) {
  for (QTextBlock block = browser.document()->begin(); block.isValid(); block = block.next())
    if (block.blockFormat().headingLevel() > 0 &&
        block.begin().fragment().charFormat().anchorNames().contains(anchor))
      return block;
  return {};
}

// Whether `block` is at the top of what `browser` shows (or as near as the page's end allows).
bool atTheTop(const QTextBrowser& browser, const QTextBlock& block) {
  const int top = qRound(browser.document()->documentLayout()->blockBoundingRect(block).top());
  const QScrollBar* bar = browser.verticalScrollBar();
  if (bar->value() == bar->maximum())
    return top >= bar->value() && top < bar->value() + browser.viewport()->height();
  return qAbs(bar->value() - top) <= 1;
}

// Clicks the link at `position` of the page `browser` shows, as a reader does.
void clickLink(QTextBrowser& browser, int position) {
  QTextCursor cursor(browser.document());
  cursor.setPosition(position + 1);
  browser.setTextCursor(cursor);  // scrolled into view
  const QPoint point = browser.cursorRect(cursor).center() - QPoint(2, 0);
  QTest::mouseClick(browser.viewport(), Qt::LeftButton, {}, point);
}

}  // namespace

// Takes the address QDesktopServices is asked to open, in place of the desktop's browser.
class UrlCatcher : public QObject {
  Q_OBJECT
 public:
  QList<QUrl> opened;
 public Q_SLOTS:
  void openUrl(const QUrl& url) { opened << url; }
};

class UserGuideTest : public test::WindowTest {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() { QVERIFY(setUpModels({"additive"})); }
  void anchorsAreGitHubs();
  void contentsAreIndexMdsPagesInItsOrder();
  void opensOnItsContents();
  void everyListedPageLoads();
  void everyLinkLeadsToAPageAndItsHeading();
  void clickingALinkToAHeadingScrollsToIt();
  void backForwardAndContents();
  void aLinkedTextFileKeepsItsLines();
  void webLinksOpenOnTheDesktop();
  void searchFindsOnThePageAndListsTheOtherPages();
  void searchSaysWhenTheTextIsNotOnThePage();
  void eachTabsQuestionMarkOpensItsSection();
  void helpUserGuideIsNotF1();
};

void UserGuideTest::anchorsAreGitHubs() {
  QCOMPARE(headingAnchor("Corpus tab"), QString("corpus-tab"));
  QCOMPARE(headingAnchor("The app's layers (ui/)"), QString("the-apps-layers-ui"));
  QCOMPARE(headingAnchor("Your own model (TorchScript)"), QString("your-own-model-torchscript"));
  QCOMPARE(headingAnchor("Does attention help?"), QString("does-attention-help"));
  QCOMPARE(headingAnchor("translate --json"), QString("translate---json"));
  QCOMPARE(headingAnchor("Show: attention or what the output depends on"),
           QString("show-attention-or-what-the-output-depends-on"));
  QCOMPARE(headingAnchor("Zürich, Kraków & snake_case"), QString("zürich-kraków--snake_case"));
  QCOMPARE(headingAnchors({"Options", "Resuming", "Options", "Options"}),
           QStringList({"options", "resuming", "options-1", "options-2"}));
  QCOMPARE(guideUrl("app.md#corpus-tab"), QUrl("qrc:/guide/docs/app.md#corpus-tab"));
  QCOMPARE(guideFile(QUrl("qrc:/guide/docs/app.md#corpus-tab")), QString("app.md"));
  QCOMPARE(guideFile(QUrl("qrc:/guide/LICENSE")), QString());
}

void UserGuideTest::contentsAreIndexMdsPagesInItsOrder() {
  const QList<GuidePage> pages = guideContents(
      "# Guide\n\n1. [Install](install.md): how.\n   [Build](install.md#build) ·\n"
      "2. [The app](app.md): each tab.\n\n## More\n\n10. [File formats](file-formats.md): all.\n");
  QCOMPARE(pages.size(), 3);
  QCOMPARE(pages[0].title, QString("Install"));
  QCOMPARE(pages[0].file, QString("install.md"));
  QCOMPARE(pages[1].file, QString("app.md"));
  QCOMPARE(pages[2].title, QString("File formats"));
}

void UserGuideTest::opensOnItsContents() {
  UserGuideWindow guide;
  QCOMPARE(guide.currentFile(), QString("index.md"));
  QCOMPARE(guide.browser()->pageTitle(), QString("The attnscope guide"));
  QCOMPARE(guide.contentsList()->currentRow(), 0);
  // index.md's fourteen pages after itself, each once.
  QVERIFY2(guide.pages().size() >= 15, qPrintable(QString::number(guide.pages().size())));
  QSet<QString> files;
  for (const GuidePage& page : guide.pages()) files.insert(page.file);
  QCOMPARE(files.size(), guide.pages().size());
  QVERIFY(files.contains("app.md"));
  QVERIFY(files.contains("model-protocol.md"));
  QCOMPARE(guide.contentsList()->count(), guide.pages().size());
}

void UserGuideTest::everyListedPageLoads() {
  UserGuideWindow guide;
  for (int row = 0; row < guide.pages().size(); ++row) {
    const GuidePage& page = guide.pages()[row];
    guide.openPage(page.file);
    QCOMPARE(guide.currentFile(), page.file);
    QVERIFY2(guide.browser()->toPlainText().trimmed().size() > 200, qPrintable(page.file));
    QVERIFY2(!guide.browser()->pageTitle().isEmpty(), qPrintable(page.file));
    QVERIFY2(!guide.browser()->pageAnchors().isEmpty(), qPrintable(page.file));
    QCOMPARE(guide.contentsList()->currentRow(), row);
  }
  // The contents list opens a page as the reader picks it.
  guide.contentsList()->setCurrentRow(2);
  QCOMPARE(guide.currentFile(), guide.pages()[2].file);
}

void UserGuideTest::everyLinkLeadsToAPageAndItsHeading() {
  // Every page of the contents, and every Markdown page their links reach (README.md, ...), each
  // with its headings' anchors.
  UserGuideWindow guide;
  QList<QUrl> pages;
  for (const GuidePage& page : guide.pages()) pages << guideUrl(page.file);
  QHash<QString, QStringList> anchors;  // by resource path
  GuideBrowser browser;
  for (int i = 0; i < pages.size(); ++i) {
    const QUrl page = pages[i];
    browser.setSource(page);
    QVERIFY2(!browser.toPlainText().trimmed().isEmpty(), qPrintable(page.toString()));
    // A raw "<unk>" in the text (an HTML tag to Markdown, which GitHub drops) made Qt 6.4's import
    // lose the text of every later heading.
    QString previous;  // heading
    for (QTextBlock block = browser.document()->begin(); block.isValid(); block = block.next()) {
      if (block.blockFormat().headingLevel() == 0) continue;
      QVERIFY2(!block.text().trimmed().isEmpty(),
               qPrintable(
                   QStringLiteral("%1: an empty heading after \"%2\"").arg(page.path(), previous)));
      previous = block.text();
    }
    anchors.insert(page.path(), browser.pageAnchors());
    for (const Link& link : linksOf(browser)) {
      const QUrl target = page.resolved(QUrl(link.href)).adjusted(QUrl::RemoveFragment);
      if (target.scheme() == "qrc" && target.path().endsWith(".md") && !pages.contains(target))
        pages << target;
    }
  }
  QVERIFY2(anchors.contains("/guide/README.md"), "README.md is not reached");

  int links = 0, headings = 0, images = 0;
  for (const QUrl& page : pages) {
    browser.setSource(page);
    for (const Link& link : linksOf(browser)) {
      const QUrl href(link.href);
      if (isWebLink(href)) continue;
      const QUrl target = page.resolved(href);
      const QString where = QStringLiteral("%1 links to %2").arg(page.path(), link.href);
      QVERIFY2(target.scheme() == "qrc", qPrintable(where));
      QVERIFY2(QFile::exists(':' + target.path()), qPrintable(where + ": no such file"));
      ++links;
      if (target.hasFragment()) {
        QVERIFY2(anchors.value(target.path()).contains(target.fragment()),
                 qPrintable(where + ": no such heading"));
        ++headings;
      }
    }
    for (const QString& name : imagesOf(browser)) {
      const QUrl image = page.resolved(QUrl(name));
      QVERIFY2(!QImage(':' + image.path()).isNull(),
               qPrintable(QStringLiteral("%1 shows %2: no such image").arg(page.path(), name)));
      QVERIFY2(browser.document()->resource(QTextDocument::ImageResource, QUrl(name)).isValid(),
               qPrintable(QStringLiteral("%1 shows %2: not loaded").arg(page.path(), name)));
      ++images;
    }
  }
  qInfo("%d pages, %d links to them (%d to a heading), %d images", int(pages.size()), links,
        headings, images);
  // What the guide holds today, so that a check that found nothing to check fails.
  QVERIFY2(links > 200, qPrintable(QString::number(links)));
  QVERIFY2(headings > 150, qPrintable(QString::number(headings)));
  QVERIFY2(images >= 15, qPrintable(QString::number(images)));
}

void UserGuideTest::clickingALinkToAHeadingScrollsToIt() {
  UserGuideWindow guide;
  guide.show();
  QVERIFY(QTest::qWaitForWindowExposed(&guide));
  int position = -1;
  for (const Link& link : linksOf(*guide.browser()))
    if (link.href == "app.md#corpus-tab") position = link.position;
  QVERIFY2(position >= 0, "index.md has no link to app.md#corpus-tab");
  clickLink(*guide.browser(), position);
  QTRY_COMPARE(guide.currentFile(), QString("app.md"));
  const QTextBlock heading = headingWithAnchor(*guide.browser(), "corpus-tab");
  QVERIFY(heading.isValid());
  QCOMPARE(heading.text(), QString("Corpus tab"));
  QTRY_VERIFY(atTheTop(*guide.browser(), heading));
  QVERIFY(guide.browser()->verticalScrollBar()->value() > 0);
}

void UserGuideTest::backForwardAndContents() {
  UserGuideWindow guide;
  guide.show();
  QVERIFY(QTest::qWaitForWindowExposed(&guide));
  QAction* back = nullptr;
  QAction* forward = nullptr;
  QAction* contents = nullptr;
  for (QAction* action : guide.actions()) {
    if (action->text() == "Back") back = action;
    if (action->text() == "Forward") forward = action;
    if (action->text() == "Contents") contents = action;
  }
  QVERIFY(back != nullptr && forward != nullptr && contents != nullptr);
  QVERIFY(!back->isEnabled());
  QVERIFY(!back->shortcut().isEmpty());
  guide.activateWindow();  // for the shortcut: no window manager gives it the focus
  QVERIFY(QTest::qWaitForWindowActive(&guide));
  guide.openPage("app.md#train-tab");
  QTRY_VERIFY(guide.browser()->verticalScrollBar()->value() > 0);
  const int trainTab = guide.browser()->verticalScrollBar()->value();
  guide.openPage("install.md");
  QVERIFY(back->isEnabled());
  QVERIFY(!forward->isEnabled());
  const QKeyCombination backKey = back->shortcut()[0];
  QTest::keyClick(guide.browser(), backKey.key(), backKey.keyboardModifiers());
  QCOMPARE(guide.currentFile(), QString("app.md"));
  QCOMPARE(guide.browser()->verticalScrollBar()->value(), trainTab);  // where it was left
  back->trigger();
  QCOMPARE(guide.currentFile(), QString("index.md"));
  QVERIFY(forward->isEnabled());
  forward->trigger();
  QCOMPARE(guide.currentFile(), QString("app.md"));
  contents->trigger();
  QCOMPARE(guide.currentFile(), QString("index.md"));
  QCOMPARE(guide.contentsList()->currentRow(), 0);
}

void UserGuideTest::aLinkedTextFileKeepsItsLines() {
  UserGuideWindow guide;
  guide.openPage("install.md");
  guide.browser()->setSource(guide.browser()->source().resolved(QUrl("../LICENSE")));
  QCOMPARE(guide.browser()->source(), QUrl("qrc:/guide/LICENSE"));
  QCOMPARE(guide.currentFile(), QString());
  QCOMPARE(guide.contentsList()->currentRow(), -1);
  const QString text = guide.browser()->toPlainText();
  QVERIFY(text.contains("GNU GENERAL PUBLIC LICENSE"));
  QVERIFY2(text.count('\n') > 600, qPrintable(QString::number(text.count('\n'))));
}

void UserGuideTest::webLinksOpenOnTheDesktop() {
  UrlCatcher catcher;
  QDesktopServices::setUrlHandler("https", &catcher, "openUrl");
  UserGuideWindow guide;
  guide.show();
  QVERIFY(QTest::qWaitForWindowExposed(&guide));
  guide.openPage("models.md");
  int position = -1;
  QString href;
  for (const Link& link : linksOf(*guide.browser()))
    if (isWebLink(QUrl(link.href)) && position < 0) {
      position = link.position;
      href = link.href;
    }
  QVERIFY2(position >= 0, "models.md has no web link");
  clickLink(*guide.browser(), position);
  QTRY_COMPARE(catcher.opened.size(), 1);
  QCOMPARE(catcher.opened.first(), QUrl(href));
  QCOMPARE(guide.currentFile(), QString("models.md"));  // the guide stays where it was
  QDesktopServices::unsetUrlHandler("https");
}

void UserGuideTest::searchFindsOnThePageAndListsTheOtherPages() {
  UserGuideWindow guide;
  guide.show();
  QVERIFY(QTest::qWaitForWindowExposed(&guide));
  guide.openPage("app.md");
  QTest::keyClicks(guide.searchField(), "BLEU");
  QVERIFY(!guide.notFound());
  QTextCursor match = guide.browser()->textCursor();
  QCOMPARE(match.selectedText().toLower(), QString("bleu"));
  const int first = match.selectionStart();
  const int matches = int(guide.browser()->extraSelections().size());
  QCOMPARE(matches, int(guide.browser()->toPlainText().count("bleu", Qt::CaseInsensitive)));
  QVERIFY(matches >= 3);
  // Enter: the next match; Shift+Enter: back to the one before.
  QTest::keyClick(guide.searchField(), Qt::Key_Return);
  match = guide.browser()->textCursor();
  QCOMPARE(match.selectedText().toLower(), QString("bleu"));
  QVERIFY(match.selectionStart() > first);
  QTest::keyClick(guide.searchField(), Qt::Key_Return, Qt::ShiftModifier);
  QCOMPARE(guide.browser()->textCursor().selectionStart(), first);
  // The other pages that hold it, not this one; each holds it.
  QStringList others;
  for (int row = 0; row < guide.otherPagesList()->count(); ++row)
    others << guide.otherPagesList()->item(row)->data(Qt::UserRole).toString();
  QVERIFY(!others.contains("app.md"));
  QVERIFY2(others.contains("does-attention-help.md"), qPrintable(others.join(' ')));
  QVERIFY2(others.size() >= 5, qPrintable(others.join(' ')));
  // One of them, picked: its page with its first match selected.
  const int row = int(others.indexOf("does-attention-help.md"));
  QListWidgetItem* item = guide.otherPagesList()->item(row);
  QTest::mouseClick(guide.otherPagesList()->viewport(), Qt::LeftButton, {},
                    guide.otherPagesList()->visualItemRect(item).center());
  QTRY_COMPARE(guide.currentFile(), QString("does-attention-help.md"));
  QCOMPARE(guide.browser()->textCursor().selectedText().toLower(), QString("bleu"));
  QVERIFY(!guide.notFound());
}

void UserGuideTest::searchSaysWhenTheTextIsNotOnThePage() {
  UserGuideWindow guide;
  guide.show();
  QVERIFY(QTest::qWaitForWindowExposed(&guide));
  guide.openPage("app.md");
  const QColor plain = guide.searchField()->palette().color(QPalette::Base);
  QTest::keyClicks(guide.searchField(), "Gloo");  // distributed training: not the app's page
  QVERIFY(guide.notFound());
  QVERIFY(guide.searchField()->palette().color(QPalette::Base) != plain);
  bool said = false;
  for (const QLabel* label : guide.findChildren<QLabel*>())
    said = said || label->text() == "Not on this page";
  QVERIFY(said);
  QVERIFY(!guide.browser()->textCursor().hasSelection());
  QStringList others;
  for (int row = 0; row < guide.otherPagesList()->count(); ++row)
    others << guide.otherPagesList()->item(row)->data(Qt::UserRole).toString();
  QVERIFY2(others.contains("training.md"), qPrintable(others.join(' ')));
  // Nowhere at all.
  guide.searchField()->clear();
  QVERIFY(!guide.notFound());
  QCOMPARE(guide.searchField()->palette().color(QPalette::Base), plain);
  QTest::keyClicks(guide.searchField(), "xylophone");
  QVERIFY(guide.notFound());
  QCOMPARE(guide.otherPagesList()->count(), 0);
  // Escape empties the field; the window stays.
  QTest::keyClick(guide.searchField(), Qt::Key_Escape);
  QVERIFY(guide.searchField()->text().isEmpty());
  QVERIFY(!guide.notFound());
  QVERIFY(guide.browser()->extraSelections().isEmpty());
  QVERIFY(guide.isVisible());
  // Escape again, with nothing to empty, closes it; Ctrl+W too.
  QTest::keyClick(guide.searchField(), Qt::Key_Escape);
  QVERIFY(!guide.isVisible());
  guide.show();
  QVERIFY(QTest::qWaitForWindowExposed(&guide));
  QTest::keySequence(guide.browser(), QKeySequence::Close);
  QVERIFY(!guide.isVisible());
}

void UserGuideTest::eachTabsQuestionMarkOpensItsSection() {
  QVERIFY(showWindow("additive"));
  auto* tabHelp = window_->findChild<QToolButton*>("tabHelpButton");
  QVERIFY(tabHelp != nullptr);
  QCOMPARE(window_->tabs()->cornerWidget(Qt::TopRightCorner), tabHelp);
  QVERIFY(tabHelp->isVisible());
  QTabWidget* tabs = window_->tabs();
  QCOMPARE(tabs->count(), 5);
  for (int tab = 0; tab < tabs->count(); ++tab) {
    tabs->setCurrentIndex(tab);
    const QString name = tabs->tabText(tab).remove('&');
    QVERIFY2(tabHelp->toolTip().contains(name), qPrintable(tabHelp->toolTip()));
    QTest::mouseClick(tabHelp, Qt::LeftButton);
    UserGuideWindow* guide = window_->userGuide();
    QVERIFY(guide != nullptr);
    QVERIFY(QTest::qWaitForWindowExposed(guide));
    QCOMPARE(guide->currentFile(), QString("app.md"));
    // The section is the heading "<tab> tab", with GitHub's anchor.
    const QString anchor = headingAnchor(name + " tab");
    QCOMPARE(guide->browser()->source().fragment(), anchor);
    const QTextBlock heading = headingWithAnchor(*guide->browser(), anchor);
    QVERIFY2(heading.isValid(), qPrintable(anchor));
    QCOMPARE(heading.text(), name + " tab");
    QTRY_VERIFY2(atTheTop(*guide->browser(), heading), qPrintable(anchor));
    // The reader scrolls away; the next "?" brings the section back.
    guide->browser()->verticalScrollBar()->setValue(0);
  }
  closeWindow();
}

void UserGuideTest::helpUserGuideIsNotF1() {
  QVERIFY(showWindow(QString()));
  QAction* userGuide = nullptr;
  QAction* keys = nullptr;
  for (QAction* menu : window_->menuBar()->actions())
    if (menu->menu() != nullptr)
      for (QAction* action : menu->menu()->actions()) {
        if (action->text().remove('&') == "User guide") userGuide = action;
        if (action->text().remove('&') == "Keys") keys = action;
      }
  QVERIFY(userGuide != nullptr && keys != nullptr);
  QCOMPARE(keys->shortcut(), QKeySequence(Qt::Key_F1));
  QVERIFY(!userGuide->shortcut().isEmpty());
  QVERIFY(userGuide->shortcut() != keys->shortcut());
  QVERIFY(window_->userGuide() == nullptr);  // made when first asked for
  userGuide->trigger();
  QVERIFY(window_->userGuide() != nullptr);
  QVERIFY(QTest::qWaitForWindowExposed(window_->userGuide()));
  QCOMPARE(window_->userGuide()->currentFile(), QString("index.md"));
  // Asked for again, it stays where the reader left it.
  window_->userGuide()->openPage("search.md");
  userGuide->trigger();
  QCOMPARE(window_->userGuide()->currentFile(), QString("search.md"));
  closeWindow();
}

QTEST_MAIN(UserGuideTest)
#include "user_guide_test.moc"
