// Hostile input through the window (QT_QPA_PLATFORM=offscreen): sentences in the text box, bad
// model files, bad export paths. Each ends in a result or one non-modal message box naming the
// input, and the window stays usable.
#include <attnscope/model_catalog.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "engine/test_models.h"
#include "plots/heatmap_plot.h"
#include "ui/fixture.h"
#include "widgets/history_line_edit.h"
#include "window/main_window.h"

using namespace attnscope::ui;

class HostileInputTest : public test::WindowTest {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void init();
  void cleanup();
  void hostileSentences_data();
  void hostileSentences();
  void badModelFiles_data();
  void badModelFiles();
  void damagedWeightsShowAnErrorWhenTheModelIsUsed();
  void badExportPaths_data();
  void badExportPaths();
  void exportNeverReplacesAFifo();
  void exportToAFullDiskLeavesNoHalfFile();

 private:
  // The text of the one message box shown since the last call ("" when none), then closes it.
  QString takeError();
  // setText: keyClicks cannot type NUL or controls. An empty sentence is answered at once.
  bool translate(const QString& sentence) {
    return WindowTest::translate(sentence, Entry::Set, Settle::No, 20000);
  }

  QTemporaryDir scratch_;
};

void HostileInputTest::initTestCase() { QVERIFY(setUpModels(attnscope::score_function_names())); }

void HostileInputTest::init() { QVERIFY(showWindow("location")); }

void HostileInputTest::cleanup() { closeWindow(); }

QString HostileInputTest::takeError() {
  QCoreApplication::processEvents();
  QString text;
  for (QMessageBox* box : window_->findChildren<QMessageBox*>()) {
    if (!box->isVisible()) continue;
    if (!text.isEmpty()) text += QStringLiteral("\n");
    text += box->text();
    box->close();
  }
  if (!QTest::qWaitFor([&] { return window_->findChildren<QMessageBox*>().isEmpty(); }, 5000))
    text += QStringLiteral("\n(a message box did not close)");
  return text;
}

void HostileInputTest::hostileSentences_data() {
  QTest::addColumn<QString>("sentence");
  QTest::newRow("empty") << QString();
  QTest::newRow("whitespace") << QStringLiteral(" \t  \t");
  QTest::newRow("5000 words") << QStringLiteral("a ").repeated(5000);
  QTest::newRow("NUL and controls") << QString::fromUtf8("a\0b\x01\x1b[2J c", 10);
  QTest::newRow("invalid UTF-8") << QString::fromUtf8("a \xFF\xFE b \xC3(");
  QTest::newRow("emoji") << QStringLiteral("a 😀 👩‍👩‍👧 b");
  QTest::newRow("CJK") << QStringLiteral("東京は雨です");
  QTest::newRow("right-to-left") << QStringLiteral("שלום مرحبا \u202Eabc");
  QTest::newRow("only punctuation") << QStringLiteral("?!... ,,,");
  QTest::newRow("special-token lookalikes") << QStringLiteral("<unk> </s> <s> <pad> <b>bold</b>");
  QTest::newRow("format strings") << QStringLiteral("%1 %2 %s %n %99999999s {0}");
}

void HostileInputTest::hostileSentences() {
  QFETCH(QString, sentence);
  QVERIFY(translate(QStringLiteral("a b c")));  // something to replace, so an empty result shows
  QVERIFY(translate(sentence));
  const AttentionMatrix& m = window_->heatmap()->matrix();
  QCOMPARE(m.targetTokens.size(), m.rows());
  for (const auto& row : m.weights) QCOMPARE(row.size(), m.columns());
  if (!sentence.trimmed().isEmpty()) {
    QVERIFY(m.columns() >= 1);
    QCOMPARE(m.sourceTokens.last(), QStringLiteral("</s>"));
    QVERIFY(m.columns() <= 20);  // the test models read 19 words + </s>
    for (const QString& token : m.sourceTokens.mid(0, m.columns() - 1))
      QVERIFY2(token != "<unk>" && token != "</s>" && token != "<s>" && token != "<pad>",
               qPrintable(token));
  } else {
    QCOMPARE(m.rows(), 0);  // nothing to translate: an empty view
    QVERIFY(window_->outputLabel()->text().isEmpty());
  }
  if (sentence.startsWith(QStringLiteral("a a a")))
    QVERIFY2(window_->outputLabel()->text().contains(QStringLiteral("5000 words")),
             qPrintable(window_->outputLabel()->text()));
  QCOMPARE(takeError(), QString());
  QVERIFY(translate(QStringLiteral("a b c")));  // still usable
  QVERIFY(showsTranslationOf(QStringLiteral("a b c"), QStringLiteral("location")));
}

void HostileInputTest::badModelFiles_data() {
  QVERIFY(scratch_.isValid());
  QTest::addColumn<QString>("path");
  QTest::addColumn<QString>("problem");
  auto write = [&](const QString& name, const QByteArray& bytes) {
    QFile file(scratch_.filePath(name));
    file.open(QIODevice::WriteOnly);
    file.write(bytes);
    return file.fileName();
  };
  QFile good(models_.filePath("dot.attnmodel"));
  good.open(QIODevice::ReadOnly);
  const QByteArray whole = good.readAll();
  QByteArray future = whole;
  future[16] = 9;
  const QString fifo = scratch_.filePath("fifo.attnmodel");
  ::mkfifo(QFile::encodeName(fifo).constData(), 0644);
  QTest::newRow("missing") << scratch_.filePath("missing.attnmodel") << "does not exist";
  QTest::newRow("empty") << write("empty.attnmodel", {}) << "is empty";
  QTest::newRow("truncated") << write("cut.attnmodel", whole.left(200)) << "truncated";
  QTest::newRow("future version") << write("future.attnmodel", future) << "format version 9";
  QTest::newRow("image") << write("picture.png", QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16))
                         << "not an attnscope model file";
  QTest::newRow("directory") << scratch_.path() << "is a directory";
  QTest::newRow("FIFO") << fifo << "not a regular file";  // opening it must not wait
}

void HostileInputTest::badModelFiles() {
  QFETCH(QString, path);
  QFETCH(QString, problem);
  const int models = window_->modelBox()->count();
  QSignalSpy opened(window_.get(), &MainWindow::modelOpened);
  window_->openModelFile(path);  // read on the engine thread; the answer is a dialog
  QTRY_VERIFY_WITH_TIMEOUT(!window_->findChildren<QMessageBox*>().isEmpty(), 10000);
  const QString error = takeError();
  QVERIFY(opened.isEmpty());
  QVERIFY2(error.contains(QStringLiteral("'%1'").arg(path)), qPrintable(error));
  QVERIFY2(error.contains(problem), qPrintable(error));
  QVERIFY2(!error.contains('\n'), qPrintable(error));
  QCOMPARE(window_->modelBox()->count(), models);
  QVERIFY(translate(QStringLiteral("a b")));
  QVERIFY(showsTranslationOf(QStringLiteral("a b"), QStringLiteral("location")));
}

void HostileInputTest::damagedWeightsShowAnErrorWhenTheModelIsUsed() {
  // Opening reads only the header; the weights are read (and their CRC-32s checked) on first use.
  QFile good(models_.filePath("dot.attnmodel"));
  QVERIFY(good.open(QIODevice::ReadOnly));
  QByteArray bytes = good.readAll();
  bytes[bytes.size() - 10] = static_cast<char>(bytes[bytes.size() - 10] ^ 0x10);
  const QString path = scratch_.filePath("damaged.attnmodel");
  QFile damaged(path);
  QVERIFY(damaged.open(QIODevice::WriteOnly));
  damaged.write(bytes);
  damaged.close();
  QSignalSpy opened(window_.get(), &MainWindow::modelOpened);
  window_->openModelFile(path);
  QVERIFY(opened.wait(10000));
  QCOMPARE(opened[0][0].toString(), QStringLiteral("damaged"));
  QCOMPARE(window_->modelBox()->currentText(), QStringLiteral("damaged"));
  window_->sourceEdit()->setText(QStringLiteral("a b c"));
  QTest::keyClick(window_->sourceEdit(), Qt::Key_Return);
  QTRY_VERIFY_WITH_TIMEOUT(!window_->findChildren<QMessageBox*>().isEmpty(), 20000);
  const QString error = takeError();
  QVERIFY2(error.contains(QStringLiteral("'%1'").arg(path)), qPrintable(error));
  QVERIFY2(error.contains(QStringLiteral("checksum mismatch")), qPrintable(error));
  window_->selectModel(QStringLiteral("additive"));  // the others still work
  QVERIFY(translate(QStringLiteral("a b")));
  QVERIFY(showsTranslationOf(QStringLiteral("a b"), QStringLiteral("additive")));
}

void HostileInputTest::badExportPaths_data() {
  QVERIFY(scratch_.isValid());
  QTest::addColumn<QString>("path");
  QTest::addColumn<QString>("problem");
  QDir(scratch_.path()).mkdir(QStringLiteral("folder.png"));
  QTest::newRow("missing folder") << scratch_.filePath("missing/x.png") << "";
  QTest::newRow("unknown extension") << scratch_.filePath("x.docx") << "unknown file type";
  QTest::newRow("no extension") << scratch_.filePath("x") << "unknown file type";
  QTest::newRow("a directory") << scratch_.filePath("folder.png") << "";
  if (::geteuid() == 0) {
    QTest::newRow("read-only place") << QStringLiteral("/proc/x.csv") << "";
  } else {
    QDir(scratch_.path()).mkdir(QStringLiteral("locked"));
    QFile::setPermissions(scratch_.filePath("locked"), QFile::ReadOwner | QFile::ExeOwner);
    QTest::newRow("read-only folder") << scratch_.filePath("locked/x.png") << "";
  }
}

void HostileInputTest::badExportPaths() {
  QFETCH(QString, path);
  QFETCH(QString, problem);
  QVERIFY(translate(QStringLiteral("a b c")));
  window_->exportTo(path, ExportOptions{});
  const QString error = takeError();
  QVERIFY2(error.startsWith(QStringLiteral("Cannot export to '%1': ").arg(path)),
           qPrintable(error));
  QVERIFY2(error.contains(problem), qPrintable(error));
  QVERIFY2(!error.contains('\n'), qPrintable(error));
  QVERIFY(!QFileInfo(path).isFile());
}

void HostileInputTest::exportNeverReplacesAFifo() {
  QVERIFY(translate(QStringLiteral("a b c")));
  const QString fifo = scratch_.filePath("export-fifo.csv");
  QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0644), 0);
  window_->exportTo(fifo, ExportOptions{});
  const QString error = takeError();
  struct stat info {};
  ::lstat(QFile::encodeName(fifo).constData(), &info);
  QVERIFY2(S_ISFIFO(info.st_mode), "the FIFO was replaced by a regular file");
  QVERIFY2(error.contains(QStringLiteral("'%1'").arg(fifo)), qPrintable(error));
}

void HostileInputTest::exportToAFullDiskLeavesNoHalfFile() {
  QVERIFY(translate(QStringLiteral("a b c")));
  // Small enough for Qt's write buffer, so QSaveFile::commit() does the writing.
  const QString path = scratch_.filePath("full.csv");
  QFile::remove(path);
  {
    // A full disk for this process: writes past 64 bytes fail (EFBIG), no SIGXFSZ.
    const auto handler = ::signal(SIGXFSZ, SIG_IGN);
    rlimit previous{};
    ::getrlimit(RLIMIT_FSIZE, &previous);
    rlimit limit = previous;
    limit.rlim_cur = 64;
    ::setrlimit(RLIMIT_FSIZE, &limit);
    window_->exportTo(path, ExportOptions{});
    ::setrlimit(RLIMIT_FSIZE, &previous);
    ::signal(SIGXFSZ, handler);
  }
  const QString error = takeError();
  QVERIFY2(!QFileInfo::exists(path), "a cut-off file was left under the final name");
  QVERIFY2(error.contains(QStringLiteral("'%1'").arg(path)), qPrintable(error));
  const QStringList leftovers = QDir(scratch_.path()).entryList({QStringLiteral("full.csv.*")});
  QVERIFY2(leftovers.isEmpty(), qPrintable(leftovers.join(", ")));
}

QTEST_MAIN(HostileInputTest)
#include "hostile_input_test.moc"
