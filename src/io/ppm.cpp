#include "io/ppm.hpp"

#include "core/error.hpp"

#include <cctype>
#include <string>

namespace apg::io {

namespace {

[[noreturn]] void not_ppm(const std::string &why) {
    throw InputError(ErrorCode::bad_argument, why, {{"name", std::string("ppm")}});
}

} // namespace

RgbImage read_ppm(std::span<const std::uint8_t> bytes, int max_side) {
    std::size_t at = 0;
    // A header number: white space and # comments before it, at most 7 digits read.
    auto next_number = [&]() -> long {
        for (;;) {
            while (at < bytes.size() && std::isspace(bytes[at])) ++at;
            if (at < bytes.size() && bytes[at] == '#')
                while (at < bytes.size() && bytes[at] != '\n') ++at;
            else
                break;
        }
        long v = 0;
        const std::size_t start = at;
        while (at < bytes.size() && std::isdigit(bytes[at]) && v < 1000000) v = v * 10 + (bytes[at++] - '0');
        if (at == start) not_ppm("not a binary PPM (P6) image");
        return v;
    };
    if (bytes.size() < 2 || bytes[0] != 'P' || bytes[1] != '6') not_ppm("not a binary PPM (P6) image");
    at = 2;
    const long w = next_number(), h = next_number(), maxval = next_number();
    if (maxval != 255) not_ppm("only 8-bit PPM (maxval 255) is read");
    if (w > max_side || h > max_side || w < 1 || h < 1)
        throw InputError(ErrorCode::limit_exceeded,
                         std::to_string(w) + " x " + std::to_string(h) + " pixels (at most " +
                             std::to_string(max_side) + " per side)",
                         {{"name", std::string("ppm")}, {"limit", std::int64_t{max_side}}});
    ++at; // the one whitespace byte after maxval
    const std::size_t n = static_cast<std::size_t>(w * h * 3);
    if (bytes.size() < at + n) not_ppm("the file ends before its pixels do");
    return {static_cast<int>(w),
            static_cast<int>(h),
            {bytes.begin() + static_cast<std::ptrdiff_t>(at), bytes.begin() + static_cast<std::ptrdiff_t>(at + n)}};
}

std::vector<std::uint8_t> write_ppm(const RgbImage &image) {
    const std::string header = "P6\n" + std::to_string(image.width) + " " + std::to_string(image.height) + "\n255\n";
    std::vector<std::uint8_t> out(header.begin(), header.end());
    out.insert(out.end(), image.pixels.begin(), image.pixels.end());
    return out;
}

} // namespace apg::io
