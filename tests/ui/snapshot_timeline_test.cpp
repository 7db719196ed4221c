// QtTest (offscreen) of the training timeline exports: small multiples whose panels show their
// own snapshot on one colour scale with cells of one size, the figure as SVG and PDF, the GIF
// read back with giflib (frames, loop, delays, one palette, the picture in the last frame), and
// one-line errors naming the path.
#include "render/snapshot_timeline.h"

#include <QDir>
#include <QImage>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <functional>

#include "plots/colormaps.h"
#include "ui/fixture.h"
#include "ui/gif_file.h"

using namespace attnscope;
using namespace attnscope::ui;

class SnapshotTimelineTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void panelsShowTheirOwnSnapshot();
  void oneColourScaleForAllPanels();
  void cellsKeepTheirSizeWhenTheOutputGrows();
  void defaultFigureIsAGridOfSix();
  void figureAsSvgAndPdf();
  void animationHasAFrameForEachSnapshot();
  void animationFramesAreCapped();
  void errorsNameThePath();
};

namespace {

using Matrix = std::vector<std::vector<float>>;

const std::vector<std::string> kSource = {"a", "man", "rides", "</s>"};

TrainingSnapshot snapshot(int64_t batch, const Matrix& attention) {
  TrainingSnapshot s;
  s.batch = batch;
  s.epoch = 1;
  s.loss = 10.0 / static_cast<double>(batch);
  s.source = kSource;
  const size_t rows = attention.empty() ? 3 : attention.size();
  for (size_t r = 0; r < rows; ++r) s.output.push_back("w" + std::to_string(r));
  s.attention = attention;
  return s;
}

// `rows` × 4: row r attends to column r (diagonal) or 3 − r (anti-diagonal).
Matrix oneHot(size_t rows, bool anti) {
  Matrix m(rows, std::vector<float>(kSource.size(), 0.0f));
  for (size_t r = 0; r < rows; ++r) m[r][anti ? kSource.size() - 1 - r % 4 : r % 4] = 1.0f;
  return m;
}

Matrix filled(size_t rows, float value) {
  return Matrix(rows, std::vector<float>(kSource.size(), value));
}

// A run drifting from uniform attention to the diagonal, the output growing from 2 to 4 words.
std::vector<TrainingSnapshot> drift(int count) {
  std::vector<TrainingSnapshot> run;
  for (int k = 0; k < count; ++k) {
    const float t = static_cast<float>(k) / static_cast<float>(count - 1);
    const size_t rows = 2 + static_cast<size_t>(k * 3 / count);
    Matrix m = oneHot(rows, false);
    for (auto& row : m)
      for (float& w : row) w = (1 - t) * 0.25f + t * w;
    run.push_back(snapshot(50 * (k + 1), m));
  }
  return run;
}

// drift(`snapshots`) exported as an animation and read back.
gif_test::GifFile animate(int snapshots, const TimelineOptions& options) {
  QTemporaryDir dir;
  const QString path = dir.filePath("run.gif");
  exportTimeline(drift(snapshots), path, options);
  return gif_test::read_gif(path.toStdString());
}

QRgb viridisAt(double value) {
  QCPColorGradient gradient = colormap("viridis");
  return gradient.color(value, QCPRange(0.0, 1.0));
}

// The bounding boxes of the 4-connected areas of at least `minArea` pixels of `image` inside
// `area` for which `is` holds: the heatmap cells of one colour (the colour bar's levels are thin
// strips, far smaller than a cell).
QList<QRect> blobs(const QImage& image, const QRect& area, const std::function<bool(QRgb)>& is,
                   int minArea) {
  QList<QRect> found;
  QVector<bool> seen(image.width() * image.height(), false);
  for (int y0 = area.top(); y0 <= area.bottom(); ++y0)
    for (int x0 = area.left(); x0 <= area.right(); ++x0) {
      if (seen[y0 * image.width() + x0] || !is(image.pixel(x0, y0))) continue;
      QRect box(x0, y0, 1, 1);
      int count = 0;
      QList<QPoint> stack{{x0, y0}};
      seen[y0 * image.width() + x0] = true;
      while (!stack.isEmpty()) {
        const QPoint p = stack.takeLast();
        ++count;
        box |= QRect(p, QSize(1, 1));
        for (const QPoint d : {QPoint(1, 0), QPoint(-1, 0), QPoint(0, 1), QPoint(0, -1)}) {
          const QPoint q = p + d;
          if (!area.contains(q) || seen[q.y() * image.width() + q.x()] || !is(image.pixel(q)))
            continue;
          seen[q.y() * image.width() + q.x()] = true;
          stack << q;
        }
      }
      if (count >= minArea) found << box;
    }
  return found;
}

QList<QRect> cellsOf(const QImage& image, const QRect& area, QRgb colour) {
  return blobs(
      image, area, [colour](QRgb c) { return (c & 0xffffff) == (colour & 0xffffff); }, 300);
}

// Left to right, and going down (diagonal) or up (anti-diagonal) from one to the next.
bool goesDown(QList<QRect> cells, bool down) {
  std::sort(cells.begin(), cells.end(),
            [](const QRect& a, const QRect& b) { return a.center().x() < b.center().x(); });
  for (int i = 1; i < cells.size(); ++i) {
    if (cells[i].left() < cells[i - 1].right()) return false;  // side by side, not overlapping
    if (down != (cells[i].center().y() > cells[i - 1].center().y())) return false;
  }
  return true;
}

// Runs `write` and returns its one-line error, which must name `path`; "" when none was thrown.
QString errorOf(const QString& path, const std::function<void()>& write) {
  try {
    write();
  } catch (const std::runtime_error& e) {
    const QString message = QString::fromUtf8(e.what());
    if (!message.contains("'" + path + "'") || message.contains('\n'))
      return "BAD MESSAGE: " + message;
    return message;
  }
  return {};
}

}  // namespace

void SnapshotTimelineTest::panelsShowTheirOwnSnapshot() {
  QTemporaryDir dir;
  const QString path = dir.filePath("two.png");
  TimelineOptions options;
  options.size = QSize(1000, 420);
  exportTimeline({snapshot(10, oneHot(3, false)), snapshot(20, oneHot(3, true))}, path, options);
  const QImage image(path);
  QCOMPARE(image.size(), QSize(1000, 420));  // two panels side by side
  const QRgb yellow = viridisAt(1.0);
  const QList<QRect> left = cellsOf(image, QRect(0, 0, 500, 420), yellow);
  const QList<QRect> right = cellsOf(image, QRect(500, 0, 500, 420), yellow);
  QCOMPARE(left.size(), 3);
  QCOMPARE(right.size(), 3);
  QVERIFY(goesDown(left, true));
  QVERIFY(goesDown(right, false));
  // Weight 0 everywhere else: six cells of the colour map's lowest colour in each panel, some
  // merged where they touch.
  QVERIFY(!cellsOf(image, QRect(0, 0, 500, 420), viridisAt(0.0)).isEmpty());
}

void SnapshotTimelineTest::oneColourScaleForAllPanels() {
  QTemporaryDir dir;
  const QString path = dir.filePath("scale.png");
  TimelineOptions options;
  options.size = QSize(1000, 420);
  // On its own scale the uniform matrix's 0.5 would be the top colour; on [0, 1] it is the middle.
  exportTimeline({snapshot(10, filled(3, 0.5f)), snapshot(20, oneHot(3, false))}, path, options);
  const QImage image(path);
  const QRect first(0, 0, 500, 420);
  QVERIFY(cellsOf(image, first, viridisAt(1.0)).isEmpty());
  const QList<QRect> middle = cellsOf(image, first, viridisAt(0.5));
  QCOMPARE(middle.size(), 1);  // the twelve cells, one area
  QVERIFY(middle.front().width() > 200 && middle.front().height() > 150);
  QCOMPARE(cellsOf(image, QRect(500, 0, 500, 420), viridisAt(1.0)).size(), 3);
}

void SnapshotTimelineTest::cellsKeepTheirSizeWhenTheOutputGrows() {
  QTemporaryDir dir;
  const QString path = dir.filePath("grow.png");
  TimelineOptions options;
  options.size = QSize(1500, 420);
  // No attention (a baseline) beside outputs of 2 and 4 words.
  exportTimeline({snapshot(10, {}), snapshot(20, oneHot(2, false)), snapshot(30, oneHot(4, false))},
                 path, options);
  const QImage image(path);
  const QRgb yellow = viridisAt(1.0);
  // The baseline's panel says it has no attention: no cells at all.
  QVERIFY(cellsOf(image, QRect(0, 0, 500, 420), yellow).isEmpty());
  QVERIFY(cellsOf(image, QRect(0, 0, 500, 420), viridisAt(0.0)).isEmpty());
  const QList<QRect> two = cellsOf(image, QRect(500, 0, 500, 420), yellow);
  const QList<QRect> four = cellsOf(image, QRect(1000, 0, 500, 420), yellow);
  QCOMPARE(two.size(), 2);
  QCOMPARE(four.size(), 4);
  // Room for the longest output in every panel: the same cells, at the same places.
  for (int i = 0; i < 2; ++i) {
    QCOMPARE(two[i].size(), four[i].size());
    QCOMPARE(two[i].topLeft(), four[i].topLeft() - QPoint(500, 0));
  }
}

void SnapshotTimelineTest::defaultFigureIsAGridOfSix() {
  QTemporaryDir dir;
  const QString path = dir.filePath("six.png");
  exportTimeline(drift(20), path);
  const QImage image(path);
  QCOMPARE(image.size(), QSize(3 * 500, 2 * 420));
  // The last panel (bottom right) is the trained diagonal: four cells at weight 1.
  const QList<QRect> last = cellsOf(image, QRect(1000, 420, 500, 420), viridisAt(1.0));
  QCOMPARE(last.size(), 4);
  QVERIFY(goesDown(last, true));
  // The first (top left) is uniform: nothing at weight 1.
  QVERIFY(cellsOf(image, QRect(0, 0, 500, 420), viridisAt(1.0)).isEmpty());
}

void SnapshotTimelineTest::figureAsSvgAndPdf() {
  QTemporaryDir dir;
  const auto run = drift(20);
  exportTimeline(run, dir.filePath("six.svg"));
  QFile svg(dir.filePath("six.svg"));
  QVERIFY(svg.open(QIODevice::ReadOnly));
  const QByteArray text = svg.readAll();
  QVERIFY(text.contains("<svg"));
  // Each panel titled with its batch and loss: the first and the last snapshot among them.
  QVERIFY(text.contains("batch 50 · loss 0.200"));
  QVERIFY(text.contains("batch 1000 · loss 0.010"));
  exportTimeline(run, dir.filePath("six.pdf"));
  QFile pdf(dir.filePath("six.pdf"));
  QVERIFY(pdf.open(QIODevice::ReadOnly));
  QVERIFY(pdf.read(5) == "%PDF-");
  QVERIFY(pdf.size() > 5000);
}

void SnapshotTimelineTest::animationHasAFrameForEachSnapshot() {
  TimelineOptions options;
  options.size = QSize(400, 300);
  options.delayMs = 150;
  const gif_test::GifFile gif = animate(12, options);
  QCOMPARE(gif.width, 400);
  QCOMPARE(gif.height, 300);
  QCOMPARE(gif.loop_count, 0);  // forever
  QCOMPARE(static_cast<int>(gif.palette.size()), 256);
  QCOMPARE(static_cast<int>(gif.frames.size()), 12);
  for (size_t i = 0; i < gif.frames.size(); ++i) {
    const gif_test::GifFrame& frame = gif.frames[i];
    QVERIFY(!frame.local_palette);  // one global palette: no colour flickers
    QCOMPARE(QRect(frame.left, frame.top, frame.width, frame.height), QRect(0, 0, 400, 300));
    // The last frame stays 2 s.
    QCOMPARE(frame.delay_cs, i + 1 == gif.frames.size() ? 200 : 15);
    if (i > 0) QVERIFY(frame.pixels != gif.frames[i - 1].pixels);
  }
  // The palette's colour nearest the top of the map shows the last frame's diagonal, and no
  // cell of the first (uniform) frame.
  const QRgb yellow = viridisAt(1.0);
  const auto distance = [yellow](uint32_t c) {
    const int r = int(c >> 16) - qRed(yellow), g = int(c >> 8 & 0xff) - qGreen(yellow),
              b = int(c & 0xff) - qBlue(yellow);
    return r * r + g * g + b * b;
  };
  const int top = static_cast<int>(
      std::min_element(gif.palette.begin(), gif.palette.end(),
                       [&](uint32_t a, uint32_t b) { return distance(a) < distance(b); }) -
      gif.palette.begin());
  QVERIFY(distance(gif.palette[top]) <= 3 * 4 * 4);  // the map's own colour, nearly
  const auto imageOf = [&](const gif_test::GifFrame& frame) {
    QImage image(frame.width, frame.height, QImage::Format_RGB32);
    for (int y = 0; y < frame.height; ++y)
      for (int x = 0; x < frame.width; ++x)
        image.setPixel(x, y, 0xff000000 | gif.palette[frame.pixels[y * frame.width + x]]);
    return image;
  };
  const QRgb shown = 0xff000000 | gif.palette[top];
  const QList<QRect> last = cellsOf(imageOf(gif.frames.back()), QRect(0, 0, 400, 300), shown);
  QCOMPARE(last.size(), 4);
  QVERIFY(goesDown(last, true));
  QVERIFY(cellsOf(imageOf(gif.frames.front()), QRect(0, 0, 400, 300), shown).isEmpty());
}

void SnapshotTimelineTest::animationFramesAreCapped() {
  TimelineOptions options;
  options.size = QSize(200, 160);
  options.frames = 5;
  const gif_test::GifFile gif = animate(30, options);
  QCOMPARE(static_cast<int>(gif.frames.size()), 5);
  QCOMPARE(gif.frames.front().delay_cs, 20);  // the default 200 ms
}

void SnapshotTimelineTest::errorsNameThePath() {
  QTemporaryDir dir;
  const auto run = drift(4);
  // Called as QVERIFY(check(...)): a failed check ends the test.
  const auto check = [&](const QString& path, const TimelineOptions& options,
                         const std::vector<TrainingSnapshot>& snapshots, const QString& problem) {
    const QString message = errorOf(path, [&] { exportTimeline(snapshots, path, options); });
    UI_VERIFY2(message.contains(problem),
               qPrintable(QStringLiteral("%1: '%2', expected '%3'").arg(path, message, problem)));
    UI_VERIFY2(!QFileInfo(path).isFile(), qPrintable(path));
    return true;
  };
  QVERIFY(check(dir.filePath("run.docx"), {}, run, "unknown file type '.docx'"));
  QVERIFY(check(dir.filePath("run.csv"), {}, run, "unknown file type '.csv'"));
  QVERIFY(check(dir.filePath("none.gif"), {}, {}, "there are no snapshots"));
  TimelineOptions negative;
  negative.frames = -1;
  QVERIFY(check(dir.filePath("negative.png"), negative, run, "between 1 and 1000, not -1"));
  TimelineOptions fast;
  fast.delayMs = 5;
  QVERIFY(check(dir.filePath("fast.gif"), fast, run, "a frame delay of 5 ms is out of range"));
  TimelineOptions huge;
  huge.size = QSize(5000, 300);
  QVERIFY(check(dir.filePath("huge.gif"), huge, run, "frame size 5000×300 is out of range"));
  exportTimeline(run, dir.filePath("wide.png"), huge);  // a figure may be that wide
  QCOMPARE(QImage(dir.filePath("wide.png")).size(), QSize(5000, 300));
  TimelineOptions map;
  map.colormap = "rainbow";
  QVERIFY(check(dir.filePath("map.gif"), map, run, "unknown colour map 'rainbow'"));
  QVERIFY(check(dir.filePath("missing/run.gif"), {}, run, "cannot export to"));
  QVERIFY(QDir(dir.path()).mkdir("folder.gif"));
  QVERIFY(check(dir.filePath("folder.gif"), {}, run, "it is a directory"));
  QVERIFY(QDir(dir.path()).mkdir("folder.png"));
  QVERIFY(check(dir.filePath("folder.png"), {}, run, "it is a directory"));
}

QTEST_MAIN(SnapshotTimelineTest)
#include "snapshot_timeline_test.moc"
