// Speed of the desktop app with the shipped models, as a user feels it:
//   start-up      process start → window shown and processing events
//   first result  process start → first heatmap (includes loading the model)
//   translate     Enter → decoded and redrawn heatmap, 20-token sentence, models loaded
//   compare       request → the heatmaps of all shipped models decoded and redrawn
//   corpus        (with SOURCE and REFERENCE files) Run → the Corpus tab's plot and tables of
//                 every shipped model on them, drawn
// Usage: attnscope-gui-bench [REPEATS [SOURCE REFERENCE]]. Prints one JSON line. Run under
// xvfb-run or with QT_QPA_PLATFORM=offscreen.
#include <attnscope/model_catalog.h>
#include <attnscope/translator.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <algorithm>
#include <cstdio>
#include <vector>

#include "plots/heatmap_plot.h"
#include "tabs/compare_view.h"
#include "tabs/corpus_view.h"
#include "window/main_window.h"

namespace {

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? 0.0 : values[values.size() / 2];
}

const char* kSentence =
    "A man in a blue shirt and a woman in a red dress are walking down the street with two dogs .";

}  // namespace

int main(int argc, char** argv) {
  QElapsedTimer clock;
  clock.start();
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("attnscope-bench"));
  attnscope::set_thread_count(1);  // as the app's engine thread does
  const int repeats = argc > 1 ? std::max(1, atoi(argv[1])) : 20;
  attnscope::ui::MainWindow window;
  window.resize(1280, 800);
  window.show();
  if (!QTest::qWaitForWindowExposed(&window)) return 1;
  QApplication::processEvents();
  const double startup_ms = clock.nsecsElapsed() / 1e6;

  QSignalSpy updated(&window, &attnscope::ui::MainWindow::heatmapUpdated);
  window.translateSentence(QString::fromUtf8(kSentence));
  if (!updated.wait(30000)) return 2;
  const double first_result_ms = clock.nsecsElapsed() / 1e6;
  const int target_tokens = window.heatmap()->matrix().rows();

  std::vector<double> translate;
  for (int i = 0; i < repeats; ++i) {
    QElapsedTimer t;
    t.start();
    window.translateSentence(QString::fromUtf8(kSentence));
    if (!updated.wait(10000)) return 3;
    translate.push_back(t.nsecsElapsed() / 1e6);
  }

  std::vector<double> redraw;
  for (int i = 0; i < repeats; ++i) {
    QElapsedTimer t;
    t.start();
    window.heatmap()->setMatrix(window.heatmap()->matrix());
    redraw.push_back(t.nsecsElapsed() / 1e6);
  }

  // The engine's share: the same step-wise decoding the window runs, without any drawing.
  const attnscope::Translator translator(attnscope::resolve_model("additive"));
  std::vector<double> decode;
  for (int i = 0; i < repeats; ++i) {
    QElapsedTimer t;
    t.start();
    auto session = translator.start(kSentence, 5);
    while (!session->finished()) session->step();
    decode.push_back(t.nsecsElapsed() / 1e6);
  }

  QSignalSpy compared(&window, &attnscope::ui::MainWindow::compareUpdated);
  window.showCompare(true);  // first compare loads the other models
  if (!compared.wait(60000)) return 4;
  std::vector<double> compare;
  for (int i = 0; i < repeats; ++i) {
    QElapsedTimer t;
    t.start();
    window.translateSentence(QString::fromUtf8(kSentence));  // re-translates the grid too
    if (!compared.wait(10000)) return 5;
    compare.push_back(t.nsecsElapsed() / 1e6);
  }
  // The Corpus tab over a test set, every shipped model: from Run to the tables drawn.
  double corpus_ms = 0;
  int corpus_sentences = 0, corpus_models = 0;
  if (argc > 3) {
    attnscope::ui::CorpusView* corpus = window.corpusView();
    window.tabs()->setCurrentWidget(corpus);
    corpus->setFiles(QString::fromLocal8Bit(argv[2]), QString::fromLocal8Bit(argv[3]));
    QSignalSpy ended(corpus, &attnscope::ui::CorpusView::runEnded);
    QElapsedTimer t;
    t.start();
    corpus->run();
    if (!ended.wait(600000) || corpus->report().isEmpty()) return 6;
    corpus_ms = t.nsecsElapsed() / 1e6;
    corpus_sentences = static_cast<int>(corpus->report().sources.size());
    corpus_models = static_cast<int>(corpus->report().models.size());
  }
  const QJsonObject result{{"startup_ms", startup_ms},
                           {"first_result_ms", first_result_ms},
                           {"translate_redraw_ms", median(translate)},
                           {"of_which_decode_ms", median(decode)},
                           {"of_which_heatmap_ms", median(redraw)},
                           {"compare_all_ms", median(compare)},
                           {"compared_models", window.compareView()->plots().size()},
                           {"corpus_ms", corpus_ms},
                           {"corpus_sentences", corpus_sentences},
                           {"corpus_models", corpus_models},
                           {"source_tokens", window.heatmap()->matrix().columns()},
                           {"target_tokens", target_tokens},
                           {"repeats", repeats}};
  std::printf("%s\n", QJsonDocument(result).toJson(QJsonDocument::Compact).constData());
  return 0;
}
