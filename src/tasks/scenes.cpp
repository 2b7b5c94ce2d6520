#include "tasks/scenes.hpp"

#include "tasks/sides.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <numeric>
#include <stdexcept>

namespace apg::tasks::scenes {

namespace {

struct Rgb {
    int r, g, b;
};
constexpr std::array<Rgb, 4> colour_values = {{{215, 45, 40}, {45, 190, 60}, {50, 90, 225}, {230, 205, 40}}};

bool inside(Shape shape, int dx, int dy, int r) {
    switch (shape) {
    case Shape::circle:
        return dx * dx + dy * dy <= r * r + r;
    case Shape::square:
        return dx >= -r && dx <= r && dy >= -r && dy <= r;
    case Shape::triangle: // apex up: the half-width grows by one pixel every two rows
        return dy >= -r && dy <= r && 2 * std::abs(dx) <= dy + r;
    case Shape::diamond:
        return std::abs(dx) + std::abs(dy) <= r;
    }
    return false;
}

std::uint8_t clamp_byte(int v) { return static_cast<std::uint8_t>(std::clamp(v, 0, 255)); }

// Boxes at least two pixels apart (neither touches nor nearly touches the other).
bool apart(const Box &a, const Box &b) {
    return a.x1 + 2 < b.x0 || b.x1 + 2 < a.x0 || a.y1 + 2 < b.y0 || b.y1 + 2 < a.y0;
}

struct Axis {
    bool vertical = false;
    int spread_x = 0, spread_y = 0;
};

Axis axis_of(const Scene &scene) {
    int x0 = image_size, x1 = -1, y0 = image_size, y1 = -1;
    for (const Object &o : scene.objects) {
        x0 = std::min(x0, o.x), x1 = std::max(x1, o.x);
        y0 = std::min(y0, o.y), y1 = std::max(y1, o.y);
    }
    return {y1 - y0 > x1 - x0, x1 - x0, y1 - y0};
}

bool clear(const Scene &scene) {
    if (scene.objects.size() < 2) return true;
    const Axis axis = axis_of(scene);
    if (std::abs(axis.spread_x - axis.spread_y) < min_axis_margin) return false;
    const std::vector<int> order = caption_order(scene);
    for (std::size_t k = 1; k < order.size(); ++k) {
        const Object &a = scene.objects[order[k - 1]], &b = scene.objects[order[k]];
        if ((axis.vertical ? b.y - a.y : b.x - a.x) < min_axis_gap) return false;
    }
    return true;
}

std::uint64_t fnv1a(std::string_view s) {
    std::uint64_t h = 1469598103934665603ull;
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    return h;
}

[[noreturn]] void bad_description(const std::string &message, std::string_view part) {
    throw InputError(ErrorCode::bad_argument, "scene description: " + message,
                     {{"field", std::string("description")}, {"part", std::string(part)}});
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

template <std::size_t N> int index_of(const std::array<std::string_view, N> &names, std::string_view word) {
    for (std::size_t i = 0; i < N; ++i)
        if (names[i] == word) return static_cast<int>(i);
    return -1;
}

template <std::size_t N> std::string joined(const std::array<std::string_view, N> &names) {
    std::string out;
    for (std::size_t i = 0; i < N; ++i) out += (i ? ", " : "") + std::string(names[i]);
    return out;
}

int parse_coordinate(std::string_view text, std::string_view part) {
    text = trim(text);
    int value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size())
        bad_description("\"" + std::string(text) + "\" is not a whole number of pixels", part);
    if (value < 0 || value >= image_size)
        bad_description("the position " + std::to_string(value) + " lies outside the " + std::to_string(image_size) +
                            "-pixel image",
                        part);
    return value;
}

} // namespace

std::string Object::words() const {
    return std::string(size_names[large]) + " " + std::string(colour_names[colour]) + " " +
           std::string(shape_names[static_cast<int>(shape)]);
}

std::vector<std::uint8_t> render(const Scene &scene) {
    std::vector<std::uint8_t> pixels(image_bytes);
    core::Rng rng(scene.texture_seed);
    // Background: dark grey, a faint 4-pixel checker and per-pixel noise.
    for (int y = 0; y < image_size; ++y)
        for (int x = 0; x < image_size; ++x) {
            const int checker = ((x >> 2) + (y >> 2)) % 2 * 8;
            for (int c = 0; c < image_channels; ++c) {
                const int noise = static_cast<int>(rng.below(13)) - 6;
                pixels[(y * image_size + x) * image_channels + c] = clamp_byte(60 + 6 * (c == 2) + checker + noise);
            }
        }
    for (const Object &o : scene.objects) {
        const Rgb rgb = colour_values[static_cast<std::size_t>(o.colour)];
        const int r = o.radius();
        for (int dy = -r; dy <= r; ++dy)
            for (int dx = -r; dx <= r; ++dx) {
                const int x = o.x + dx, y = o.y + dy;
                if (x < 0 || x >= image_size || y < 0 || y >= image_size || !inside(o.shape, dx, dy, r)) continue;
                std::uint8_t *p = &pixels[(y * image_size + x) * image_channels];
                const int noise = static_cast<int>(rng.below(21)) - 10;
                p[0] = clamp_byte(rgb.r + noise);
                p[1] = clamp_byte(rgb.g + noise);
                p[2] = clamp_byte(rgb.b + noise);
            }
    }
    return pixels;
}

std::vector<int> caption_order(const Scene &scene) {
    if (scene.objects.empty()) throw std::invalid_argument("caption: the scene has no objects");
    std::vector<int> order(scene.objects.size());
    std::iota(order.begin(), order.end(), 0);
    const bool vertical = axis_of(scene).vertical;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const Object &p = scene.objects[a], &q = scene.objects[b];
        return vertical ? p.y < q.y : p.x < q.x;
    });
    return order;
}

Caption caption(const Scene &scene) {
    const std::vector<int> order = caption_order(scene);
    const bool vertical = axis_of(scene).vertical;
    Caption out;
    for (std::size_t k = 0; k < order.size(); ++k) {
        if (k > 0) {
            const std::vector<std::string> relation =
                vertical ? std::vector<std::string>{"above"} : std::vector<std::string>{"to", "the", "left", "of"};
            for (const auto &w : relation) out.tokens.push_back(w), out.object_of.push_back(-1);
        }
        const Object &o = scene.objects[order[k]];
        for (std::string_view w : {std::string_view("a"), size_names[o.large], colour_names[o.colour],
                                   shape_names[static_cast<int>(o.shape)]}) {
            out.tokens.emplace_back(w);
            out.object_of.push_back(order[k]);
        }
    }
    return out;
}

std::string Caption::text() const {
    std::string out;
    for (std::size_t i = 0; i < tokens.size(); ++i) out += (i ? " " : "") + tokens[i];
    return out;
}

Scene random_scene(core::Rng &rng) {
    for (;;) {
        Scene scene;
        const int count = 1 + static_cast<int>(rng.below(max_objects));
        bool placed = true;
        for (int k = 0; k < count && placed; ++k) {
            Object o;
            o.shape = static_cast<Shape>(rng.below(shape_names.size()));
            o.colour = static_cast<int>(rng.below(colour_names.size()));
            o.large = rng.below(2) == 1;
            const int r = o.radius(), span = image_size - 2 * r - 2;
            placed = false;
            for (int attempt = 0; attempt < 50 && !placed; ++attempt) {
                o.x = r + 1 + static_cast<int>(rng.below(static_cast<std::uint64_t>(span)));
                o.y = r + 1 + static_cast<int>(rng.below(static_cast<std::uint64_t>(span)));
                placed = std::all_of(scene.objects.begin(), scene.objects.end(),
                                     [&](const Object &other) { return apart(o.box(), other.box()); });
            }
            if (placed) scene.objects.push_back(o);
        }
        scene.texture_seed = rng.next_u64();
        if (placed && clear(scene)) return scene;
    }
}

Scene parse_description(std::string_view text, std::uint64_t texture_seed) {
    Scene scene;
    scene.texture_seed = texture_seed;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find(';', start), text.size());
        const std::string_view part = trim(text.substr(start, end - start));
        start = end + 1;
        if (part.empty()) continue;
        if (static_cast<int>(scene.objects.size()) == max_described_objects)
            throw InputError(ErrorCode::limit_exceeded,
                             "scene description: at most " + std::to_string(max_described_objects) + " objects",
                             {{"field", std::string("description")}, {"limit", std::int64_t{max_described_objects}}});
        const std::size_t at = part.find(" at ");
        if (at == std::string_view::npos) bad_description("\"" + std::string(part) + "\" has no \"at x,y\"", part);
        std::vector<std::string_view> words;
        for (std::string_view rest = part.substr(0, at); !trim(rest).empty();) {
            rest = trim(rest);
            const std::size_t space = std::min(rest.find(' '), rest.size());
            words.push_back(rest.substr(0, space));
            rest = rest.substr(space);
        }
        if (words.size() != 3)
            bad_description("\"" + std::string(part) + "\" should be <size> <colour> <shape> at <x>,<y>", part);
        Object o;
        const int size = index_of(size_names, words[0]), colour = index_of(colour_names, words[1]),
                  shape = index_of(shape_names, words[2]);
        if (size < 0)
            bad_description("unknown size \"" + std::string(words[0]) + "\" (" + joined(size_names) + ")", part);
        if (colour < 0)
            bad_description("unknown colour \"" + std::string(words[1]) + "\" (" + joined(colour_names) + ")", part);
        if (shape < 0)
            bad_description("unknown shape \"" + std::string(words[2]) + "\" (" + joined(shape_names) + ")", part);
        o.large = size == 1;
        o.colour = colour;
        o.shape = static_cast<Shape>(shape);
        const std::string_view position = part.substr(at + 4);
        const std::size_t comma = position.find(',');
        if (comma == std::string_view::npos) bad_description("the position should be <x>,<y>", part);
        o.x = parse_coordinate(position.substr(0, comma), part);
        o.y = parse_coordinate(position.substr(comma + 1), part);
        scene.objects.push_back(o);
    }
    if (scene.objects.empty())
        throw InputError(ErrorCode::empty_input, "scene description: no objects (e.g. \"small red circle at 10,12\")",
                         {{"field", std::string("description")}});
    return scene;
}

std::string describe(const Scene &scene) {
    std::string out;
    for (std::size_t k = 0; k < scene.objects.size(); ++k) {
        const Object &o = scene.objects[k];
        out += (k ? "; " : "") + o.words() + " at " + std::to_string(o.x) + "," + std::to_string(o.y);
    }
    return out;
}

std::string composition(const Scene &scene) {
    std::vector<std::string> parts;
    for (const Object &o : scene.objects) parts.push_back(o.words());
    std::sort(parts.begin(), parts.end());
    std::string out;
    for (std::size_t k = 0; k < parts.size(); ++k) out += (k ? "|" : "") + parts[k];
    return out;
}

bool heldout_composition(const Scene &scene) { return fnv1a(composition(scene)) % 8 == 0; }

ScenesData make_scenes(std::uint64_t seed, std::size_t train_count, std::size_t heldout_count) {
    core::Rng rng(seed);
    ScenesData data;
    fill_sides(data.train, data.heldout, train_count, heldout_count, [&rng](auto side_for) {
        Scene scene = random_scene(rng);
        if (auto *side = side_for(heldout_composition(scene))) {
            Sample sample;
            sample.pixels = render(scene);
            sample.caption = caption(scene);
            sample.scene = std::move(scene);
            side->push_back(std::move(sample));
        }
    });
    data.max_target_len = max_caption_tokens + 2;
    return data;
}

std::vector<std::uint8_t> to_model_image(std::span<const std::uint8_t> bytes, int width, int height, int channels) {
    auto bad_argument = [](const std::string &message, const char *name, std::int64_t limit) {
        throw InputError(ErrorCode::bad_argument, "image: " + message, {{"name", std::string(name)}, {"limit", limit}});
    };
    if (channels != 3 && channels != 4) bad_argument("channels must be 3 (RGB) or 4 (RGBA)", "channels", 4);
    if (width < 1 || height < 1) bad_argument("the image has no pixels", width < 1 ? "width" : "height", 1);
    if (width > max_upload_side || height > max_upload_side)
        throw InputError(ErrorCode::limit_exceeded,
                         "image: " + std::to_string(width) + " x " + std::to_string(height) +
                             " pixels is larger than the " + std::to_string(max_upload_side) + " x " +
                             std::to_string(max_upload_side) + " this engine reads",
                         {{"name", std::string(width > max_upload_side ? "width" : "height")},
                          {"limit", std::int64_t{max_upload_side}}});
    const std::int64_t want = std::int64_t{width} * height * channels;
    if (static_cast<std::int64_t>(bytes.size()) != want)
        bad_argument(std::to_string(bytes.size()) + " bytes for " + std::to_string(width) + " x " +
                         std::to_string(height) + " pixels of " + std::to_string(channels) + " bytes (" +
                         std::to_string(want) + ")",
                     "bytes", want);
    std::vector<std::uint8_t> out(image_bytes);
    for (int oy = 0; oy < image_size; ++oy) {
        // Source rows [y0, y1) and columns [x0, x1) of this output pixel, at least one of each.
        const int y0 = oy * height / image_size, y1 = std::max(y0 + 1, (oy + 1) * height / image_size);
        for (int ox = 0; ox < image_size; ++ox) {
            const int x0 = ox * width / image_size, x1 = std::max(x0 + 1, (ox + 1) * width / image_size);
            std::int64_t sum[3] = {0, 0, 0};
            for (int y = y0; y < y1; ++y)
                for (int x = x0; x < x1; ++x)
                    for (int c = 0; c < 3; ++c)
                        sum[c] += bytes[(static_cast<std::size_t>(y) * width + x) * channels + c];
            const std::int64_t n = std::int64_t{y1 - y0} * (x1 - x0);
            for (int c = 0; c < 3; ++c)
                out[(oy * image_size + ox) * image_channels + c] = static_cast<std::uint8_t>((sum[c] + n / 2) / n);
        }
    }
    return out;
}

std::vector<std::string> caption_words() {
    std::vector<std::string> out = {"a", "above", "to", "the", "left", "of"};
    for (auto names : {std::vector<std::string_view>(size_names.begin(), size_names.end()),
                       std::vector<std::string_view>(colour_names.begin(), colour_names.end()),
                       std::vector<std::string_view>(shape_names.begin(), shape_names.end())})
        for (std::string_view w : names) out.emplace_back(w);
    return out;
}

} // namespace apg::tasks::scenes
