// Binary PPM (P6, maxval 255) pictures: what `apg decode` reads for a scenes model. The header's
// numbers are read whole however many digits they have, so a side too large is named as written.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace apg::io {

struct Picture {
    int width = 0, height = 0;
    std::vector<std::uint8_t> rgb; // width × height × 3 bytes, row-major
};

// Throws InputError: bad_argument for bytes that are not a P6 image, a maxval other than 255, or
// pixels cut short; limit_exceeded (details "name" = "width" or "height", "limit") for a side
// past max_side, before the pixels are copied.
Picture read_ppm(std::span<const std::uint8_t> bytes, int max_side);

} // namespace apg::io
