// attnscope: the desktop app. `attnscope "A sentence."` starts with it translated;
// `attnscope model.attnmodel` opens that model too.
#include <attnscope/translator.h>

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
  parser.setApplicationDescription(QStringLiteral("Explore attention in neural machine translation."));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(QStringLiteral("sentence"),
                               QStringLiteral("an English sentence to translate at start, or a .attnmodel file to open"));
  parser.process(app);

  attnscope::set_thread_count(0);  // Debian's libtorch would otherwise decode on one core
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
  if (!words.isEmpty()) window.translateSentence(words.join(QLatin1Char(' ')));
  return app.exec();
}
