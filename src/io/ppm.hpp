// Binary PPM images (P6, 8 bits per channel): what `apg decode` reads a picture from and writes
// the image a model read to. Bytes in, bytes out; the command line does the file I/O. The header's
// numbers are read whole however many digits they have, so a side too large is named as written.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace apg::io {

struct RgbImage {
    int width = 0, height = 0;
    std::vector<std::uint8_t> pixels; // width · height · 3 bytes, row-major from the top left
};

// Throws InputError: bad_argument (details "name" = "ppm" or "maxval") for bytes that are not a
// binary PPM, a side of 0, a maxval other than 255 or pixels cut short; limit_exceeded (details
// "name" = "width" or "height", "limit") for a side over max_side, before the pixels are copied.
RgbImage read_ppm(std::span<const std::uint8_t> bytes, int max_side);
std::vector<std::uint8_t> write_ppm(const RgbImage &image);

} // namespace apg::io
