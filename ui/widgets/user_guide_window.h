#pragma once
// Help > User guide: the guide of docs/ offline, in a window of its own. The contents (index.md's
// pages) on the left, the page on the right, Back, Forward and Contents above it, and a search
// field that finds a text in the shown page (every match highlighted, Enter the next, Shift+Enter
// the one before) and lists the other pages that hold it.
#include <QHash>
#include <QWidget>

#include "core/guide_pages.h"

class QLabel;
class QLineEdit;
class QListWidget;

namespace attnscope::ui {

class GuideBrowser;

class UserGuideWindow : public QWidget {
  Q_OBJECT
 public:
  explicit UserGuideWindow(QWidget* parent = nullptr);

  /// Shows `page`, a file of docs/ with an optional heading anchor ("app.md#corpus-tab"), its
  /// heading at the top.
  void openPage(const QString& page);
  void findNext();
  void findPrevious();

  /// The file of docs/ shown ("app.md"), or empty for a file outside it (LICENSE).
  QString currentFile() const;
  /// Whether the search text is missing from the shown page (the field turns red).
  bool notFound() const { return notFound_; }
  /// The pages index.md lists, index.md itself first.
  const QList<GuidePage>& pages() const { return pages_; }

  // For tests: the widgets as they are.
  GuideBrowser* browser() const { return browser_; }
  QListWidget* contentsList() const { return contents_; }
  QLineEdit* searchField() const { return search_; }
  QListWidget* otherPagesList() const { return otherPages_; }

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  enum class From { Here, Next, Previous };
  void find(From from);
  void clearMatch();
  void pageShown();
  void highlightMatches();
  void listOtherPages();
  void setNotFound(bool notFound);
  // The page's text as the reader sees it (Markdown's marks gone), read once.
  const QString& pageText(const QString& file);

  GuideBrowser* browser_ = nullptr;
  QListWidget* contents_ = nullptr;
  QLineEdit* search_ = nullptr;
  QLabel* searchState_ = nullptr;
  QLabel* otherPagesLabel_ = nullptr;
  QListWidget* otherPages_ = nullptr;
  QList<GuidePage> pages_;
  QHash<QString, QString> pageTexts_;
  bool notFound_ = false;
};

}  // namespace attnscope::ui
