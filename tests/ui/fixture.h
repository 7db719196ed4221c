#pragma once
// What the QtTest programs share: settings in a folder of their own run, small untrained models
// made by the test in the folder the window lists, the window shown with a model chosen, and the
// waits for its answers.
//
// A QVERIFY or QCOMPARE inside a helper returns from the helper only, and the test goes on as if
// the check had held. So helpers here return bool, and tests call them as QVERIFY(helper(...));
// inside a helper, UI_VERIFY, UI_VERIFY2 and UI_COMPARE record the failure as QVERIFY and QCOMPARE
// do and return false.
#include <attnscope/translator.h>

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QMessageBox>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>
#include <memory>
#include <string>
#include <vector>

#include "core/attention_matrix.h"
#include "engine/test_models.h"
#include "plots/heatmap_plot.h"
#include "widgets/history_line_edit.h"
#include "window/main_window.h"
#include "workers/decoding_controller.h"

#define UI_VERIFY(statement)                                                               \
  do {                                                                                     \
    if (!QTest::qVerify(static_cast<bool>(statement), #statement, "", __FILE__, __LINE__)) \
      return false;                                                                        \
  } while (false)

#define UI_VERIFY2(statement, description)                                          \
  do {                                                                              \
    if (!QTest::qVerify(static_cast<bool>(statement), #statement,                   \
                        static_cast<const char*>(description), __FILE__, __LINE__)) \
      return false;                                                                 \
  } while (false)

#define UI_COMPARE(actual, expected)                                                              \
  do {                                                                                            \
    if (!QTest::qCompare(actual, expected, #actual, #expected, __FILE__, __LINE__)) return false; \
  } while (false)

namespace attnscope::ui::test {

// Points QSettings (the window's choices, its history, its geometry) and QStandardPaths at a
// folder of this run only, so that no run and no other test program reads what one wrote. Once
// per program, in initTestCase(), before a widget reads a setting.
inline bool isolateSettings() {
  static QTemporaryDir folder;
  if (!folder.isValid()) return false;
  QStandardPaths::setTestModeEnabled(true);
  for (const QSettings::Format format : {QSettings::NativeFormat, QSettings::IniFormat})
    QSettings::setPath(format, QSettings::UserScope, folder.path());
  return true;
}

// An untrained test model (tests/engine/test_models.h) of each score function of `scores`, as
// `<score>.attnmodel` in `folder`, which the window then lists (ATTNSCOPE_MODEL_DIR).
inline bool provideModels(const QTemporaryDir& folder, const std::vector<std::string>& scores) {
  UI_VERIFY(folder.isValid());
  for (const std::string& score : scores) {
    const QString made = QString::fromStdString(attnscope::testing::random_model_file(score));
    const QString listed = folder.filePath(QString::fromStdString(score) + ".attnmodel");
    UI_VERIFY2(QFile::copy(made, listed), qPrintable(listed));
  }
  qputenv("ATTNSCOPE_MODEL_DIR", folder.path().toUtf8());
  return true;
}

// Waits until every request queued to `worker`'s thread before this call has run and every
// answer it sent back before then has been delivered here: the worker runs its queue in order
// and its answers queue here in order, so a marker sent through both arrives after them. How a
// test knows that "no late answer will come" without a fixed wait.
inline bool workerDrained(QObject* worker, int timeoutMs = 30000) {
  const auto done = std::make_shared<bool>(false);
  QMetaObject::invokeMethod(
      worker,
      [done] {
        QMetaObject::invokeMethod(
            qApp, [done] { *done = true; }, Qt::QueuedConnection);
      },
      Qt::QueuedConnection);
  UI_VERIFY2(QTest::qWaitFor([done] { return *done; }, timeoutMs),
             "the worker did not answer within the timeout");
  // What the answers delivered queued in turn (a replot) has run too.
  QCoreApplication::processEvents();
  return true;
}

// `strings` as a QStringList, to compare with a matrix's tokens.
inline QStringList qStrings(const std::vector<std::string>& strings) {
  QStringList list;
  for (const std::string& s : strings) list << QString::fromStdString(s);
  return list;
}

// Each row of `m` a distribution over its source: as long as the source, summing to 1.
inline bool rowsSumToOne(const AttentionMatrix& m, double tolerance = 1e-5) {
  for (const auto& row : m.weights) {
    UI_COMPARE(row.size(), m.columns());
    double sum = 0;
    for (double w : row) sum += w;
    UI_VERIFY2(qAbs(sum - 1.0) < tolerance, qPrintable(QString::number(sum, 'g', 10)));
  }
  return true;
}

// The weights of `m` are `expected` (the engine's own attention), row by row, to 1e-6.
inline bool sameWeights(const AttentionMatrix& m, const std::vector<std::vector<float>>& expected) {
  UI_COMPARE(m.rows(), static_cast<int>(expected.size()));
  for (int r = 0; r < m.rows(); ++r) {
    UI_COMPARE(m.weights[r].size(), static_cast<int>(expected[r].size()));
    for (int c = 0; c < m.columns(); ++c)
      UI_VERIFY2(qAbs(m.weights[r][c] - expected[r][c]) < 1e-6,
                 qPrintable(QStringLiteral("row %1, column %2: %3, expected %4")
                                .arg(r)
                                .arg(c)
                                .arg(m.weights[r][c])
                                .arg(expected[r][c])));
  }
  return true;
}

// A test of the window: derive from it, and call its helpers from the test's own slots.
class WindowTest : public QObject {
 protected:
  // How a sentence reaches the source box: typed key by key, or set at once (keyClicks cannot
  // type NUL or control characters).
  enum class Entry { Typed, Set };
  // After the heatmap's first answer, whether to wait until the step-wise session has shown its
  // last step too.
  enum class Settle { No, Yes };

  // For initTestCase(): settings isolated, and the models of `scores` listed.
  bool setUpModels(const std::vector<std::string>& scores) {
    UI_VERIFY(isolateSettings());
    return provideModels(models_, scores);
  }

  // Model file `path` listed as `<name>.attnmodel` too (before the window is made).
  bool listModel(const QString& path, const QString& name) {
    UI_VERIFY2(QFile::copy(path, modelPath(name)), qPrintable(modelPath(name)));
    return true;
  }

  // The listed model of `name`.
  QString modelPath(const QString& name) const { return models_.filePath(name + ".attnmodel"); }

  // For init(): a new window, shown and exposed; `model`, when given, chosen and shown in the
  // model box once the engine thread has listed the models; `size`, when given, its size.
  bool showWindow(const QString& model, const QSize& size = QSize()) {
    window_ = std::make_unique<MainWindow>();
    if (size.isValid()) window_->resize(size);
    if (!model.isEmpty()) window_->selectModel(model);
    window_->show();
    UI_VERIFY(QTest::qWaitForWindowExposed(window_.get()));
    if (!model.isEmpty()) {
      // Then compared, so that a timeout names what the box shows.
      static_cast<void>(
          QTest::qWaitFor([&] { return window_->modelBox()->currentText() == model; }, 5000));
      UI_COMPARE(window_->modelBox()->currentText(), model);
    }
    return true;
  }

  // For cleanup().
  void closeWindow() { window_.reset(); }

  // Puts `sentence` in the source box, presses Return and waits up to `timeoutMs` for the
  // heatmap's answer (an answer given at once, as for an empty sentence, counts); with
  // Settle::Yes also until the session has shown its last step.
  bool translate(const QString& sentence, Entry entry = Entry::Set, Settle settle = Settle::Yes,
                 int timeoutMs = 10000) {
    QSignalSpy updated(window_.get(), &MainWindow::heatmapUpdated);
    if (entry == Entry::Typed) {
      window_->sourceEdit()->clear();
      QTest::keyClicks(window_->sourceEdit(), sentence);
    } else {
      window_->sourceEdit()->setText(sentence);
    }
    QTest::keyClick(window_->sourceEdit(), Qt::Key_Return);
    UI_VERIFY(!updated.isEmpty() || updated.wait(timeoutMs));
    if (settle == Settle::Yes) UI_VERIFY(settled());
    return true;
  }

  // Waits until the window has shown the answer to its newest step request.
  bool settled(int timeoutMs = 20000) const {
    return QTest::qWaitFor([&] { return !window_->controller()->busy(); }, timeoutMs);
  }

  // What the engine itself makes of `sentence` with the listed model `model` (greedy search,
  // unknown words copied: the window's defaults).
  attnscope::Translation engineTranslation(const QString& sentence, const QString& model) const {
    return attnscope::Translator(modelPath(model).toStdString()).translate(sentence.toStdString());
  }

  // Once the session has shown its last step: the window shows `model`'s translation of
  // `sentence`, a row per output token with the engine's own attention.
  bool showsTranslationOf(const QString& sentence, const QString& model) {
    UI_VERIFY(settled());
    UI_COMPARE(window_->modelBox()->currentText(), model);
    const attnscope::Translation expected = engineTranslation(sentence, model);
    const AttentionMatrix& shown = window_->heatmap()->matrix();
    UI_COMPARE(shown.targetTokens, qStrings(expected.tokens));
    return sameWeights(shown, expected.attention);
  }

  // Opens model file `path` and waits until the window lists and chooses it.
  bool openModel(const QString& path) {
    QSignalSpy opened(window_.get(), &MainWindow::modelOpened);
    window_->openModelFile(path);
    UI_VERIFY2(opened.wait(10000), qPrintable(path));
    return true;
  }

  // The toolbar's choice of search (greedy or beam); null when there is none.
  QComboBox* searchBox() const {
    QComboBox* found = nullptr;
    for (QComboBox* box : window_->findChildren<QComboBox*>())
      if (box->findText("Beam") >= 0) found = box;
    return found;
  }

  // Triggers Help > Model info and returns the message box's text, read and closed from inside
  // its loop; "" when the window has no such action or no box opened.
  QString modelInfoBoxText() {
    QAction* action = nullptr;
    for (QAction* a : window_->findChildren<QAction*>())
      if (a->text() == "&Model info") action = a;
    if (action == nullptr) return QString();
    QString info;
    QTimer closer;
    QObject::connect(&closer, &QTimer::timeout, window_.get(), [&] {
      if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
        info = box->text();
        box->accept();
      }
    });
    closer.start(20);
    action->trigger();
    return info;
  }

  QTemporaryDir models_;  // the folder the window lists
  std::unique_ptr<MainWindow> window_;
};

}  // namespace attnscope::ui::test
