// attnscope: the desktop app. `attnscope "A sentence."` starts with it translated;
// `attnscope model.attnmodel` opens that model too; `attnscope --open FILE` shows an attention
// file another tool wrote.
#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <cstdio>

#include "main_window.h"

int main(int argc, char** argv) {
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
  const QCommandLineOption lineOption(QStringLiteral("line"),
                                      QStringLiteral("the sentence pair to show, from 1"),
                                      QStringLiteral("N"));
  const QCommandLineOption oneBasedOption(QStringLiteral("one-based"),
                                          QStringLiteral("Pharaoh indices start at 1"));
  parser.addOptions({compareOption, stepOption, scoreOption, openOption, formatOption, srcOption,
                     tgtOption, lineOption, oneBasedOption});
  parser.addPositionalArgument(
      QStringLiteral("sentence"),
      QStringLiteral("an English sentence to translate at start, or a .attnmodel file to open"));
  parser.process(app);

  attnscope::ui::MainWindow window;
  window.resize(1280, 800);
  window.show();
  QStringList words;
  for (const QString& argument : parser.positionalArguments()) {
    if (argument.endsWith(QStringLiteral(".attnmodel")) && QFileInfo(argument).isFile())
      window.openModelFile(argument);
    else
      words << argument;
  }
  if (parser.isSet(scoreOption)) window.selectModel(parser.value(scoreOption));
  if (parser.isSet(compareOption)) window.showCompare(true);
  if (parser.isSet(openOption)) {
    attnscope::AttentionFileOptions options;
    if (parser.isSet(formatOption)) {
      options.format =
          attnscope::attention_format_from_name(parser.value(formatOption).toStdString());
      if (!options.format) {
        fprintf(stderr, "attnscope: --format must be json, csv, pharaoh or marian\n");
        return 2;
      }
    }
    options.source_path = parser.value(srcOption).toStdString();
    options.target_path = parser.value(tgtOption).toStdString();
    // 0 (not a number) is refused by the reader with a message.
    if (parser.isSet(lineOption)) options.line = parser.value(lineOption).toULongLong();
    options.one_based = parser.isSet(oneBasedOption);
    window.openAttentionFile(parser.value(openOption), options);
  }
  const QString sentence = words.join(QLatin1Char(' '));
  if (!sentence.isEmpty() && parser.isSet(stepOption))
    window.stepSentence(sentence, std::max(0, parser.value(stepOption).toInt()));
  else if (!sentence.isEmpty())
    window.translateSentence(sentence);
  return app.exec();
}
