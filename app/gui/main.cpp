// attnscope: the desktop app. `attnscope "A sentence."` starts with it translated;
// `attnscope model.attnmodel` opens that model too; `attnscope --open FILE` shows an attention
// file another tool wrote; `attnscope --corpus test.en --corpus-ref test.de` measures a test set
// in the Corpus tab.
#include <QApplication>
#include <QCommandLineParser>
#include <cstdio>
#include <cstring>

#include "attnscope/cpu_dispatch.h"
#include "attnscope/model_catalog.h"
#include "attnscope/thread_settings.h"
#include "core/start_arguments.h"
#include "window/main_window.h"

int main(int argc, char** argv) {
  // Before QApplication, which needs a display: `attnscope --version` also answers over ssh or in
  // a package's build (what the parser below would print, as attnscope-cli --version does).
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--version") == 0 || std::strcmp(argv[i], "-v") == 0) {
      std::printf("attnscope %s\n", ATTNSCOPE_VERSION);
      return 0;
    }
  if (const std::string problem = attnscope::kernel_isa_environment_problem(); !problem.empty())
    std::fprintf(stderr, "attnscope: warning: %s: using the CPU's best\n", problem.c_str());
  attnscope::keep_large_blocks_for_reuse();
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("attnscope"));
  QApplication::setApplicationName(QStringLiteral("attnscope"));
  QApplication::setApplicationVersion(QStringLiteral(ATTNSCOPE_VERSION));
  QApplication::setWindowIcon(QIcon(QStringLiteral(":/attnscope.svg")));

  QCommandLineParser parser;
  parser.setApplicationDescription(
      QStringLiteral("Explore attention in neural machine translation."));
  parser.addHelpOption();
  parser.addVersionOption();
  const QCommandLineOption compareOption(QStringLiteral("compare"),
                                         QStringLiteral("start in the compare view"));
  const QCommandLineOption stepOption(QStringLiteral("step"),
                                      QStringLiteral("start in step mode after N decoding steps"),
                                      QStringLiteral("N"));
  const QCommandLineOption scoreOption(QStringLiteral("score"),
                                       QStringLiteral("start with this score function"),
                                       QStringLiteral("NAME"));
  const QCommandLineOption pairOption(
      QStringLiteral("pair"),
      QStringLiteral("start with a shipped model of this language pair, as en-fr (--score's, "
                     "else its additive)"),
      QStringLiteral("PAIR"));
  const QCommandLineOption modelOption(
      QStringLiteral("model"),
      QStringLiteral(
          "open this model file (.attnmodel, or a TorchScript module) and start with it"),
      QStringLiteral("FILE"));
  const QCommandLineOption openOption(
      QStringLiteral("open"),
      QStringLiteral("show an attention file (attnscope JSON/CSV, translate --json, Pharaoh, "
                     "Marian soft alignment)"),
      QStringLiteral("FILE"));
  const QCommandLineOption formatOption(QStringLiteral("format"),
                                        QStringLiteral("its format: json, csv, pharaoh or marian"),
                                        QStringLiteral("NAME"));
  const QCommandLineOption srcOption(QStringLiteral("src"),
                                     QStringLiteral("source sentences (Pharaoh, Marian)"),
                                     QStringLiteral("FILE"));
  const QCommandLineOption tgtOption(
      QStringLiteral("tgt"), QStringLiteral("target sentences (Pharaoh)"), QStringLiteral("FILE"));
  const QCommandLineOption srcTextOption(QStringLiteral("src-text"),
                                         QStringLiteral("the source sentence itself (Marian)"),
                                         QStringLiteral("SENTENCE"));
  const QCommandLineOption lineOption(QStringLiteral("line"),
                                      QStringLiteral("the sentence pair to show, from 1"),
                                      QStringLiteral("N"));
  const QCommandLineOption oneBasedOption(QStringLiteral("one-based"),
                                          QStringLiteral("Pharaoh indices start at 1"));
  const QCommandLineOption corpusOption(
      QStringLiteral("corpus"),
      QStringLiteral("run every model on these source sentences in the Corpus tab"),
      QStringLiteral("FILE"));
  const QCommandLineOption corpusReferenceOption(
      QStringLiteral("corpus-ref"), QStringLiteral("their reference translations, for BLEU"),
      QStringLiteral("FILE"));
  parser.addOptions({compareOption, stepOption, scoreOption, pairOption, modelOption, openOption,
                     formatOption, srcOption, tgtOption, srcTextOption, lineOption, oneBasedOption,
                     corpusOption, corpusReferenceOption});
  parser.addPositionalArgument(
      QStringLiteral("sentence"),
      QStringLiteral("an English sentence to translate at start, or a model file to open "
                     "(.attnmodel, .pt, .pth)"));
  parser.process(app);

  // Checked before the window opens, like the parser's own errors.
  attnscope::AttentionFileOptions fileOptions;
  if (parser.isSet(formatOption)) {
    fileOptions.format =
        attnscope::attention_format_from_name(parser.value(formatOption).toStdString());
    if (!fileOptions.format) {
      fprintf(stderr, "attnscope: --format must be json, csv, pharaoh or marian\n");
      return 2;
    }
  }
  const std::string pair = parser.isSet(pairOption) ? parser.value(pairOption).toStdString()
                                                    : attnscope::kDefaultLanguagePair;
  if (!attnscope::is_language_pair(pair)) {
    fprintf(stderr, "attnscope: --pair '%s' is not a language pair such as en-fr\n", pair.c_str());
    return 2;
  }
  fileOptions.source_path = parser.value(srcOption).toStdString();
  fileOptions.target_path = parser.value(tgtOption).toStdString();
  fileOptions.source_text = parser.value(srcTextOption).toStdString();
  // Not a number gives 0, which the reader refuses with a message box.
  if (parser.isSet(lineOption)) fileOptions.line = parser.value(lineOption).toULongLong();
  fileOptions.one_based = parser.isSet(oneBasedOption);

  attnscope::ui::MainWindow window;  // at last run's size, or one that fits the screen
  window.show();
  if (parser.isSet(modelOption)) window.openModelFile(parser.value(modelOption));
  QStringList words;
  const QStringList arguments = parser.positionalArguments();
  for (const QString& argument : arguments) {
    if (attnscope::ui::namesModelFile(argument, arguments.size()))
      window.openModelFile(argument);
    else
      words << argument;
  }
  if (parser.isSet(scoreOption) || parser.isSet(pairOption)) {
    const std::string score =
        parser.isSet(scoreOption) ? parser.value(scoreOption).toStdString() : "additive";
    window.selectModel(QString::fromStdString(attnscope::shipped_model_name(score, pair)));
  }
  if (parser.isSet(compareOption)) window.showCompare(true);
  if (parser.isSet(openOption)) window.openAttentionFile(parser.value(openOption), fileOptions);
  if (parser.isSet(corpusOption))
    window.runCorpus(parser.value(corpusOption), parser.value(corpusReferenceOption));
  const QString sentence = words.join(QLatin1Char(' '));
  if (!sentence.isEmpty() && parser.isSet(stepOption))
    window.stepSentence(sentence, std::max(0, parser.value(stepOption).toInt()));
  else if (!sentence.isEmpty())
    window.translateSentence(sentence);
  return app.exec();
}
