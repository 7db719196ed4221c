// attnscope: the desktop app. `attnscope "A sentence."` starts with it translated;
// `attnscope model.attnmodel` opens that model too.
#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>

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
  const QCommandLineOption modelOption(
      QStringLiteral("model"),
      QStringLiteral(
          "open this model file (.attnmodel, or a TorchScript module) and start with it"),
      QStringLiteral("FILE"));
  parser.addOptions({compareOption, stepOption, scoreOption, modelOption});
  parser.addPositionalArgument(
      QStringLiteral("sentence"),
      QStringLiteral("an English sentence to translate at start, or a model file to open "
                     "(.attnmodel, .pt, .pth)"));
  parser.process(app);

  attnscope::ui::MainWindow window;
  window.resize(1280, 800);
  window.show();
  if (parser.isSet(modelOption)) window.openModelFile(parser.value(modelOption));
  QStringList words;
  for (const QString& argument : parser.positionalArguments()) {
    const bool modelFile = argument.endsWith(QStringLiteral(".attnmodel")) ||
                           argument.endsWith(QStringLiteral(".pt")) ||
                           argument.endsWith(QStringLiteral(".pth"));
    if (modelFile && QFileInfo(argument).isFile())
      window.openModelFile(argument);
    else
      words << argument;
  }
  if (parser.isSet(scoreOption)) window.selectModel(parser.value(scoreOption));
  if (parser.isSet(compareOption)) window.showCompare(true);
  const QString sentence = words.join(QLatin1Char(' '));
  if (!sentence.isEmpty() && parser.isSet(stepOption))
    window.stepSentence(sentence, std::max(0, parser.value(stepOption).toInt()));
  else if (!sentence.isEmpty())
    window.translateSentence(sentence);
  return app.exec();
}
