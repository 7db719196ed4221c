#include "render/gif_encoder.h"

#include <gif_lib.h>

#include <algorithm>
#include <cmath>
#include <new>
#include <stdexcept>
#include <string>

namespace attnscope::ui {
namespace {

constexpr int kPaletteSize = 256;  // the global colour table always has 8 bits per pixel
constexpr int kMaxSide = 65535;    // GIF stores sizes in 16 bits

std::runtime_error gifError(const char* what, int code) {
  const char* reason = GifErrorString(code);
  return std::runtime_error(std::string("GIF encoder: ") + what + ": " +
                            (reason != nullptr ? reason : "unknown error"));
}

}  // namespace

GifEncoder::GifEncoder(QSize size, const QList<QRgb>& palette) : size_(size), palette_(palette) {
  if (size.width() < 1 || size.height() < 1 || size.width() > kMaxSide || size.height() > kMaxSide)
    throw std::runtime_error("GIF encoder: frame size out of range");
  if (palette.size() < 2 || palette.size() > kPaletteSize ||
      std::any_of(palette.begin(), palette.end(), [](QRgb c) { return qAlpha(c) != 255; }))
    throw std::runtime_error("GIF encoder: the palette needs 2 to 256 opaque colours");
  int error = 0;
  gif_ = EGifOpen(this, &GifEncoder::write, &error);
  if (gif_ == nullptr) throw gifError("cannot start", error);
  EGifSetGifVersion(gif_, true);  // GIF89a: the loop and the delays are 89a extensions
  GifColorType colours[kPaletteSize] = {};
  for (int i = 0; i < kPaletteSize; ++i) {
    const QRgb c = palette.at(std::min(i, static_cast<int>(palette.size()) - 1));
    colours[i] = {static_cast<GifByteType>(qRed(c)), static_cast<GifByteType>(qGreen(c)),
                  static_cast<GifByteType>(qBlue(c))};
  }
  ColorMapObject* map = GifMakeMapObject(kPaletteSize, colours);
  if (map == nullptr) {
    EGifCloseFile(gif_, nullptr);
    throw std::bad_alloc();
  }
  const int written = EGifPutScreenDesc(gif_, size.width(), size.height(), 8, 0, map);
  GifFreeMapObject(map);  // the screen descriptor keeps its own copy
  check(written, "cannot write the screen descriptor");
  // NETSCAPE2.0 application extension: loop count 0, forever.
  static const GifByteType kApplication[] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0'};
  static const GifByteType kLoopForever[] = {1, 0, 0};
  check(EGifPutExtensionLeader(gif_, APPLICATION_EXT_FUNC_CODE), "cannot write the loop");
  check(EGifPutExtensionBlock(gif_, sizeof kApplication, kApplication), "cannot write the loop");
  check(EGifPutExtensionBlock(gif_, sizeof kLoopForever, kLoopForever), "cannot write the loop");
  check(EGifPutExtensionTrailer(gif_), "cannot write the loop");
}

GifEncoder::~GifEncoder() {
  if (gif_ != nullptr) EGifCloseFile(gif_, nullptr);
}

int GifEncoder::write(GifFileType* gif, const unsigned char* bytes, int length) {
  static_cast<GifEncoder*>(gif->UserData)
      ->bytes_.append(reinterpret_cast<const char*>(bytes), length);
  return length;
}

void GifEncoder::check(int result, const char* what) {
  if (result != GIF_ERROR) return;
  const int code = gif_->Error;
  EGifCloseFile(gif_, nullptr);
  gif_ = nullptr;
  throw gifError(what, code);
}

void GifEncoder::addFrame(const QImage& frame, int delayMs) {
  if (gif_ == nullptr) throw std::logic_error("GIF encoder: a frame after finish()");
  if (frame.size() != size_) throw std::runtime_error("GIF encoder: a frame of another size");
  // Nearest colour, no dithering: dithered noise would change from frame to frame and shimmer.
  QImage indexed = frame.convertToFormat(QImage::Format_Indexed8, palette_, Qt::ThresholdDither);
  GraphicsControlBlock control{};
  control.DisposalMode = DISPOSE_DO_NOT;  // each frame covers the whole picture anyway
  control.DelayTime = std::max(2, static_cast<int>(std::lround(delayMs / 10.0)));
  control.TransparentColor = NO_TRANSPARENT_COLOR;
  GifByteType extension[4];
  const size_t length = EGifGCBToExtension(&control, extension);
  check(EGifPutExtension(gif_, GRAPHICS_EXT_FUNC_CODE, static_cast<int>(length), extension),
        "cannot write a frame's delay");
  check(EGifPutImageDesc(gif_, 0, 0, size_.width(), size_.height(), false, nullptr),
        "cannot write a frame");
  for (int y = 0; y < size_.height(); ++y)
    check(EGifPutLine(gif_, indexed.scanLine(y), size_.width()), "cannot write a frame");
}

QByteArray GifEncoder::finish() {
  if (gif_ == nullptr) throw std::logic_error("GIF encoder: finish() twice");
  int error = 0;
  const int closed = EGifCloseFile(gif_, &error);  // writes the trailer and frees, even on error
  gif_ = nullptr;
  if (closed == GIF_ERROR) throw gifError("cannot finish", error);
  return std::move(bytes_);
}

}  // namespace attnscope::ui
