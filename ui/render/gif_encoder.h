#pragma once
// An animated GIF, built in memory one frame at a time, looping forever. All frames share one
// global palette, so a colour never flickers from frame to frame.
//
// giflib rather than ffmpeg: a small, well-kept library linked in-process, with no external
// program to find (or to be missing) at run time.
#include <QByteArray>
#include <QImage>
#include <QList>
#include <QSize>

struct GifFileType;

namespace attnscope::ui {

class GifEncoder {
 public:
  /// Frames of `size` pixels; every pixel becomes the nearest of `palette`'s colours (opaque,
  /// 2 to 256 of them). Throws std::runtime_error for a bad size or palette.
  GifEncoder(QSize size, const QList<QRgb>& palette);
  ~GifEncoder();
  GifEncoder(const GifEncoder&) = delete;
  GifEncoder& operator=(const GifEncoder&) = delete;

  /// Appends `frame` (of the encoder's size), shown for `delayMs` milliseconds (GIF counts in
  /// hundredths of a second: rounded, at least 2, as browsers show shorter delays slower).
  void addFrame(const QImage& frame, int delayMs);
  /// The whole file. The encoder takes no frame after it.
  QByteArray finish();

 private:
  static int write(GifFileType* gif, const unsigned char* bytes, int length);
  void check(int result, const char* what);

  QSize size_;
  QList<QRgb> palette_;
  QByteArray bytes_;
  GifFileType* gif_ = nullptr;
};

}  // namespace attnscope::ui
