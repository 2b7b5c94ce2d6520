// The engine's limits, in one place: every check of a file, a text or a decoding request against a
// size uses these numbers, and the bindings hand them to the page (the text box's limit). They are
// far above what the shipped models need (the largest file is under 1 MB, the longest input 33
// tokens) and low enough that nothing a hostile file or text can ask for exhausts a wasm heap or
// runs for more than a moment. The bindings take theirs from here too (and report them all to the
// page through limits()), so the page and the engine cannot disagree.
#pragma once

#include <cstddef>
#include <cstdint>

namespace apg::limits {

// ---- files ----
// A whole .safetensors checkpoint.
inline constexpr std::uint64_t max_file_bytes = 64ull * 1024 * 1024;
// Every JSON text the loader parses (the header, and the config, vocabularies and training record
// inside its metadata strings) is at most this long and nests at most this deep. The header nests
// 3 deep, a vocabulary 2; the depth bound is what keeps recursive walkers (a JS JSON.parse of the
// training record, a recursive destructor) from running out of stack.
inline constexpr std::size_t max_json_bytes = 16ull * 1024 * 1024;
inline constexpr std::size_t max_json_depth = 16;

// ---- vocabularies ----
inline constexpr int max_vocab_tokens = 32768; // tokens in one vocabulary, the specials included
inline constexpr int max_token_bytes = 64;     // UTF-8 bytes in one vocabulary token

// ---- model sizes (a config's fields; checked before anything is allocated) ----
inline constexpr int max_model_dim = 4096; // embedding, hidden sizes, attention_dim, ff_hidden
inline constexpr int max_heads = 64;
inline constexpr int max_layers = 16;
inline constexpr int max_time_reductions = 4; // ×2 time reductions of an audio encoder (÷16 frames)
// Location attention's filters and their (odd) width in source positions.
inline constexpr int max_location_filters = 64;
inline constexpr int max_location_width = 255;
// Pixels per side of an image a model reads or the image module encodes (the max_input_chars of images).
inline constexpr int max_image_side = 256;
// Floats of a conv encoder's widest activation (image_size² × conv_channels): what one encoding of
// an image may allocate is a small multiple of it (the patches of the second convolution are 2.25×).
inline constexpr std::int64_t max_image_activations = std::int64_t{1} << 22;

// ---- inputs ----
inline constexpr int max_input_chars = 2000; // code points in one text to decode (the text box's limit)
inline constexpr int max_input_tokens = 512; // tokens in one source: the bound on a config's max_source_len
// Frames (10 ms each) of one utterance the speech task synthesizes, renders or an audio model
// encodes: the whole woodchuck sentence takes about 300 at the normal rate.
inline constexpr int max_speech_frames = 480;
// The magnitude of one frame value (a band's energy) an audio model encodes or render_audio plays:
// the synthesizer's are at most 255/64, and within this bound 24 bands' sums and a sane model's
// first products stay finite (values near the float maximum overflow them to inf − inf = NaN).
inline constexpr float max_frame_value = 1e6f;

// ---- decoding ----
// Steps of one decoding (its end token included): the bound on a config's max_target_len + 1 and
// on a session's or a beam search's max_steps.
inline constexpr int max_decode_steps = 1024;
inline constexpr int max_beam_width = 64;
// What-ifs one beam search takes (each set by hand on the page, or read from a link).
inline constexpr int max_what_ifs = 1000;
// Every step a decoding keeps holds its logits and probabilities over the target vocabulary, so
// steps × beams × target tokens is what a decoding (and its exports) can grow to: bounded here
// (64 MB of probabilities), for a config's max_target_len and for each session and beam search.
inline constexpr std::int64_t max_decode_floats = std::int64_t{1} << 24;

// ---- memory ----
// The engine's ceiling: a module instance's wasm heap stays under 1 GiB (half of the 2 GiB a wasm32
// heap can grow to) while it holds the largest model file and does one piece of work at a time.
inline constexpr std::int64_t max_heap_bytes = std::int64_t{1} << 30;
// What one piece of work may allocate: a decoding (its encoding, a transformer encoder's per-layer
// caches, every step it keeps, a beam search's hypotheses), one export of it (exportJson,
// exportNpy, selfAttention), or a training run (its parameters, gradients and Adam's moments, a
// mini-batch's forward and backward buffers, its data, an evaluation). Each is added up from the
// config and the input before anything is allocated (core/budget.hpp) and refused past this with
// limit_exceeded naming the product that is too large. A quarter of the ceiling: a model at
// max_file_bytes (its bytes and its parameters), a decoding and its export fit under it together.
inline constexpr std::int64_t max_work_bytes = std::int64_t{1} << 28;

// ---- softmax temperature ----
// τ within [min, max] keeps every exp((e_j − m)/τ) and 1/τ finite for finite scores of either sign
// (below ~3e-39, 1/τ is infinite and (e_j − m)·(1/τ) is 0·∞ = NaN at the maximum).
inline constexpr float min_temperature = 1e-3f;
inline constexpr float max_temperature = 1e3f;

// ---- training (apg::train::Run and own pairs) ----
// Bounds of a training run's configuration: what a browser tab can train in minutes within its
// memory, far above the shipped recipes (embeddings 32-64, hidden 64-128, batch 32, 500-3,000
// steps). Every field of a run is checked against these, and their products against max_work_bytes
// (train/budget.hpp), before anything is allocated.
inline constexpr int max_train_steps = 100000;
inline constexpr int max_steps_per_call = 10000; // mini-batches one Run::step(n) may take
inline constexpr int max_train_batch = 512;
inline constexpr int max_train_dim = 512; // embed and hidden of a run (a model allows max_model_dim)
inline constexpr double min_learning_rate = 1e-6;
inline constexpr double max_learning_rate = 1e30;
inline constexpr int max_eval_examples = 5000;              // held-out pairs one evaluation decodes
inline constexpr std::uint64_t max_seed = (1ull << 53) - 1; // a JS number holds it exactly
// Own pairs (source<TAB>target lines): the text, the pairs and the tokens of one side.
inline constexpr std::size_t max_pairs_bytes = 2000000;
inline constexpr int max_pairs = 50000;
inline constexpr int max_pair_tokens = 128;

// ---- the bindings' arguments (checked before the library sees them) ----
// Numbers in one vector or matrix passed to the sandbox's attend() or to weightDifference().
inline constexpr std::int64_t max_vector_length = std::int64_t{1} << 20;
// How far the copy of a JS call's arguments goes: elements of one array or keys of one object,
// and nesting (a matrix inside attend()'s options is 4 deep).
// The count is over the whole call: every array element, object key and string's UTF-16 units of
// its distinct values (a value the arguments hold twice is copied once; one that holds itself is
// refused), so a copy's cost is linear in the value and bounded.
inline constexpr std::int64_t max_argument_elements = std::int64_t{1} << 24;
inline constexpr std::int64_t max_argument_depth = 8;
// UTF-16 units of one string argument: twice the longest text any binding reads (own pairs, of
// max_pairs_bytes of UTF-8, which has at least as many units), so a text a little too long gets
// its binding's own message, and a longer one is refused (too_long) before it is copied at all.
inline constexpr std::int64_t max_argument_chars = 2 * static_cast<std::int64_t>(max_pairs_bytes);

// ---- messages ----
// Unknown words named one by one in a message (the rest are counted), and how many of them get
// suggestions; a word more than this many code points longer than the longest vocabulary token
// is too far from every token to be a near miss, so it gets no edit-distance search.
inline constexpr int max_named_unknown = 8;
inline constexpr int max_suggested_unknown = 3;
inline constexpr int suggestion_length_margin = 4;

} // namespace apg::limits
