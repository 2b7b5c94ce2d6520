// Binary PPM pictures: what is written reads back, header comments and white space are read,
// and every kind of bad file is a coded error.
#include "core/error.hpp"
#include "io/ppm.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace apg;

namespace {

std::vector<std::uint8_t> bytes(const std::string &text) { return {text.begin(), text.end()}; }

ErrorCode code_of(const std::vector<std::uint8_t> &file, int max_side = 8) {
    try {
        io::read_ppm(file, max_side);
    } catch (const InputError &e) {
        return e.code();
    }
    FAIL("no error");
    return ErrorCode::bad_state;
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
}

TEST_CASE("bad PPM files give coded errors") {
    CHECK(code_of(bytes("P3\n1 1\n255\n000")) == ErrorCode::bad_argument);      // the text form
    CHECK(code_of(bytes("P6\nx 1\n255\nabc")) == ErrorCode::bad_argument);      // no width
    CHECK(code_of(bytes("P6\n1 1\n65535\nabcdef")) == ErrorCode::bad_argument); // 16 bits per channel
    CHECK(code_of(bytes("P6\n2 2\n255\nabc")) == ErrorCode::bad_argument);      // cut short
    CHECK(code_of(bytes("P6\n9 1\n255\n")) == ErrorCode::limit_exceeded);       // wider than max_side
    CHECK(code_of(bytes("P6\n0 1\n255\n")) == ErrorCode::limit_exceeded);       // no pixels
    CHECK(code_of(bytes("")) == ErrorCode::bad_argument);
}
