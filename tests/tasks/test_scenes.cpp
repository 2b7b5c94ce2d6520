#include "tasks/scenes.hpp"

#include "core/error.hpp"

#include <doctest/doctest.h>

#include <set>
#include <string>

using namespace apg;
using namespace apg::tasks::scenes;

namespace {

Object object(Shape shape, int colour, bool large, int x, int y) {
    Object o;
    o.shape = shape;
    o.colour = colour;
    o.large = large;
    o.x = x;
    o.y = y;
    return o;
}

// FNV-1a over the first k samples' pixels and caption texts, train then held-out.
std::uint64_t fingerprint(const ScenesData &data) {
    std::uint64_t h = 1469598103934665603ull;
    auto add = [&](unsigned char c) { h = (h ^ c) * 1099511628211ull; };
    for (const auto *part : {&data.train, &data.heldout})
        for (const Sample &s : *part) {
            for (std::uint8_t p : s.pixels) add(p);
            for (char c : s.caption.text()) add(static_cast<unsigned char>(c));
            add(0xff);
        }
    return h;
}

} // namespace

TEST_CASE("scenes are the same natively and in wasm (pixels and captions of the first scenes)") {
    // Taken from the native build; the wasm test build checks the same constant.
    CHECK(fingerprint(make_scenes(1, 200, 40)) == 9348834877038152276ull);
}

TEST_CASE("random scenes by seed are the image module's (the same constant in tests/js/image.test.mjs)") {
    // FNV-1a over seeds 1..20: random_scene(Rng(seed)) → its description, caption and pixels.
    std::uint64_t h = 1469598103934665603ull;
    auto add = [&](unsigned char c) { h = (h ^ c) * 1099511628211ull; };
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        core::Rng rng(seed);
        const Scene scene = random_scene(rng);
        for (char c : describe(scene) + "|" + caption(scene).text() + "|") add(static_cast<unsigned char>(c));
        for (std::uint8_t p : render(scene)) add(p);
    }
    CHECK(h == 16108461145929030641ull);
}

TEST_CASE("a caption names the objects along the axis they spread over most") {
    Scene scene;
    scene.objects = {object(Shape::square, 2, true, 20, 24), object(Shape::circle, 0, false, 18, 6)};
    // vertical spread 18 > horizontal 2: top to bottom, joined by "above"
    CHECK(caption(scene).text() == "a small red circle above a large blue square");
    CHECK(caption(scene).object_of == std::vector<int>{1, 1, 1, 1, -1, 0, 0, 0, 0});
    scene.objects = {object(Shape::diamond, 3, false, 26, 10), object(Shape::triangle, 1, true, 8, 14),
                     object(Shape::circle, 0, false, 16, 20)};
    CHECK(caption(scene).text() == "a large green triangle to the left of a small red circle to the left of a small "
                                   "yellow diamond");
}

TEST_CASE("render draws each object in its colour over a dark textured background") {
    Scene scene;
    scene.texture_seed = 7;
    scene.objects = {object(Shape::square, 0, true, 10, 10), object(Shape::triangle, 2, false, 24, 24)};
    const auto px = render(scene);
    REQUIRE(px.size() == static_cast<std::size_t>(image_bytes));
    auto at = [&](int x, int y, int c) { return static_cast<int>(px[(y * image_size + x) * 3 + c]); };
    // red square: R 215 ± 10, G and B 45 ± 10, over its whole box (corners included)
    for (auto [x, y] : {std::pair{10, 10}, std::pair{4, 4}, std::pair{16, 16}}) {
        CHECK(std::abs(at(x, y, 0) - 215) <= 10);
        CHECK(std::abs(at(x, y, 1) - 45) <= 10);
    }
    // the triangle's apex row has one pixel, its base row seven; beside the apex is background
    CHECK(std::abs(at(24, 21, 2) - 225) <= 10);
    CHECK(at(23, 21, 2) < 90);
    CHECK(std::abs(at(21, 27, 2) - 225) <= 10);
    // background: 60..80 per channel (grey, checker, noise)
    int lo = 255, hi = 0;
    for (int x = 0; x < 3; ++x)
        for (int y = 0; y < 32; ++y) lo = std::min(lo, at(x, y, 0)), hi = std::max(hi, at(x, y, 0));
    CHECK(lo >= 54);
    CHECK(hi <= 74);
    CHECK(hi > lo); // textured, not flat
}

TEST_CASE("generated scenes: 1-3 objects apart inside the image, captions clear, held-out by composition") {
    const ScenesData data = make_scenes(3, 600, 100);
    CHECK(data.train.size() == 600);
    CHECK(data.heldout.size() == 100);
    std::set<std::string> train_compositions;
    std::set<std::size_t> counts;
    for (const Sample &s : data.train) {
        CHECK_FALSE(heldout_composition(s.scene));
        train_compositions.insert(composition(s.scene));
        counts.insert(s.scene.objects.size());
        for (const Object &o : s.scene.objects) {
            const Box b = o.box();
            CHECK((b.x0 >= 0 && b.y0 >= 0 && b.x1 < image_size && b.y1 < image_size));
        }
        CHECK(s.caption.tokens.size() <= max_caption_tokens);
    }
    CHECK(counts == std::set<std::size_t>{1, 2, 3});
    for (const Sample &s : data.heldout) {
        CHECK(heldout_composition(s.scene));
        CHECK(train_compositions.count(composition(s.scene)) == 0);
    }
    // the first scenes of a bigger set are the smaller set's
    const ScenesData small = make_scenes(3, 100, 10);
    CHECK(small.train[99].caption.text() == data.train[99].caption.text());
    CHECK(small.train[99].pixels == data.train[99].pixels);
}

TEST_CASE("a scene description parses to its objects and back") {
    const Scene scene = parse_description(" small red circle at 10,12;large blue square at 24, 20 ;");
    REQUIRE(scene.objects.size() == 2);
    CHECK(scene.objects[0] == object(Shape::circle, 0, false, 10, 12));
    CHECK(scene.objects[1] == object(Shape::square, 2, true, 24, 20));
    CHECK(describe(scene) == "small red circle at 10,12; large blue square at 24,20");
    CHECK(caption(scene).text() == "a small red circle to the left of a large blue square");
}

TEST_CASE("bad scene descriptions give coded errors naming the part") {
    auto code_of = [](const char *text) {
        try {
            parse_description(text);
        } catch (const Error &e) {
            return std::string(name(e.code())) + ": " + e.message();
        }
        return std::string("no error");
    };
    CHECK(code_of("") == "empty_input: scene description: no objects (e.g. \"small red circle at 10,12\")");
    CHECK(code_of("huge red circle at 1,1") == "bad_argument: scene description: unknown size \"huge\" (small, large)");
    CHECK(code_of("small pink circle at 1,1").find("unknown colour \"pink\"") != std::string::npos);
    CHECK(code_of("small red blob at 1,1").find("unknown shape \"blob\"") != std::string::npos);
    CHECK(code_of("small red circle").find("has no \"at x,y\"") != std::string::npos);
    CHECK(code_of("small red circle at 40,1").find("outside the 32-pixel image") != std::string::npos);
    CHECK(code_of("small red circle at x,1").find("not a whole number") != std::string::npos);
    CHECK(code_of("small red circle at 1 1").find("<x>,<y>") != std::string::npos);
    std::string many;
    for (int i = 0; i < 9; ++i) many += "small red circle at 5,5;";
    CHECK(code_of(many.c_str()).rfind("limit_exceeded", 0) == 0);
}

TEST_CASE("any picture to the model's input: averaged down, repeated up, alpha ignored") {
    // 64 × 64 RGBA of 2 × 2 blocks: block (x, y) has R = x, G = y, B = 7; alpha varies
    std::vector<std::uint8_t> big(64 * 64 * 4);
    for (int y = 0; y < 64; ++y)
        for (int x = 0; x < 64; ++x) {
            std::uint8_t *p = &big[(y * 64 + x) * 4];
            p[0] = static_cast<std::uint8_t>(x / 2 + (x % 2)); // 1 apart within a block: averages to x/2 + 0.5
            p[1] = static_cast<std::uint8_t>(y / 2);
            p[2] = 7;
            p[3] = static_cast<std::uint8_t>(x * 3);
        }
    const auto small = to_model_image(big, 64, 64, 4);
    REQUIRE(small.size() == static_cast<std::size_t>(image_bytes));
    // R: (x/2 + x/2 + 1 + …) / 4 = x/2 + 0.5, rounded half up: x/2 + 1
    CHECK(small[(5 * 32 + 9) * 3 + 0] == 10);
    CHECK(small[(5 * 32 + 9) * 3 + 1] == 5);
    CHECK(small[(5 * 32 + 9) * 3 + 2] == 7);
    // a 2 × 1 image repeats its pixels
    const std::vector<std::uint8_t> tiny = {10, 20, 30, 200, 100, 0};
    const auto up = to_model_image(tiny, 2, 1, 3);
    CHECK(up[0] == 10);
    CHECK(up[(31 * 32 + 15) * 3 + 1] == 20);
    CHECK(up[(0 * 32 + 16) * 3 + 0] == 200);
    // 32 × 32 RGB is itself
    const Scene scene = parse_description("large green diamond at 16,16");
    CHECK(to_model_image(render(scene), 32, 32, 3) == render(scene));
}

TEST_CASE("bad pictures give coded errors") {
    auto code = [](std::span<const std::uint8_t> b, int w, int h, int c) {
        try {
            to_model_image(b, w, h, c);
        } catch (const Error &e) {
            return std::string(name(e.code()));
        }
        return std::string("none");
    };
    const std::vector<std::uint8_t> three(3);
    CHECK(code(three, 1, 1, 3) == "none");
    CHECK(code(three, 1, 1, 2) == "bad_argument");
    CHECK(code(three, 0, 1, 3) == "bad_argument");
    CHECK(code(three, 2, 1, 3) == "bad_argument"); // 3 bytes for 6
    CHECK(code(three, 10000, 10000, 4) == "limit_exceeded");
}
