// The scenes task: small RGB images of 1–3 objects (shape, colour, size) over a lightly textured
// background, captioned by a small grammar with spatial relations ("a small red circle above a
// large blue square"). Everything is integer arithmetic and the repo's RNG, so a seed gives the
// same pixels and captions on every platform (natively and in wasm).
//
// The images are 32 × 32: two 2×2 poolings leave an 8 × 8 grid (L = 64 cells of 4 × 4 pixels),
// small enough that the conv encoder trains in minutes on two shared cores and encodes a scene in
// well under the 2 ms budget in wasm; 64 × 64 would cost four times as much per image for the
// same four shapes.
//
// The caption names the objects along the axis they are most spread over: top to bottom joined
// by "above" when the centres spread further vertically, else left to right joined by "to the
// left of". Generated scenes keep that choice clear (the two spreads differ by at least
// min_axis_margin pixels, neighbours along the axis by at least min_axis_gap), so the caption is a
// function of the picture.
#pragma once

#include "core/rng.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace apg::tasks::scenes {

inline constexpr int image_size = 32;
inline constexpr int image_channels = 3;
inline constexpr int image_bytes = image_size * image_size * image_channels;
inline constexpr int max_objects = 3;           // in generated scenes
inline constexpr int max_described_objects = 8; // in a description
inline constexpr int small_radius = 3, large_radius = 6;
// A caption of max_objects objects: four words each and a four-word relation between neighbours.
inline constexpr std::size_t max_caption_tokens = 4 * max_objects + 4 * (max_objects - 1);
inline constexpr int min_axis_margin = 5, min_axis_gap = 5;

enum class Shape { circle, square, triangle, diamond };
inline constexpr std::array<std::string_view, 4> shape_names = {"circle", "square", "triangle", "diamond"};
inline constexpr std::array<std::string_view, 4> colour_names = {"red", "green", "blue", "yellow"};
inline constexpr std::array<std::string_view, 2> size_names = {"small", "large"};

// Pixel rectangle [x0, x1] × [y0, y1], inclusive.
struct Box {
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    bool contains(int x, int y) const { return x >= x0 && x <= x1 && y >= y0 && y <= y1; }
    friend bool operator==(const Box &, const Box &) = default;
};

struct Object {
    Shape shape = Shape::circle;
    int colour = 0;     // index into colour_names
    bool large = false; // size_names[large]
    int x = 0, y = 0;   // centre pixel
    int radius() const { return large ? large_radius : small_radius; }
    Box box() const { return {x - radius(), y - radius(), x + radius(), y + radius()}; }
    std::string words() const; // "small red circle"
    friend bool operator==(const Object &, const Object &) = default;
};

struct Scene {
    std::vector<Object> objects;
    std::uint64_t texture_seed = 0; // the background's and the colours' noise
};

// RGB bytes, row-major (image_size rows of image_size pixels), image_bytes long.
std::vector<std::uint8_t> render(const Scene &scene);

// The caption's tokens, and for each the index into scene.objects of the object it belongs to
// ("small", "red", "circle" and the "a" before them), −1 for the relation words.
struct Caption {
    std::vector<std::string> tokens;
    std::vector<int> object_of;
    std::string text() const;
};
// The objects in caption order (see above) and the caption. Throws std::invalid_argument for a
// scene without objects.
std::vector<int> caption_order(const Scene &scene);
Caption caption(const Scene &scene);

// A random scene of 1–3 objects: non-overlapping boxes at least 2 pixels apart inside the image,
// the caption's axis clear (rejection sampling from rng).
Scene random_scene(core::Rng &rng);

// "small red circle at 10,12; large blue square at 24,20": objects separated by ';', each
// "<size> <colour> <shape> at <x>,<y>" (the centre, pixels from the top left). Throws
// InputError(bad_argument) naming the part that is wrong (details "field", "part"); too many
// objects (more than max_described_objects) or an object whose box leaves the image too.
Scene parse_description(std::string_view text, std::uint64_t texture_seed = 1);
std::string describe(const Scene &scene); // the inverse

// A scene's composition: its objects' (size, colour, shape) as a multiset, order and positions
// ignored. A composition is held out (never in the training set) when its hash falls in 1 of 8.
std::string composition(const Scene &scene);
bool heldout_composition(const Scene &scene);

struct Sample {
    Scene scene;
    std::vector<std::uint8_t> pixels; // render(scene)
    Caption caption;
};

struct ScenesData {
    std::vector<Sample> train, heldout; // disjoint by composition
    std::size_t max_target_len = 0;     // max_caption_tokens + a margin of 2
};

inline constexpr std::size_t default_train_scenes = 12000, default_heldout_scenes = 1000;

// The first train_count training and heldout_count held-out scenes of the seed's stream (each
// scene goes to the side its composition belongs to until that side is full).
ScenesData make_scenes(std::uint64_t seed, std::size_t train_count = default_train_scenes,
                       std::size_t heldout_count = default_heldout_scenes);

// Any picture to the model's input: width × height pixels of 3 (RGB) or 4 (RGBA, alpha ignored)
// bytes, row-major, averaged over the source pixels each of the image_size × image_size output
// pixels covers (integer arithmetic; an image smaller than the input is scaled up by repeating
// pixels). Throws InputError: bad_argument (details "name", "limit") for channels other than 3 or
// 4, a side below 1 or bytes that are not width · height · channels; limit_exceeded (details
// "name", "limit") for a side over max_upload_side.
inline constexpr int max_upload_side = 4096;
std::vector<std::uint8_t> to_model_image(std::span<const std::uint8_t> bytes, int width, int height, int channels);

// Every word a caption can hold, in a fixed order (the target vocabulary's tokens).
std::vector<std::string> caption_words();

} // namespace apg::tasks::scenes
