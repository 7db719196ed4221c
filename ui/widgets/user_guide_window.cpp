#include "widgets/user_guide_window.h"

#include <QAction>
#include <QFile>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStyle>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>

#include "widgets/guide_browser.h"

namespace attnscope::ui {

namespace {

QString readResource(const QUrl& url) {
  QFile file(QLatin1Char(':') + url.path());
  if (!file.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(file.readAll());
}

// `a` with a share `weight` of `b`: a tint that reads on a light palette and a dark one.
QColor blend(const QColor& a, const QColor& b, double weight) {
  return QColor::fromRgbF(float(a.redF() * (1 - weight) + b.redF() * weight),
                          float(a.greenF() * (1 - weight) + b.greenF() * weight),
                          float(a.blueF() * (1 - weight) + b.blueF() * weight));
}

QToolButton* toolButton(QAction* action, QWidget* parent) {
  auto* button = new QToolButton(parent);
  button->setDefaultAction(action);
  button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  button->setAutoRaise(true);
  return button;
}

// An action with its shortcut in its tooltip, as the decoding toolbar writes them.
QAction* keyAction(const QIcon& icon, const QString& text, const QKeySequence& key,
                   QWidget* parent) {
  auto* action = new QAction(icon, text, parent);
  action->setShortcut(key);
  action->setToolTip(QStringLiteral("%1 (%2)").arg(text, key.toString(QKeySequence::NativeText)));
  parent->addAction(action);
  return action;
}

}  // namespace

UserGuideWindow::UserGuideWindow(QWidget* parent) : QWidget(parent, Qt::Window) {
  setWindowTitle(tr("attnscope user guide"));
  resize(1000, 720);

  pages_.append({tr("Contents"), QString::fromLatin1(kGuideIndex)});
  pages_.append(guideContents(readResource(guideUrl(QString::fromLatin1(kGuideIndex)))));

  browser_ = new GuideBrowser(this);
  contents_ = new QListWidget(this);
  contents_->setObjectName(QStringLiteral("guideContents"));
  for (const GuidePage& page : pages_) {
    auto* item = new QListWidgetItem(page.title, contents_);
    item->setData(Qt::UserRole, page.file);
  }
  otherPagesLabel_ = new QLabel(this);
  otherPages_ = new QListWidget(this);
  otherPages_->setObjectName(QStringLiteral("guideOtherPages"));
  otherPagesLabel_->hide();
  otherPages_->hide();

  const QStyle* look = style();
  QAction* back = keyAction(
      QIcon::fromTheme(QStringLiteral("go-previous"), look->standardIcon(QStyle::SP_ArrowBack)),
      tr("Back"), QKeySequence::Back, this);
  QAction* forward = keyAction(
      QIcon::fromTheme(QStringLiteral("go-next"), look->standardIcon(QStyle::SP_ArrowForward)),
      tr("Forward"), QKeySequence::Forward, this);
  QAction* home = keyAction(
      QIcon::fromTheme(QStringLiteral("go-home"), look->standardIcon(QStyle::SP_DirHomeIcon)),
      tr("Contents"), QKeySequence(tr("Alt+Home")), this);
  back->setEnabled(false);
  forward->setEnabled(false);

  search_ = new QLineEdit(this);
  search_->setObjectName(QStringLiteral("guideSearch"));
  search_->setClearButtonEnabled(true);
  search_->setPlaceholderText(tr("Find in the guide (Ctrl+F)"));
  search_->setToolTip(tr("Enter: the next match on this page, Shift+Enter: the one before"));
  search_->installEventFilter(this);
  // A window of its own, without a window manager's close button on some desktops: Escape and
  // Ctrl+W close it, as a help browser's do (Escape first empties a search, see eventFilter).
  for (const QKeySequence& key :
       {QKeySequence(Qt::Key_Escape), QKeySequence(QKeySequence::Close)}) {
    auto* closeAction = new QAction(this);
    closeAction->setShortcut(key);
    connect(closeAction, &QAction::triggered, this, &QWidget::close);
    addAction(closeAction);
  }
  searchState_ = new QLabel(this);
  auto* findAction = new QAction(this);
  findAction->setShortcut(QKeySequence::Find);
  addAction(findAction);
  auto* nextAction = new QAction(this);
  nextAction->setShortcut(QKeySequence::FindNext);
  addAction(nextAction);
  auto* previousAction = new QAction(this);
  previousAction->setShortcut(QKeySequence::FindPrevious);
  addAction(previousAction);

  auto* top = new QHBoxLayout;
  for (QAction* action : {back, forward, home}) top->addWidget(toolButton(action, this));
  top->addStretch(1);
  top->addWidget(searchState_);
  top->addWidget(search_, 1);
  auto* side = new QWidget(this);
  auto* sideLayout = new QVBoxLayout(side);
  sideLayout->setContentsMargins(0, 0, 0, 0);
  sideLayout->addWidget(contents_, 2);
  sideLayout->addWidget(otherPagesLabel_);
  sideLayout->addWidget(otherPages_, 1);
  auto* splitter = new QSplitter(this);
  splitter->addWidget(side);
  splitter->addWidget(browser_);
  splitter->setStretchFactor(1, 1);
  splitter->setSizes({230, 770});
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(splitter, 1);

  connect(back, &QAction::triggered, browser_, &QTextBrowser::backward);
  connect(forward, &QAction::triggered, browser_, &QTextBrowser::forward);
  connect(home, &QAction::triggered, this, [this] { openPage(QString::fromLatin1(kGuideIndex)); });
  connect(browser_, &QTextBrowser::backwardAvailable, back, &QAction::setEnabled);
  connect(browser_, &QTextBrowser::forwardAvailable, forward, &QAction::setEnabled);
  connect(browser_, &QTextBrowser::sourceChanged, this, &UserGuideWindow::pageShown);
  connect(contents_, &QListWidget::currentItemChanged, this, [this](QListWidgetItem* item) {
    if (item != nullptr) openPage(item->data(Qt::UserRole).toString());
  });
  const auto openOtherPage = [this](QListWidgetItem* item) {
    openPage(item->data(Qt::UserRole).toString());
    find(From::Here);
  };
  connect(otherPages_, &QListWidget::itemClicked, this, openOtherPage);
  connect(otherPages_, &QListWidget::itemActivated, this, openOtherPage);
  connect(search_, &QLineEdit::textChanged, this, [this] {
    find(From::Here);
    listOtherPages();
  });
  connect(search_, &QLineEdit::returnPressed, this, &UserGuideWindow::findNext);
  connect(findAction, &QAction::triggered, this, [this] {
    search_->setFocus(Qt::ShortcutFocusReason);
    search_->selectAll();
  });
  connect(nextAction, &QAction::triggered, this, &UserGuideWindow::findNext);
  connect(previousAction, &QAction::triggered, this, &UserGuideWindow::findPrevious);

  openPage(QString::fromLatin1(kGuideIndex));
}

void UserGuideWindow::openPage(const QString& page) { browser_->setSource(guideUrl(page)); }

void UserGuideWindow::findNext() { find(From::Next); }

void UserGuideWindow::findPrevious() { find(From::Previous); }

QString UserGuideWindow::currentFile() const { return guideFile(browser_->page()); }

bool UserGuideWindow::eventFilter(QObject* watched, QEvent* event) {
  // Escape in a search with text empties it (the key press below) instead of closing the window.
  if (watched == search_ && event->type() == QEvent::ShortcutOverride &&
      static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape && !search_->text().isEmpty()) {
    event->accept();
    return true;
  }
  if (watched == search_ && event->type() == QEvent::KeyPress) {
    const auto* key = static_cast<QKeyEvent*>(event);
    const bool enter = key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter;
    if (enter && key->modifiers() & Qt::ShiftModifier) {
      findPrevious();
      return true;
    }
    if (key->key() == Qt::Key_Escape && !search_->text().isEmpty()) {
      search_->clear();
      return true;
    }
  }
  return QWidget::eventFilter(watched, event);
}

void UserGuideWindow::find(From from) {
  highlightMatches();
  const QString text = search_->text();
  if (text.isEmpty()) {
    clearMatch();
    setNotFound(false);
    return;
  }
  QTextCursor cursor = browser_->textCursor();
  if (from == From::Here) {
    // Typing on keeps the match the first letters found while it still matches; a new search
    // starts at the top of what the page shows, not at the top of the page.
    if (cursor.hasSelection())
      cursor.setPosition(cursor.selectionStart());
    else
      cursor = browser_->cursorForPosition(QPoint(0, 0));
  }
  const QTextDocument::FindFlags flags =
      from == From::Previous ? QTextDocument::FindBackward : QTextDocument::FindFlags();
  QTextCursor match = browser_->document()->find(text, cursor, flags);
  if (match.isNull()) {  // on from the other end of the page
    QTextCursor end(browser_->document());
    if (from == From::Previous) end.movePosition(QTextCursor::End);
    match = browser_->document()->find(text, end, flags);
  }
  setNotFound(match.isNull());
  if (match.isNull()) {
    clearMatch();  // not the match of the text before its last letter
    return;
  }
  browser_->setTextCursor(match);  // scrolled into view
}

void UserGuideWindow::clearMatch() {
  QTextCursor cursor = browser_->textCursor();
  if (!cursor.hasSelection()) return;
  const int scrolled = browser_->verticalScrollBar()->value();
  cursor.setPosition(cursor.selectionStart());
  browser_->setTextCursor(cursor);
  browser_->verticalScrollBar()->setValue(scrolled);  // the page stays where the reader is
}

void UserGuideWindow::pageShown() {
  const QString file = currentFile();
  {
    const QSignalBlocker quiet(contents_);
    contents_->setCurrentRow(-1);
    for (int row = 0; row < contents_->count(); ++row)
      if (contents_->item(row)->data(Qt::UserRole).toString() == file)
        contents_->setCurrentRow(row);
  }
  const QString title = browser_->pageTitle();
  setWindowTitle(title.isEmpty() ? tr("attnscope user guide")
                                 : tr("%1 — attnscope user guide").arg(title));
  // A new page keeps the search: its matches highlighted, the other pages listed anew.
  highlightMatches();
  setNotFound(!search_->text().isEmpty() && browser_->extraSelections().isEmpty());
  listOtherPages();
}

void UserGuideWindow::highlightMatches() {
  QList<QTextEdit::ExtraSelection> matches;
  const QString text = search_->text();
  if (!text.isEmpty()) {
    QColor tint(Qt::yellow);
    tint.setAlpha(110);
    for (QTextCursor match = browser_->document()->find(text); !match.isNull();
         match = browser_->document()->find(text, match)) {
      QTextEdit::ExtraSelection selection;
      selection.cursor = match;
      selection.format.setBackground(tint);
      matches << selection;
    }
  }
  browser_->setExtraSelections(matches);
  searchState_->setText(matches.isEmpty()     ? QString()
                        : matches.size() == 1 ? tr("1 match on this page")
                                              : tr("%1 matches on this page").arg(matches.size()));
}

void UserGuideWindow::listOtherPages() {
  otherPages_->clear();
  const QString text = search_->text();
  otherPagesLabel_->setVisible(!text.isEmpty());
  otherPages_->setVisible(!text.isEmpty());
  if (text.isEmpty()) return;
  const QString shown = currentFile();
  for (const GuidePage& page : pages_) {
    if (page.file == shown) continue;
    const qsizetype count = pageText(page.file).count(text, Qt::CaseInsensitive);
    if (count == 0) continue;
    auto* item =
        new QListWidgetItem(QStringLiteral("%1 (%2)").arg(page.title).arg(count), otherPages_);
    item->setData(Qt::UserRole, page.file);
  }
  otherPagesLabel_->setText(otherPages_->count() == 0 ? tr("On no other page")
                                                      : tr("Also on these pages:"));
}

void UserGuideWindow::setNotFound(bool notFound) {
  notFound_ = notFound;
  QPalette tinted;  // sets nothing: the field follows the window's palette
  if (notFound) {
    tinted.setColor(QPalette::Base, blend(palette().color(QPalette::Base), Qt::red, 0.35));
    searchState_->setText(tr("Not on this page"));
  }
  search_->setPalette(tinted);
}

const QString& UserGuideWindow::pageText(const QString& file) {
  auto it = pageTexts_.find(file);
  if (it == pageTexts_.end()) {
    QTextDocument page;
    page.setMarkdown(readResource(guideUrl(file)));
    it = pageTexts_.insert(file, page.toPlainText());
  }
  return *it;
}

}  // namespace attnscope::ui
