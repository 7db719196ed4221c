// QtTest of ui/core without a window: the model info texts (status line and Help > Model info)
// as pure functions of a model's header, and the typed settings (defaults, round trips, and the
// keys earlier versions wrote, so a user's settings carry over), the what-if line's word diff, and
// Help > About's text.
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "core/about_text.h"
#include "core/app_settings.h"
#include "core/model_info_text.h"
#include "core/what_if_text.h"

using namespace attnscope;
using namespace attnscope::ui;

class CoreTextTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void statusLineOfAShippedModel();
  void statusLineOfATorchScriptModelAndTheBaseline();
  void infoTextNamesEveryFieldAndKeepsPercentSignsOfTheFile();
  void infoTextOfATorchScriptModel();
  void settingsHaveDefaultsAndRoundTrip();
  void settingsKeepTheKeysEarlierVersionsWrote();
  void wordDiffMarksAddedAndDroppedWords();
  void aboutTextNamesTheVersionsAndTheLicence();

 private:
  QTemporaryDir settingsDir_;
};

namespace {

ModelInfo shippedAdditive() {
  ModelInfo m;
  m.path = "/models/additive.attnmodel";
  m.name = "additive";
  m.config.score = "additive";
  m.config.source_vocab = 8000;
  m.config.target_vocab = 9000;
  m.config.embedding = 192;
  m.config.hidden = 256;
  m.parameters = 12'345'678;
  m.file_bytes = 25'000'000;
  m.training.corpus = "multi30k train (29000 pairs)";
  m.training.epochs = 12;
  m.training.best_epoch = 9;
  m.training.seconds = 1800;
  m.training.validation_bleu = 36.123;
  m.training.test_bleu = 35.77;
  m.training.test_bleu_beam5 = 36.44;
  m.training.test_corpus = "test_2016_flickr";
  return m;
}

ModelInfo torchScriptModule() {
  ModelInfo m;
  m.format = "torchscript";
  m.name = "MyTransformer";
  m.path = "/tmp/mine.pt";
  m.config.score.clear();
  m.config.source_language.clear();
  m.attention_layers = 6;
  m.attention_heads = 8;
  m.subword_marker = "@@";
  m.tokenizer = "whitespace";
  m.parameters = 4321;
  return m;
}

}  // namespace

void CoreTextTest::initTestCase() {
  QVERIFY(settingsDir_.isValid());
  QStandardPaths::setTestModeEnabled(true);
  QSettings::setDefaultFormat(QSettings::IniFormat);
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir_.path());
  QCoreApplication::setOrganizationName("attnscope-core-text-test");
  QCoreApplication::setApplicationName("attnscope-core-text-test");
}

void CoreTextTest::statusLineOfAShippedModel() {
  QCOMPARE(modelStatusText("additive", shippedAdditive()),
           QString("additive · 12,345,678 parameters, test BLEU 35.8"));
  // A model listed under another key names its score function too.
  QCOMPARE(modelStatusText("mine", shippedAdditive()),
           QString("mine (additive) · 12,345,678 parameters, test BLEU 35.8"));
  ModelInfo untested = shippedAdditive();
  untested.training.test_bleu = -1;
  QCOMPARE(modelStatusText("additive", untested), QString("additive · 12,345,678 parameters"));
}

void CoreTextTest::statusLineOfATorchScriptModelAndTheBaseline() {
  // A toy module's few thousand parameters are counted, not rounded to "0.0M".
  QCOMPARE(modelStatusText("mine", torchScriptModule()),
           QString("mine (MyTransformer) · 4,321 parameters · TorchScript, 6 layer(s) × 8 "
                   "head(s), subwords"));
  ModelInfo none = shippedAdditive();
  none.config.score = "none";
  none.has_attention = false;
  QCOMPARE(modelStatusText("none", none),
           QString("none · 12,345,678 parameters, test BLEU 35.8 · no attention (baseline)"));
}

void CoreTextTest::infoTextNamesEveryFieldAndKeepsPercentSignsOfTheFile() {
  ModelInfo m = shippedAdditive();
  m.training.corpus = "my %9 corpus";  // the file's own text: never a placeholder
  const QString text = modelInfoText(m);
  QCOMPARE(text, QString("Score function: additive\nLanguages: en → de\nEmbedding 192, hidden "
                         "256, vocabularies 8000 / 9000\nParameters: 12,345,678\nFile: "
                         "/models/additive.attnmodel (25.0 MB)\nTrained on: my %9 corpus, 12 "
                         "epochs (best: 9), 30 min\nValidation BLEU: 36.12\nTest BLEU "
                         "(test_2016_flickr): greedy 35.77, beam 5 36.44"));
  m.subwords = "sentencepiece";
  QVERIFY2(modelInfoText(m).contains("9000 SentencePiece pieces (a subword model)"),
           qPrintable(modelInfoText(m)));
}

void CoreTextTest::infoTextOfATorchScriptModel() {
  QCOMPARE(modelInfoText(torchScriptModule()),
           QString("TorchScript model (docs/model-protocol.md): MyTransformer\nLanguages: not "
                   "given → de\nVocabularies: 0 source / 0 target tokens, tokenizer "
                   "'whitespace', subword pieces marked '@@'\nAttention: 6 layer(s) × 8 "
                   "head(s)\nParameters: 4,321\nFile: /tmp/mine.pt (0.0 MB)"));
}

void CoreTextTest::settingsHaveDefaultsAndRoundTrip() {
  QSettings().clear();
  AppSettings settings;
  QCOMPARE(settings.score(), QString("additive"));
  QCOMPARE(settings.colormap(), QString("viridis"));
  QCOMPARE(settings.copyUnknownWords(), true);
  QCOMPARE(settings.showValues(), false);
  QCOMPARE(settings.trainTask(), QString("reverse"));
  QCOMPARE(settings.attentionFile().line, 1);

  settings.setScore("cosine");
  settings.setHistory({"one", "two"});
  settings.setFolderOf(AppSettings::Folder::Model, "/some/folder/model.attnmodel");
  AppSettings::AttentionFileChoice choice;
  choice.path = "/a/b.json";
  choice.format = "pharaoh";
  choice.line = 7;
  choice.oneBased = true;
  settings.setAttentionFile(choice);
  settings.setCorpusFiles("/t/test.en", "/t/test.de");

  const AppSettings again;  // another object reads what the first wrote
  QCOMPARE(again.score(), QString("cosine"));
  QCOMPARE(again.history(), QStringList({"one", "two"}));
  QCOMPARE(again.folder(AppSettings::Folder::Model), QString("/some/folder"));
  QCOMPARE(again.folder(AppSettings::Folder::Export), QString());
  QCOMPARE(again.attentionFile().path, QString("/a/b.json"));
  QCOMPARE(again.attentionFile().format, QString("pharaoh"));
  QCOMPARE(again.attentionFile().line, 7);
  QCOMPARE(again.attentionFile().oneBased, true);
  QCOMPARE(again.corpusSource(), QString("/t/test.en"));
  QCOMPARE(again.corpusReference(), QString("/t/test.de"));
}

void CoreTextTest::settingsKeepTheKeysEarlierVersionsWrote() {
  QSettings().clear();
  {
    QSettings old;  // as versions before AppSettings wrote them
    old.setValue("score", "general");
    old.setValue("copyUnknownWords", false);
    old.setValue("exportFolder", "/exports");
    old.setValue("attentionFile/line", 3);
    old.setValue("train/corpusFiles", QStringList{"a", "b", "c", "d"});
  }
  const AppSettings settings;
  QCOMPARE(settings.score(), QString("general"));
  QCOMPARE(settings.copyUnknownWords(), false);
  QCOMPARE(settings.folder(AppSettings::Folder::Export), QString("/exports"));
  QCOMPARE(settings.attentionFile().line, 3);
  QCOMPARE(settings.trainCorpusFiles(), QStringList({"a", "b", "c", "d"}));
}

void CoreTextTest::wordDiffMarksAddedAndDroppedWords() {
  using Kind = WordChange::Kind;
  const auto words = [](const char* text) {
    return QString::fromUtf8(text).split(' ', Qt::SkipEmptyParts);
  };
  // A dropped word is shown where it was, and is a change.
  QCOMPARE(wordDiff(words("ein Hund läuft schnell"), words("ein Hund läuft")),
           (QVector<WordChange>{{Kind::kSame, "ein"},
                                {Kind::kSame, "Hund"},
                                {Kind::kSame, "läuft"},
                                {Kind::kDropped, "schnell"}}));
  // A replaced word: the original struck through, then what replaced it.
  QCOMPARE(
      wordDiff(words("a b c"), words("a x c")),
      (QVector<WordChange>{
          {Kind::kSame, "a"}, {Kind::kDropped, "b"}, {Kind::kAdded, "x"}, {Kind::kSame, "c"}}));
  // One word more marks that word only.
  QCOMPARE(wordDiff(words("a b c"), words("z a b c")),
           (QVector<WordChange>{
               {Kind::kAdded, "z"}, {Kind::kSame, "a"}, {Kind::kSame, "b"}, {Kind::kSame, "c"}}));
  QCOMPARE(wordDiff({}, words("a")), (QVector<WordChange>{{Kind::kAdded, "a"}}));
  QCOMPARE(wordDiff(words("a"), {}), (QVector<WordChange>{{Kind::kDropped, "a"}}));
  const QString html = whatIfHtml(wordDiff(words("a <b> c"), words("a x")));
  QCOMPARE(html, QString("a <s style='color:gray'>&lt;b&gt;</s> <s style='color:gray'>c</s> "
                         "<b style='color:%1'>x</b>")
                     .arg(kEditedColour));
  // The legend never calls a dropped word "no change".
  QVERIFY(whatIfLegend({0, 0}).contains("changed no word"));
  QVERIFY(!whatIfLegend({0, 1}).contains("changed no word"));
  QVERIFY(whatIfLegend({0, 1}).contains("1 word of the model's own is dropped"));
  QVERIFY(whatIfLegend({2, 1}).contains("2 words in"));
}

// Help > About: what a bug report needs, and the licence the package declares.
void CoreTextTest::aboutTextNamesTheVersionsAndTheLicence() {
  const QString text = aboutText(QStringLiteral("9.8.7"));
  QVERIFY2(text.contains(QStringLiteral("attnscope 9.8.7")), qPrintable(text));
  QVERIFY2(text.contains(QStringLiteral("Qt ") + QString::fromLatin1(qVersion())),
           qPrintable(text));
  QVERIFY2(text.contains(QRegularExpression(QStringLiteral("LibTorch \\d+\\.\\d+"))),
           qPrintable(text));
  QVERIFY2(text.contains(QStringLiteral("GPL-3.0-or-later")), qPrintable(text));
}

QTEST_GUILESS_MAIN(CoreTextTest)
#include "core_text_test.moc"
