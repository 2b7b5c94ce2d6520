// Binary PPM pictures: what is written reads back, header comments and white space are read,
// and every kind of bad file is a coded error whose message names the header's numbers as written.
#include "core/error.hpp"
#include "io/ppm.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace apg;

namespace {

std::vector<std::uint8_t> bytes(const std::string &text) { return {text.begin(), text.end()}; }

std::vector<std::uint8_t> ppm(const std::string &header, std::size_t pixels) {
    std::vector<std::uint8_t> out(header.begin(), header.end());
    for (std::size_t i = 0; i < pixels; ++i) out.push_back(static_cast<std::uint8_t>(i * 37));
    return out;
}

std::string refusal(const std::vector<std::uint8_t> &file, ErrorCode code, int max_side = 4096) {
    try {
        io::read_ppm(file, max_side);
    } catch (const InputError &e) {
        CHECK(e.code() == code);
        return std::string(e.text());
    }
    FAIL("no refusal");
    return "";
}

} // namespace

TEST_CASE("a PPM written reads back, with comments and any white space in its header") {
    const io::RgbImage image{2, 1, {1, 2, 3, 250, 251, 252}};
    const std::vector<std::uint8_t> file = io::write_ppm(image);
    CHECK(std::string(file.begin(), file.begin() + 11) == "P6\n2 1\n255\n");
    const io::RgbImage back = io::read_ppm(file, 8);
    CHECK(back.width == 2);
    CHECK(back.height == 1);
    CHECK(back.pixels == image.pixels);
    const io::RgbImage commented = io::read_ppm(bytes("P6 # a picture\n 1\t1 # one pixel\n255\nabc"), 8);
    CHECK(commented.pixels == bytes("abc"));
    const io::RgbImage p = io::read_ppm(ppm("P6\n# made by hand\n40\t7\r\n255\n", 40 * 7 * 3), 4096);
    CHECK(p.width == 40);
    CHECK(p.height == 7);
    CHECK(p.pixels.size() == 40 * 7 * 3);
    CHECK(p.pixels[5] == static_cast<std::uint8_t>(5 * 37));
}

TEST_CASE("read_ppm: a side of 8 digits is named as written, not taken for the maxval") {
    // A reader that stopped at 7 digits read the 8th as the height, so this was reported as
    // "only 8-bit PPM (maxval 255)".
    CHECK(refusal(ppm("P6\n12345678 2\n255\n", 12), ErrorCode::limit_exceeded) ==
          "ppm: 12345678 x 2 pixels, at most 4096 per side are read");
    CHECK(refusal(ppm("P6\n2 99999999999999999999999\n255\n", 12), ErrorCode::limit_exceeded) ==
          "ppm: 2 x 99999999999999999999… pixels, at most 4096 per side are read");
    CHECK(refusal(bytes("P6\n9 1\n255\n"), ErrorCode::limit_exceeded, 8) ==
          "ppm: 9 x 1 pixels, at most 8 per side are read");
}

TEST_CASE("read_ppm: not P6, another maxval, pixels cut short, no pixels") {
    CHECK(refusal(ppm("P3\n2 2\n255\n", 12), ErrorCode::bad_argument) ==
          "ppm: not a binary PPM (P6) image: it does not start with P6");
    CHECK(refusal(ppm("P6\n2 2\n65535\n", 24), ErrorCode::bad_argument) ==
          "ppm: only 8-bit PPM (maxval 255) is read, this one's is 65535");
    CHECK(refusal(ppm("P6\n16 16\n255\n", 100), ErrorCode::bad_argument) ==
          "ppm: the file ends before its pixels do (768 bytes for 16 x 16 pixels)");
    CHECK(refusal(ppm("P6\n0 5\n255\n", 0), ErrorCode::bad_argument) ==
          "ppm: not a binary PPM (P6) image: 0 x 5 pixels is no picture");
    CHECK(refusal(ppm("P6\n", 0), ErrorCode::bad_argument) ==
          "ppm: not a binary PPM (P6) image: no width where the header has one");
    CHECK(refusal(bytes("P6\nx 1\n255\nabc"), ErrorCode::bad_argument) ==
          "ppm: not a binary PPM (P6) image: no width where the header has one");
    CHECK(refusal(bytes(""), ErrorCode::bad_argument) == "ppm: not a binary PPM (P6) image: it does not start with P6");
}
