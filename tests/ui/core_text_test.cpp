// QtTest of ui/core without a window: the model info texts (status line and Help > Model info)
// as pure functions of a model's header, and the typed settings (defaults, round trips, and the
// keys earlier versions wrote, so a user's settings carry over), the what-if line's word diff, and
// Help > About's text.
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <stdexcept>

#include "core/about_text.h"
#include "core/app_settings.h"
#include "core/attribution_matrix.h"
#include "core/beam_node_view.h"
#include "core/corpus_pace.h"
#include "core/model_info_text.h"
#include "core/score_text.h"
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
  void firstStepsCutsEveryRowOfAHypothesis();
  void aBeamNodesStepHasItsSiblingsAsCandidates();
  void integratedGradientsTitleSaysWhenTheTimeLimitStoppedIt();
  void scoresThatDifferAreWrittenDifferently();
  void anAttributionMarksCopiedWordsAsAttentionDoes();
  void aCorpusRunsTimeIsEstimatedFromThePace();

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
           QString("additive · English → German · 12,345,678 parameters, test BLEU 35.8"));
  // A model listed under another key names its score function too.
  QCOMPARE(modelStatusText("mine", shippedAdditive()),
           QString("mine (additive) · English → German · 12,345,678 parameters, test BLEU 35.8"));
  ModelInfo untested = shippedAdditive();
  untested.training.test_bleu = -1;
  QCOMPARE(modelStatusText("additive", untested),
           QString("additive · English → German · 12,345,678 parameters"));
  // Another pair's shipped model is listed with its pair, and the line names the languages.
  ModelInfo french = shippedAdditive();
  french.config.target_language = "fr";
  QCOMPARE(modelStatusText(QString::fromUtf8("additive (en→fr)"), french),
           QString("additive (en→fr) · English → French · 12,345,678 parameters, test BLEU 35.8"));
  QCOMPARE(languagePairText("en-fr"), QString("English → French"));
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
           QString("none · English → German · 12,345,678 parameters, test BLEU 35.8 · no "
                   "attention (baseline)"));
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
  QVERIFY(!modelInfoText(m).contains("Decoder"));  // the plain GRU: nothing to say
  m.config.decoder = "cgru";
  QVERIFY2(modelInfoText(m).contains(
               "min\nDecoder: conditional GRU (attention queried between two GRUs)\nValidation"),
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
  QCOMPARE(settings.lengthPenalty(), -1.0);  // off: scores divided by the length, as before
  QCOMPARE(settings.coveragePenalty(), 0.0);
  QCOMPARE(settings.showPruned(), true);

  settings.setScore("cosine");
  settings.setLengthPenalty(0.6);
  settings.setCoveragePenalty(0.2);
  settings.setShowPruned(false);
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
  QCOMPARE(again.lengthPenalty(), 0.6);
  QCOMPARE(again.coveragePenalty(), 0.2);
  QCOMPARE(again.showPruned(), false);
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
  // The run-time choice a speed report needs: the kernels' path and `auto`'s precision.
  QVERIFY2(text.contains(QRegularExpression(QStringLiteral("Kernels: (avx512|avx2|portable)"))),
           qPrintable(text));
  QVERIFY2(text.contains(QRegularExpression(QStringLiteral("products: (bf16|fp32)"))),
           qPrintable(text));
  // The training data's licence (CC BY 2.0 FR) asks for credit wherever a model trained on it is.
  for (const char* credit : {"tatoeba.org", "manythings.org/anki", "CC BY 2.0 FR", "Multi30k"})
    QVERIFY2(text.contains(QLatin1String(credit)), qPrintable(text));
}

void CoreTextTest::firstStepsCutsEveryRowOfAHypothesis() {
  Translation t;
  t.source.tokens = {"a", "b", "</s>"};
  t.tokens = {"x", "<unk>", "z", "</s>"};
  t.probabilities = {0.5f, 0.4f, 0.3f, 0.2f};
  t.attention = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, 1}};
  t.head_attention.resize(4);
  t.copied = {CopiedWord{1, 1, 1.0f, 1, 1.0f}};
  t.kept_unknown = {KeptUnknown{}};
  t.kept_unknown[0].target = 1;
  const Translation two = firstSteps(t, 2);
  QCOMPARE(two.tokens, (std::vector<std::string>{"x", "<unk>"}));
  QCOMPARE(two.probabilities.size(), size_t{2});
  QCOMPARE(two.attention.size(), size_t{2});
  QCOMPARE(two.head_attention.size(), size_t{2});
  QCOMPARE(two.copied.size(), size_t{1});  // step 1 is among the two
  QCOMPARE(two.source.tokens, t.source.tokens);
  const Translation one = firstSteps(t, 1);
  QVERIFY(one.copied.empty());  // its copied word was at step 1, cut
  QVERIFY(one.kept_unknown.empty());
  QCOMPARE(two.kept_unknown.size(), size_t{1});
  QCOMPARE(firstSteps(t, 0).tokens.size(), size_t{0});
  QCOMPARE(firstSteps(t, -1).tokens, t.tokens);
  QCOMPARE(firstSteps(t, 9).tokens, t.tokens);
}

void CoreTextTest::aBeamNodesStepHasItsSiblingsAsCandidates() {
  BeamTree tree;
  tree.beam_size = 2;
  const auto add = [&tree](int parent, int step, const char* token, float logp,
                           BeamNode::State state) {
    BeamNode n;
    n.id = static_cast<int>(tree.nodes.size());
    n.parent = parent;
    n.step = step;
    n.token = token;
    n.token_id = n.id;
    n.logp = logp;
    n.state = state;
    tree.nodes.push_back(n);
  };
  add(-1, 0, "<s>", 0, BeamNode::State::kRoot);
  add(0, 1, "a", std::log(0.2f), BeamNode::State::kKept);
  add(0, 1, "b", std::log(0.7f), BeamNode::State::kKept);
  add(2, 2, "c", std::log(0.1f), BeamNode::State::kPruned);
  add(2, 2, "d", std::log(0.6f), BeamNode::State::kKept);
  add(2, 2, "e", std::log(0.3f), BeamNode::State::kPruned);
  tree.best = {0, 2, 4};
  Translation t;
  t.tokens = {"b", "c"};
  t.attention = {{0.5f, 0.5f}, {0.9f, 0.1f}};
  const Step step = beamNodeStep(tree, 3, t);
  QCOMPARE(step.token, std::string("c"));
  QVERIFY(qAbs(step.probability - 0.1f) < 1e-6);
  QCOMPARE(step.attention, t.attention[1]);  // the node's own row: its step's
  QCOMPARE(step.candidates.size(), size_t{3});
  QCOMPARE(step.candidates[0].token, std::string("d"));  // most probable first
  QCOMPARE(step.candidates[1].token, std::string("e"));
  QCOMPARE(step.candidates[2].token, std::string("c"));
  QVERIFY(isOnBestPath(tree, 4));
  QVERIFY(!isOnBestPath(tree, 3));
  QVERIFY(beamNodeCaption(tree, 3).contains("step 2 of 2, pruned"));
  QVERIFY_THROWS_EXCEPTION(std::out_of_range, beamNodeStep(tree, 0, t));
  QVERIFY_THROWS_EXCEPTION(std::out_of_range, beamNodeStep(tree, 6, t));
}

// The title gives the steps and the relative gap, and says when the app's time limit, not the
// 1% target, ended the refining: a large gap is then no property of the model.
void CoreTextTest::integratedGradientsTitleSaysWhenTheTimeLimitStoppedIt() {
  Attribution a;
  a.method = AttributionMethod::kIntegratedGradients;
  a.ig_steps = 32;
  a.values = {{0.25f, 0.25f}};  // sums to 0.5 of log p − baseline log p = 1
  a.log_probabilities = {-0.1f};
  a.baseline_log_probabilities = {-1.1f};
  QCOMPARE(attributionTitle(a), QString("integrated gradients (32 steps, gap 50.0%)"));
  a.ig_cut_short = true;
  QCOMPARE(attributionTitle(a),
           QString("integrated gradients (32 steps, gap 50.0%)\ngap above 1%: refining stopped "
                   "(time limit, or you moved on)"));
  QCOMPARE(attributionTitle(a, /*refining=*/true),
           QString("integrated gradients (32 steps, gap 50.0%)\ngap above 1%: refining…"));
  a.method = AttributionMethod::kLeaveOneOut;
  QCOMPARE(attributionTitle(a), QString("leave one out"));
}

void CoreTextTest::scoresThatDifferAreWrittenDifferently() {
  // Three decimals when they tell the scores apart.
  QCOMPARE(distinctScoreTexts({-0.5, -1.25}), (QStringList{"-0.500", "-1.250"}));
  // Two hypotheses that tie at three decimals get as many as tell them apart...
  QCOMPARE(distinctScoreTexts({-0.19112, -0.19149, -2.0}),
           (QStringList{"-0.1911", "-0.1915", "-2.0000"}));
  // ...equal scores stay equal without asking for more...
  QCOMPARE(distinctScoreTexts({-0.25, -0.25}), (QStringList{"-0.250", "-0.250"}));
  // ...and six decimals is the most: a difference below that is a tie in all that matters.
  const QStringList close = distinctScoreTexts({-1.0, -1.0 - 1e-9});
  QCOMPARE(close, (QStringList{"-1.000000", "-1.000000"}));
  QVERIFY(distinctScoreTexts({}).isEmpty());
  QCOMPARE(distinctScoreTexts({std::nan(""), -1.0}).size(), 2);
}

// Beside attention, "Angela (copied)" in the attention plot was a plain "Angela" in the
// attribution plot, as if the model had written the name.
void CoreTextTest::anAttributionMarksCopiedWordsAsAttentionDoes() {
  Attribution a;
  a.method = AttributionMethod::kLeaveOneOut;
  a.translation.source.tokens = {"angela", "drinks", "</s>"};
  a.translation.tokens = {"Angela", "trinkt", "</s>"};
  a.translation.copied = {{0, 0, 0.9f, 0, 0.9f}};
  a.translation.attention = {{0.9f, 0.05f, 0.05f}, {0.1f, 0.8f, 0.1f}, {0.0f, 0.0f, 1.0f}};
  a.values = {{2.0f, 0.5f, 0.1f}, {0.2f, 1.5f, 0.1f}, {0.0f, 0.1f, 0.3f}};
  const AttentionMatrix m = attributionMatrix(a, -1, AttentionView{});
  QCOMPARE(m.rows(), 3);
  QVERIFY(m.isCopied(0));
  QCOMPARE(m.copiedFrom[0], 0);
  QVERIFY(!m.isCopied(1));
  QVERIFY2(m.copyNotes.value(0).contains("angela"), qPrintable(m.copyNotes.value(0)));
  // Cut to the steps shown, the copy goes with its row.
  QVERIFY(!attributionMatrix(a, 0, AttentionView{}).isCopied(0));
  QVERIFY(attributionMatrix(a, 1, AttentionView{}).isCopied(0));
}

// A run's time from the pace: faithfulness weighs as much as it costs; durations as read.
void CoreTextTest::aCorpusRunsTimeIsEstimatedFromThePace() {
  CorpusPace pace;
  pace.decodeSeconds = 0.01;
  pace.faithfulnessSeconds = 0.5;
  QCOMPARE(pace.faithfulnessUnits(), 50);
  QCOMPARE(pace.runSeconds(1000, 3, false), 30.0);
  QCOMPARE(pace.runSeconds(1000, 3, true), 1530.0);
  QCOMPARE(pace.measured(true, 0.25).faithfulnessSeconds, 0.25);
  QCOMPARE(pace.measured(false, std::nan("")).decodeSeconds, 0.01);  // no pace from nonsense
  QCOMPARE(pace.measured(false, -1.0).decodeSeconds, 0.01);
  pace.faithfulnessSeconds = 0.0;
  QCOMPARE(pace.faithfulnessUnits(), 1);  // never a free test
  QCOMPARE(durationText(10), QString("under a minute"));
  QCOMPARE(durationText(1530), QString("about 26 min"));
  QCOMPARE(durationText(4800), QString("about 1 h 20 min"));
  QCOMPARE(durationText(std::nan("")), QString("under a minute"));
  QCOMPARE(runSizeText(1, 1), QString("1 sentence × 1 model"));
  QCOMPARE(runSizeText(30, 2), QString("30 sentences × 2 models"));
}

QTEST_GUILESS_MAIN(CoreTextTest)
#include "core_text_test.moc"
