// QtTest on the real window (QT_QPA_PLATFORM=offscreen): what a new user tripped over in the
// window's frame (issue 35): shortcuts from text boxes, file dialogs, copied-word notes, model
// texts and error messages.
#include <attnscope/model_catalog.h>
#include <attnscope/model_info.h>
#include <attnscope/training_snapshots.h>
#include <attnscope/training_tasks.h>
#include <attnscope/translation.h>

#include <QAbstractSpinBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QtTest>

#include "core/app_settings.h"
#include "core/copied_words.h"
#include "core/file_filters.h"
#include "core/model_info_text.h"
#include "core/start_arguments.h"
#include "core/token_text.h"
#include "engine/scripted_modules.h"
#include "plots/heatmap_plot.h"
#include "tabs/compare_view.h"
#include "tabs/corpus_view.h"
#include "ui/fixture.h"
#include "widgets/decoding_tool_bar.h"
#include "widgets/file_dialogs.h"
#include "window/main_window.h"

using namespace attnscope::ui;

namespace {

// The window's menu actions that have a shortcut.
QList<QAction*> shortcutActions(const QMainWindow& window) {
  QList<QAction*> actions;
  for (QAction* menu : window.menuBar()->actions())
    if (menu->menu() != nullptr)
      for (QAction* action : menu->menu()->actions())
        if (!action->shortcut().isEmpty()) actions << action;
  return actions;
}

// Every key binding of Qt's standard text-editing keys on this platform (cursor movement,
// selection, deletion, clipboard, undo): what a text box may keep for itself.
QList<QKeySequence> textEditingKeys() {
  using K = QKeySequence;
  QList<QKeySequence> keys;
  for (const K::StandardKey key : {K::Copy,
                                   K::Cut,
                                   K::Paste,
                                   K::Undo,
                                   K::Redo,
                                   K::SelectAll,
                                   K::Delete,
                                   K::Backspace,
                                   K::DeleteEndOfLine,
                                   K::DeleteStartOfWord,
                                   K::DeleteEndOfWord,
                                   K::DeleteCompleteLine,
                                   K::MoveToNextChar,
                                   K::MoveToPreviousChar,
                                   K::MoveToNextWord,
                                   K::MoveToPreviousWord,
                                   K::MoveToStartOfLine,
                                   K::MoveToEndOfLine,
                                   K::MoveToStartOfBlock,
                                   K::MoveToEndOfBlock,
                                   K::MoveToStartOfDocument,
                                   K::MoveToEndOfDocument,
                                   K::SelectNextChar,
                                   K::SelectPreviousChar,
                                   K::SelectNextWord,
                                   K::SelectPreviousWord,
                                   K::SelectStartOfLine,
                                   K::SelectEndOfLine,
                                   K::SelectStartOfDocument,
                                   K::SelectEndOfDocument,
                                   K::Deselect})
    keys << K::keyBindings(key);
  return keys;
}

// While alive, answers the first modal QFileDialog that opens: remembers the folder it starts
// in and accepts `name` typed into it (rejects it when `name` is empty).
class FileDialogAnswer : public QObject {
 public:
  explicit FileDialogAnswer(QString name) : name_(std::move(name)) {
    connect(&timer_, &QTimer::timeout, this, [this] {
      auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
      if (dialog == nullptr) return;
      timer_.stop();
      startFolder = dialog->directory().absolutePath();
      if (auto* box = dialog->findChild<QLineEdit*>("fileNameEdit")) proposedName = box->text();
      if (name_.isEmpty()) {
        dialog->reject();
        return;
      }
      // What a user does: type the name into the file name box and press Enter.
      auto* nameBox = dialog->findChild<QLineEdit*>("fileNameEdit");
      if (nameBox == nullptr) {
        dialog->reject();
        return;
      }
      nameBox->setText(name_);
      QTest::keyClick(nameBox, Qt::Key_Return);
    });
    timer_.start(20);
  }
  QString startFolder;
  QString proposedName;  // what the file name box held when the dialog opened

 private:
  QString name_;
  QTimer timer_;
};

}  // namespace

class WindowUsabilityTest : public test::WindowTest {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(setUpModels({"additive", "dot"}));
    QVERIFY(folder_.isValid());
  }
  void init() { QVERIFY(showWindow("additive")); }
  void cleanup() { closeWindow(); }

  // Finding 2: the menu's shortcuts work while a text box has the focus.
  void noWindowShortcutIsATextEditingKey();
  void helpKeysListsEveryShortcut();
  void shortcutsWorkFromEveryTextBox();
  // Finding 8.
  void saveDialogsAddTheChosenTypesExtension();
  void fileDialogsStartInTheRememberedFolder();
  void aSavedModelIsWhereOpenModelLooks();
  void theCorpusDialogsDoNotProposeTheWrongFile();
  void dialogsLaunchedFromTheRootStartAtHome();
  // Seen in the new-user check: `attnscope missing.attnmodel` translated the path as words.
  void aModelArgumentIsOpenedEvenWhenMissing();
  // Finding 13.
  void aCopyNoteSaysWhatWasCopiedFromWhere();
  // Finding 14.
  void parametersReadTheSameInTheStatusBarAndModelInfo();
  void errorDialogsStartWithACapital();
  void modelBoxEntriesSayWhatTheModelIs();
  void theInputLineAndExamplesFollowTheModel();
  void eachLanguagePairHasItsModelsGridAndExamples();
  // Seen by the same new user: greedy or beam was forgotten between runs; "1 steps".
  void searchAndPlaySpeedAreRemembered();
  void oneStepIsOneStep();
  void exportSaysAtOnceWhenThereIsNothingToExport();
  // Finding 5's second half: a word-start mark is written the same way in every tab.
  void aWordStartIsWrittenTheSameInEveryHeatmap();

 private:
  QTemporaryDir folder_;  // where the dialogs' files go
};

void WindowUsabilityTest::helpKeysListsEveryShortcut() {
  const QString help = DecodingToolBar::keysHelp();
  for (QAction* action : shortcutActions(*window_)) {
    if (action->shortcut() == QKeySequence(QKeySequence::Quit)) continue;  // every app's
    QVERIFY2(help.contains("<b>" + action->shortcut().toString() + "</b>"),
             qPrintable(action->text() + " " + action->shortcut().toString()));
  }
}

void WindowUsabilityTest::noWindowShortcutIsATextEditingKey() {
  const QList<QKeySequence> editing = textEditingKeys();
  QVERIFY(!editing.isEmpty());
  for (QAction* action : shortcutActions(*window_))
    QVERIFY2(!editing.contains(action->shortcut()),
             qPrintable(action->text() + " has " + action->shortcut().toString() +
                        ", a key text boxes use for editing"));
}

void WindowUsabilityTest::shortcutsWorkFromEveryTextBox() {
  QTabWidget* tabs = window_->findChild<QTabWidget*>();
  QVERIFY(tabs != nullptr);
  const QList<QAction*> actions = shortcutActions(*window_);
  QVERIFY(actions.size() >= 5);
  // Only the signal is checked: the actions' dialogs and the window's closing stay shut.
  for (QAction* action : actions)
    QObject::disconnect(action, &QAction::triggered, nullptr, nullptr);
  window_->activateWindow();  // no window manager gives it the focus
  QVERIFY(QTest::qWaitForWindowActive(window_.get()));
  int boxes = 0;
  for (int tab = 0; tab < tabs->count(); ++tab) {
    if (!tabs->isTabEnabled(tab)) continue;
    tabs->setCurrentIndex(tab);
    QList<QWidget*> textBoxes;
    for (QWidget* w : window_->findChildren<QWidget*>())
      if ((qobject_cast<QLineEdit*>(w) != nullptr ||
           qobject_cast<QAbstractSpinBox*>(w) != nullptr ||
           qobject_cast<QPlainTextEdit*>(w) != nullptr) &&
          w->isVisible() && w->isEnabled() && w->focusPolicy() != Qt::NoFocus &&
          qobject_cast<QAbstractSpinBox*>(w->parentWidget()) == nullptr)
        textBoxes << w;
    for (QWidget* box : textBoxes) {
      box->setFocus();
      QVERIFY(QTest::qWaitFor([&] { return QApplication::focusWidget() == box; }, 2000));
      ++boxes;
      for (QAction* action : actions) {
        QSignalSpy triggered(action, &QAction::triggered);
        const QKeyCombination key = action->shortcut()[0];
        QTest::keyClick(QApplication::focusWidget(), key.key(), key.keyboardModifiers());
        QVERIFY2(triggered.count() == 1,
                 qPrintable(QString("%1 (%2) with the focus in a %3 of the %4 tab")
                                .arg(action->text(), action->shortcut().toString(),
                                     box->metaObject()->className(), tabs->tabText(tab))));
        // A shortcut that moved the focus (another tab): back to the box for the next one.
        tabs->setCurrentIndex(tab);
        box->setFocus();
      }
    }
  }
  QVERIFY(boxes >= 2);  // the input line and at least one box of another tab
}

void WindowUsabilityTest::saveDialogsAddTheChosenTypesExtension() {
  QCOMPARE(filterSuffix("attnscope models (*.attnmodel)"), QString("attnmodel"));
  QCOMPARE(filterSuffix("Small multiples (*.png *.svg *.pdf)"), QString("png"));
  QCOMPARE(filterSuffix("All files (*)"), QString());
  QCOMPARE(withFilterSuffix("/a/b/dates_model", "attnscope models (*.attnmodel)"),
           QString("/a/b/dates_model.attnmodel"));
  QCOMPARE(withFilterSuffix("/a/b/notes.v2", "attnscope models (*.attnmodel)"),
           QString("/a/b/notes.v2"));
  QCOMPARE(withFilterSuffix("/a.b/model", "All files (*)"), QString("/a.b/model"));

  // Through the dialog, as Save model in the Train tab asks.
  AppSettings().setFolderOf(AppSettings::Folder::Model, folder_.filePath("x"));
  FileDialogAnswer answer("dates_model");
  const QString path = askSavePath(window_.get(), AppSettings::Folder::Model, "Save model",
                                   "model.attnmodel", "attnscope models (*.attnmodel)");
  QCOMPARE(path, folder_.filePath("dates_model.attnmodel"));
}

void WindowUsabilityTest::fileDialogsStartInTheRememberedFolder() {
  QVERIFY(translate("a b"));  // something to export
  QAction* exportAction = window_->findChild<QAction*>("exportAction");
  QVERIFY(exportAction != nullptr);
  // File > Export, with nothing remembered yet: the working folder, never "/".
  {
    FileDialogAnswer answer("");
    exportAction->trigger();
    QCOMPARE(answer.startFolder, QDir::currentPath());
  }
  // Then where the last export went (any tab's: the Corpus tab's buttons share the folder).
  AppSettings().setFolderOf(AppSettings::Folder::Export, folder_.filePath("earlier.png"));
  {
    FileDialogAnswer answer("");
    exportAction->trigger();
    QCOMPARE(answer.startFolder, folder_.path());
  }
}

void WindowUsabilityTest::dialogsLaunchedFromTheRootStartAtHome() {
  // A desktop launcher may start the app in "/": nobody keeps their files there.
  const QString working = QDir::currentPath();
  QVERIFY(QDir::setCurrent(QDir::rootPath()));
  FileDialogAnswer answer("");
  askOpenPath(window_.get(), AppSettings::Folder::AttentionFile, "Open", "All files (*)");
  QVERIFY(QDir::setCurrent(working));
  QCOMPARE(answer.startFolder, QDir::homePath());
}

void WindowUsabilityTest::aModelArgumentIsOpenedEvenWhenMissing() {
  QVERIFY(namesModelFile("/tmp/nowhere/missing.attnmodel", 1));  // opened: "does not exist"
  QVERIFY(namesModelFile("missing.pt", 1));
  QVERIFY(namesModelFile("models/missing.pth", 3));
  QVERIFY(namesModelFile(modelPath("additive"), 4));  // a file that exists
  QVERIFY(!namesModelFile("script.pt", 4));           // a word of "I wrote script.pt today"
  QVERIFY(!namesModelFile("A dog runs.", 1));
}

void WindowUsabilityTest::aSavedModelIsWhereOpenModelLooks() {
  QDir(folder_.path()).mkpath("models");
  const QString models = folder_.filePath("models");
  AppSettings().setFolderOf(AppSettings::Folder::Model, models + "/saved.attnmodel");
  QAction* open = nullptr;
  for (QAction* action : shortcutActions(*window_))
    if (action->shortcut() == QKeySequence(QKeySequence::Open)) open = action;
  QVERIFY(open != nullptr);
  FileDialogAnswer answer("");
  open->trigger();
  QCOMPARE(answer.startFolder, models);
}

// Open reference… opened on the source file itself, so Enter made the source its own
// reference (BLEU 100); Open training target… proposed the test set's reference. Both now start
// in that file's folder with no file chosen.
void WindowUsabilityTest::theCorpusDialogsDoNotProposeTheWrongFile() {
  QDir(folder_.path()).mkpath("corpus");
  const QString source = folder_.filePath("corpus/test.en");
  const QString reference = folder_.filePath("corpus/test.de");
  for (const QString& path : {source, reference}) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("a dog .\n");
  }
  CorpusView* corpus = window_->corpusView();
  window_->tabs()->setCurrentWidget(corpus);
  corpus->setFiles(source, QString());
  const auto dialogOf = [&](const QString& button) {
    for (QPushButton* b : corpus->findChildren<QPushButton*>())
      if (b->text() == button) return b;
    return static_cast<QPushButton*>(nullptr);
  };
  QPushButton* openReference = dialogOf(QStringLiteral("Open reference…"));
  QPushButton* openTrainingTarget = dialogOf(QStringLiteral("Open training target…"));
  QVERIFY(openReference != nullptr && openTrainingTarget != nullptr);
  {
    FileDialogAnswer answer("");
    openReference->click();
    QCOMPARE(answer.startFolder, folder_.filePath("corpus"));
    QVERIFY2(answer.proposedName.isEmpty(), qPrintable(answer.proposedName));
  }
  corpus->setFiles(source, reference);
  {
    FileDialogAnswer answer("");
    openTrainingTarget->click();
    QCOMPARE(answer.startFolder, folder_.filePath("corpus"));
    QVERIFY2(answer.proposedName.isEmpty(), qPrintable(answer.proposedName));
  }
  {  // a reference chosen already: its dialog opens on it, to choose another beside it
    FileDialogAnswer answer("");
    openReference->click();
    QCOMPARE(answer.proposedName, QStringLiteral("test.de"));
  }
}

void WindowUsabilityTest::aCopyNoteSaysWhatWasCopiedFromWhere() {
  // "in der <unk> ." for "in the red zürich ." with zürich unknown: the row weighs the known
  // "red" most, Zürich is copied, and the note names both, so the pick can be checked.
  attnscope::Translation t;
  t.source.tokens = {"in", "the", "red", "zürich", ".", "</s>"};
  t.source.typed = {"in", "the", "red", "Zürich", ".", "</s>"};
  t.source.unknown = {false, false, false, true, false, false};
  t.source.kept_length = 5;
  t.tokens = {"in", "der", "<unk>", ".", "</s>"};
  t.attention = {{.9f, .02f, .02f, .02f, .02f, .02f},
                 {.02f, .9f, .02f, .02f, .02f, .02f},
                 {.02f, .02f, .6f, .3f, .06f, .02f},
                 {.02f, .02f, .02f, .02f, .9f, .02f},
                 {.02f, .02f, .02f, .02f, .02f, .9f}};
  attnscope::copy_unknown_words(t);
  QCOMPARE(int(t.copied.size()), 1);
  const QString note = copyNote(t, t.copied.front());
  QCOMPARE(note, QString("<unk> replaced by 'Zürich', the unknown source word (word 4 of 5) its "
                         "attention weighs most (0.30); the row weighs 'red' more (0.60), a word "
                         "the model knows"));
  // The translation line's link says the same.
  QVERIFY(translationHtml(t).contains("href='copied:0'"));
  QCOMPARE(unknownWordNoteOfLink(t, "copied:0"), note);
}

void WindowUsabilityTest::parametersReadTheSameInTheStatusBarAndModelInfo() {
  attnscope::ModelInfo m;
  m.config.score = "additive";
  m.parameters = 4825856;
  QCOMPARE(parameterCountText(m.parameters), QString("4,825,856"));
  QVERIFY2(modelStatusText("additive", m).contains("4,825,856 parameters"),
           qPrintable(modelStatusText("additive", m)));
  QVERIFY2(modelInfoText(m).contains("Parameters: 4,825,856\n"), qPrintable(modelInfoText(m)));
  // Figures never measured are left out, not shown as -1; a task model's is its exact matches.
  m.training.validation_bleu = -1;
  m.training.validation_accuracy = 0.995;
  const QString task = modelInfoText(m);
  QVERIFY2(!task.contains("-1") && !task.contains("Test BLEU"), qPrintable(task));
  QVERIFY2(task.endsWith("\nValidation exact match: 99.5 %"), qPrintable(task));
}

void WindowUsabilityTest::errorDialogsStartWithACapital() {
  const QString missing = folder_.filePath("missing.attnmodel");
  window_->openModelFile(missing);
  QMessageBox* box = nullptr;
  QVERIFY(QTest::qWaitFor(
      [&] {
        box = window_->findChild<QMessageBox*>();
        return box != nullptr && box->isVisible();
      },
      10000));
  QVERIFY2(box->text().contains(missing), qPrintable(box->text()));
  QVERIFY2(box->text().front().isUpper(), qPrintable(box->text()));
  box->close();
}

void WindowUsabilityTest::modelBoxEntriesSayWhatTheModelIs() {
  // Every listed model's entry, not only the chosen one's, once the headers are read.
  QComboBox* models = window_->modelBox();
  for (const QString model : {"additive", "dot"}) {
    const int entry = models->findText(model);
    QVERIFY(entry >= 0);
    QVERIFY2(
        QTest::qWaitFor(
            [&] { return !models->itemData(entry, Qt::ToolTipRole).toString().isEmpty(); }, 10000),
        qPrintable(model));
    const QString tip = models->itemData(entry, Qt::ToolTipRole).toString();
    QVERIFY2(tip.startsWith(model + " attention"), qPrintable(tip));
  }
  attnscope::ModelInfo shipped;
  shipped.config.score = "additive";
  shipped.config.source_language = "en";
  shipped.config.target_language = "de";
  shipped.training.test_bleu = 35.77;
  QCOMPARE(modelToolTip(shipped),
           QString("additive attention · English → German · test BLEU 35.8 (greedy)"));
  // The training data, without its pair count.
  shipped.training.corpus = "Multi30k + Tatoeba (214781 pairs)";
  QCOMPARE(modelToolTip(shipped), QString("additive attention · English → German · trained on "
                                          "Multi30k + Tatoeba · test BLEU 35.8 (greedy)"));
}

// The source tree's English->French models are listed beside English->German's; choosing one
// names the languages, the compare grid follows the pair, and the Examples menu leads back.
void WindowUsabilityTest::eachLanguagePairHasItsModelsGridAndExamples() {
  const QString french = QString::fromUtf8("additive (en→fr)");
  QComboBox* models = window_->modelBox();
  QTRY_VERIFY(models->findText(french) >= 0);
  QVERIFY(models->findText(QString::fromUtf8("none (en→fr)")) >= 0);
  CompareView* compare = window_->compareView();
  QVERIFY(compare->models().contains("additive"));  // the app starts on English->German
  QVERIFY(!compare->models().contains(french));
  QTRY_VERIFY2(window_->modelStatus().contains(QString::fromUtf8("English → German")),
               qPrintable(window_->modelStatus()));

  models->setCurrentText(french);
  QTRY_VERIFY2(window_->modelStatus().contains(QString::fromUtf8("English → French")),
               qPrintable(window_->modelStatus()));
  QVERIFY(compare->models().contains(french));
  for (const QString& key : compare->models())
    QVERIFY2(key.endsWith(QString::fromUtf8("(en→fr)")), qPrintable(key));
  QVERIFY2(compare->referenceEdit()->placeholderText().startsWith("French"),
           qPrintable(compare->referenceEdit()->placeholderText()));
  QVERIFY(translate("A dog runs on the beach."));
  QVERIFY2(window_->outputLabel()->text().contains("chien"),
           qPrintable(window_->outputLabel()->text()));
  // A word model's line naming the unknown words gives them as typed, as copying writes them;
  // a subword model has none (byte fallback) and writes no <unk>.
  QVERIFY(translate(QString::fromUtf8("A dog runs in Zürich.")));
  const QString line = window_->outputLabel()->text();
  const bool words = attnscope::read_model_info(attnscope::find_usable_model("additive", "en-fr"))
                         .subwords.empty();
  if (words)
    QVERIFY2(line.contains(QString::fromUtf8("(read as &lt;unk&gt;): Zürich")) &&
                 !line.contains(QString::fromUtf8("zürich")),
             qPrintable(line));
  else
    QVERIFY2(!line.contains(QStringLiteral("&lt;unk&gt;")), qPrintable(line));

  // The Examples menu: French's sentences under its heading, German's a submenu away.
  QMenu* examples = nullptr;
  for (QAction* menu : window_->menuBar()->actions())
    if (menu->text() == "E&xamples") examples = menu->menu();
  QVERIFY(examples != nullptr);
  QMenu* german = nullptr;
  QString heading;
  for (QAction* action : examples->actions()) {
    if (action->menu() != nullptr && action->text() == QString::fromUtf8("English → German"))
      german = action->menu();
    if (action->isSeparator() && heading.isEmpty()) heading = action->text();
  }
  QCOMPARE(heading, QString::fromUtf8("English → French"));
  QVERIFY(german != nullptr && !german->actions().isEmpty());
  const QString sentence = german->actions().front()->text();
  german->actions().front()->trigger();
  QTRY_COMPARE(models->currentText(), QString("additive"));  // the same score function
  QCOMPARE(window_->sourceEdit()->text(), sentence);
  QTRY_VERIFY(compare->models().contains("additive"));
  QVERIFY(!compare->models().contains(french));
}

void WindowUsabilityTest::theInputLineAndExamplesFollowTheModel() {
  QTRY_VERIFY2(window_->sourceEdit()->placeholderText().contains("English"),
               qPrintable(window_->sourceEdit()->placeholderText()));
  // A TorchScript toy that reads German and brings its own examples.
  attnscope::testing::ScriptedModuleSpec spec;
  spec.source_language = "de";
  spec.examples = {"a b c", "d e a"};
  QVERIFY(
      openModel(QString::fromStdString(attnscope::testing::write_scripted_module(spec, "toy"))));
  QVERIFY(QTest::qWaitFor(
      [&] { return window_->sourceEdit()->placeholderText().contains("German"); }, 10000));
  QMenu* examples = nullptr;
  for (QAction* menu : window_->menuBar()->actions())
    if (menu->text() == "E&xamples") examples = menu->menu();
  QVERIFY(examples != nullptr);
  QStringList offered, sections, pairs;
  for (QAction* action : examples->actions()) {
    if (action->menu() != nullptr)
      pairs << action->text();
    else if (action->isSeparator() && !action->text().isEmpty())
      sections << action->text();
    else if (action->isSeparator())
      continue;
    else
      offered << action->text();
  }
  QCOMPARE(offered, QStringList({"a b c", "d e a"}));
  // Under a heading naming what it reads.
  QVERIFY2(sections.size() == 1 && sections.front().startsWith(QString::fromUtf8("German →")),
           qPrintable(sections.join('|')));
  // The shipped pairs read English: each offers the English sentences, switching to its model.
  QVERIFY2(pairs.contains(QString::fromUtf8("English → French")), qPrintable(pairs.join('|')));

  // A task model asks for its kind of input, not for English.
  attnscope::ModelInfo task;
  task.config.score = "additive";
  task.config.source_language = "in";
  task.training.validation_accuracy = 1.0;
  task.examples = {attnscope::training_task("reverse").probe, "x y z"};
  QCOMPARE(inputPlaceholder(task),
           QString("Type an input like “a t t e n t i o n” and press Enter"));
  QCOMPARE(modelExamples(task, {"A shipped sentence."}),
           QStringList({"a t t e n t i o n", "x y z"}));
  // A model that reads French gets none of the shipped English sentences.
  attnscope::ModelInfo french;
  french.config.source_language = "fr";
  QVERIFY(modelExamples(french, {"A shipped sentence."}).isEmpty());
  QCOMPARE(inputPlaceholder(french), QString("Type a sentence in French and press Enter"));
}

void WindowUsabilityTest::searchAndPlaySpeedAreRemembered() {
  QComboBox* search = searchBox();
  QVERIFY(search != nullptr);
  search->setCurrentText("Beam");
  auto* toolBar = window_->findChild<DecodingToolBar*>();
  QVERIFY(toolBar != nullptr);
  auto* beam = toolBar->findChild<QSpinBox*>();
  QVERIFY(beam != nullptr && beam->isEnabled());
  beam->setValue(3);
  auto* speed = toolBar->findChild<QSlider*>();
  QVERIFY(speed != nullptr);
  speed->setValue(9);
  window_->close();  // as the user closes it: the choices are saved
  closeWindow();
  QVERIFY(showWindow("additive"));
  QCOMPARE(window_->findChild<DecodingToolBar*>()->beamSize(), 3);
  QCOMPARE(searchBox()->currentText(), QString("Beam"));
  QCOMPARE(window_->findChild<DecodingToolBar*>()->findChild<QSlider*>()->value(), 9);
  searchBox()->setCurrentText("Greedy");
  window_->close();
  closeWindow();
  QVERIFY(showWindow("additive"));
  QCOMPARE(window_->findChild<DecodingToolBar*>()->beamSize(), 1);
}

void WindowUsabilityTest::oneStepIsOneStep() {
  QSignalSpy shown(window_->statusBar(), &QStatusBar::messageChanged);
  window_->stepSentence("a b", 1);
  QVERIFY(settled());
  QVERIFY(QTest::qWaitFor([&] { return window_->statusBar()->currentMessage().contains("step"); },
                          5000));
  QVERIFY2(window_->statusBar()->currentMessage().endsWith("additive: 1 step"),
           qPrintable(window_->statusBar()->currentMessage()));
}

void WindowUsabilityTest::aWordStartIsWrittenTheSameInEveryHeatmap() {
  QCOMPARE(readableToken("\u2581hat", false), QString("\u2423hat"));
  QCOMPARE(readableToken("\u2581hat", true), QString("hat"));
  QCOMPARE(readableToken("\u2581", false), QString("\u2423"));
  QCOMPARE(readableToken("ol", false), QString("ol"));
  QCOMPARE(readableToken("</s>", false), QString("</s>"));
  // The Train tab's snapshot and the Translation tab's pieces view both draw through HeatmapPlot:
  // its labels carry no raw mark; the matrix (what exports write) keeps the model's tokens.
  attnscope::TrainingSnapshot snapshot;
  snapshot.source = {"\u2581a", "b", "\u2581c", "</s>"};
  snapshot.output = {"\u2581c", "\u2581b", "a", "</s>"};
  snapshot.subword_marker = "\u2581";
  snapshot.attention.assign(4, std::vector<float>(4, 0.25f));
  HeatmapPlot plot;
  plot.resize(400, 300);
  plot.setMatrix(AttentionMatrix::fromSnapshot(snapshot, "t"));
  QCOMPARE(plot.matrix().sourceTokens.front(), QString("\u2581a"));
  const auto columns = qSharedPointerCast<QCPAxisTickerText>(plot.xAxis->ticker())->ticks();
  const auto rows = qSharedPointerCast<QCPAxisTickerText>(plot.yAxis->ticker())->ticks();
  QCOMPARE(QStringList(columns.values()), QStringList({"a", "b", "\u2423c", "</s>"}));
  QCOMPARE(QStringList(rows.values()), QStringList({"c", "\u2423b", "a", "</s>"}));
}

void WindowUsabilityTest::exportSaysAtOnceWhenThereIsNothingToExport() {
  // Before: a file dialog and a size dialog, then "nothing was run yet".
  QTabWidget* tabs = window_->findChild<QTabWidget*>();
  QAction* exportAction = window_->findChild<QAction*>("exportAction");
  for (const QString tab : {"Translation", "Compare all", "Corpus", "Train"}) {
    for (int i = 0; i < tabs->count(); ++i)
      if (tabs->tabText(i) == tab) tabs->setCurrentIndex(i);
    QCOMPARE(tabs->tabText(tabs->currentIndex()), tab);
    FileDialogAnswer answer("");
    exportAction->trigger();
    QVERIFY2(answer.startFolder.isEmpty(), qPrintable(tab + ": a file dialog opened"));
    QMessageBox* box = nullptr;
    for (QMessageBox* b : window_->findChildren<QMessageBox*>())
      if (b->isVisible()) box = b;
    QVERIFY2(box != nullptr, qPrintable(tab));
    QVERIFY2(box->text().startsWith("Nothing to export yet: "), qPrintable(box->text()));
    box->close();
    QTest::qWait(0);  // the box deletes itself
  }
}

QTEST_MAIN(WindowUsabilityTest)
#include "window_usability_test.moc"
