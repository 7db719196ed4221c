#pragma once
// An animated GIF read back with giflib (DGifSlurp) into plain values, for the tests of the
// timeline animation (QtTest) and of `attnscope-cli export --snapshots` (GoogleTest).
#include <gif_lib.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace attnscope::gif_test {

struct GifFrame {
  int left = 0, top = 0, width = 0, height = 0;
  bool local_palette = false;
  int delay_cs = -1;                  // from its graphics control block; -1 without one
  std::vector<unsigned char> pixels;  // palette indices, row by row
};

struct GifFile {
  int width = 0, height = 0;
  std::vector<uint32_t> palette;  // the global one, 0xRRGGBB; empty when there is none
  int loop_count = -1;            // NETSCAPE2.0: 0 loops forever; -1 without the extension
  std::vector<GifFrame> frames;
};

inline GifFile read_gif(const std::string& path) {
  int error = 0;
  const auto close = [](GifFileType* gif) { DGifCloseFile(gif, nullptr); };
  std::unique_ptr<GifFileType, decltype(close)> gif(DGifOpenFileName(path.c_str(), &error), close);
  if (!gif) throw std::runtime_error(path + ": " + GifErrorString(error));
  if (DGifSlurp(gif.get()) != GIF_OK)
    throw std::runtime_error(path + ": " + GifErrorString(gif->Error));
  GifFile file;
  file.width = gif->SWidth;
  file.height = gif->SHeight;
  if (gif->SColorMap != nullptr)
    for (int i = 0; i < gif->SColorMap->ColorCount; ++i) {
      const GifColorType c = gif->SColorMap->Colors[i];
      file.palette.push_back(uint32_t{c.Red} << 16 | uint32_t{c.Green} << 8 | c.Blue);
    }
  // The loop extension is an application block "NETSCAPE2.0" and a sub-block {1, count (LE)}.
  const auto find_loop = [&](const ExtensionBlock* blocks, int count) {
    for (int b = 0; b + 1 < count; ++b)
      if (blocks[b].Function == APPLICATION_EXT_FUNC_CODE && blocks[b].ByteCount == 11 &&
          std::memcmp(blocks[b].Bytes, "NETSCAPE2.0", 11) == 0 &&
          blocks[b + 1].Function == CONTINUE_EXT_FUNC_CODE && blocks[b + 1].ByteCount == 3 &&
          blocks[b + 1].Bytes[0] == 1)
        file.loop_count = blocks[b + 1].Bytes[1] | blocks[b + 1].Bytes[2] << 8;
  };
  find_loop(gif->ExtensionBlocks, gif->ExtensionBlockCount);
  for (int i = 0; i < gif->ImageCount; ++i) {
    const SavedImage& image = gif->SavedImages[i];
    find_loop(image.ExtensionBlocks, image.ExtensionBlockCount);
    GifFrame frame;
    frame.left = image.ImageDesc.Left;
    frame.top = image.ImageDesc.Top;
    frame.width = image.ImageDesc.Width;
    frame.height = image.ImageDesc.Height;
    frame.local_palette = image.ImageDesc.ColorMap != nullptr;
    GraphicsControlBlock control;
    if (DGifSavedExtensionToGCB(gif.get(), i, &control) == GIF_OK)
      frame.delay_cs = control.DelayTime;
    frame.pixels.assign(image.RasterBits, image.RasterBits + size_t(frame.width) * frame.height);
    file.frames.push_back(std::move(frame));
  }
  return file;
}

}  // namespace attnscope::gif_test
