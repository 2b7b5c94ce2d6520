#include "io/ppm.hpp"

#include "core/error.hpp"

#include <string>

namespace apg::io {

namespace {

[[noreturn]] void not_ppm(const std::string &why) {
    throw InputError(ErrorCode::bad_argument, "ppm: not a binary PPM (P6) image: " + why,
                     {{"name", std::string("ppm")}});
}

// The header's next number, skipping whitespace and # comments: its digits as written (the first
// 20, then "…", for the message) and its value, saturated past 10^12 so no digit count overflows it.
struct Number {
    std::string digits;
    std::int64_t value = 0;
};

Number next_number(std::span<const std::uint8_t> bytes, std::size_t &at, const char *what) {
    for (;;) {
        while (at < bytes.size() && (bytes[at] == ' ' || (bytes[at] >= '\t' && bytes[at] <= '\r'))) ++at;
        if (at < bytes.size() && bytes[at] == '#')
            while (at < bytes.size() && bytes[at] != '\n') ++at;
        else
            break;
    }
    Number n;
    while (at < bytes.size() && bytes[at] >= '0' && bytes[at] <= '9') {
        if (n.digits.size() < 20)
            n.digits += static_cast<char>(bytes[at]);
        else if (n.digits.size() == 20)
            n.digits += "…";
        if (n.value < 1'000'000'000'000) n.value = n.value * 10 + (bytes[at] - '0');
        ++at;
    }
    if (n.digits.empty()) not_ppm(std::string("no ") + what + " where the header has one");
    return n;
}

} // namespace

RgbImage read_ppm(std::span<const std::uint8_t> bytes, int max_side) {
    if (bytes.size() < 2 || bytes[0] != 'P' || bytes[1] != '6') not_ppm("it does not start with P6");
    std::size_t at = 2;
    const Number width = next_number(bytes, at, "width");
    const Number height = next_number(bytes, at, "height");
    const Number maxval = next_number(bytes, at, "maxval");
    if (width.value < 1 || height.value < 1) not_ppm(width.digits + " x " + height.digits + " pixels is no picture");
    if (width.value > max_side || height.value > max_side)
        throw InputError(
            ErrorCode::limit_exceeded,
            "ppm: " + width.digits + " x " + height.digits + " pixels, at most " + std::to_string(max_side) +
                " per side are read",
            {{"name", std::string(width.value > max_side ? "width" : "height")}, {"limit", std::int64_t{max_side}}});
    if (maxval.value != 255)
        throw InputError(ErrorCode::bad_argument,
                         "ppm: only 8-bit PPM (maxval 255) is read, this one's is " + maxval.digits,
                         {{"name", std::string("maxval")}, {"limit", std::int64_t{255}}});
    ++at; // the one whitespace byte after maxval
    RgbImage image;
    image.width = static_cast<int>(width.value);
    image.height = static_cast<int>(height.value);
    const std::size_t n = static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) * 3;
    if (at > bytes.size() || bytes.size() - at < n)
        throw InputError(ErrorCode::bad_argument,
                         "ppm: the file ends before its pixels do (" + std::to_string(n) + " bytes for " +
                             width.digits + " x " + height.digits + " pixels)",
                         {{"name", std::string("ppm")}});
    image.pixels.assign(bytes.begin() + static_cast<std::ptrdiff_t>(at),
                        bytes.begin() + static_cast<std::ptrdiff_t>(at + n));
    return image;
}

std::vector<std::uint8_t> write_ppm(const RgbImage &image) {
    const std::string header = "P6\n" + std::to_string(image.width) + " " + std::to_string(image.height) + "\n255\n";
    std::vector<std::uint8_t> out(header.begin(), header.end());
    out.insert(out.end(), image.pixels.begin(), image.pixels.end());
    return out;
}

} // namespace apg::io
