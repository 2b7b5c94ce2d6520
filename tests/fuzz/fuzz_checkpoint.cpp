// libFuzzer target: checkpoint bytes → Model::load → decode (greedy session, a forced token, back,
// beam search) → export (trace JSON and .npy) → save and load again. A text model decodes text of
// its own vocabulary, an audio model a few frames, an image model a picture of its size. Every
// rejection must be a coded error; anything else (a crash, a sanitizer report, an uncoded
// exception, a round trip that changes the model) is a finding.
#include "core/error.hpp"
#include "decode/session.hpp"
#include "io/model.hpp"
#include "trace/trace.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

namespace {

[[noreturn]] void finding(const char *what, const std::string &detail) {
    std::fprintf(stderr, "fuzz_checkpoint: %s: %s\n", what, detail.c_str());
    std::abort();
}

// Some text the model's source vocabulary can read: its first tokens, joined its way.
std::string sample_text(const apg::io::Model &model) {
    const apg::io::Vocabulary &vocab = model.source_vocab();
    std::vector<int> ids;
    for (int id = apg::io::Vocabulary::unk + 1; id < vocab.size() && static_cast<int>(ids.size()) < 4; ++id)
        ids.push_back(id);
    return vocab.join(ids);
}

// What the model reads, encoded: text, frames or pixels (a fixed pattern, so a run is reproducible).
apg::models::EncoderOutput sample_input(const apg::io::Model &model) {
    const apg::models::ModelConfig &c = model.config();
    if (c.encoder == apg::models::EncoderKind::audio) {
        // A few frames bound the work per input (the frame count itself is the speech target's).
        const int frames = std::min(c.max_source_len, 20);
        std::vector<float> values(static_cast<std::size_t>(frames) * static_cast<std::size_t>(c.input_dim));
        for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>((i * 37) % 256) / 64.0f;
        return model.network().encode_audio(values);
    }
    if (c.encoder == apg::models::EncoderKind::conv) {
        std::vector<std::uint8_t> pixels(static_cast<std::size_t>(c.image_size) * c.image_size * 3);
        for (std::size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<std::uint8_t>(i * 53);
        return model.network().encode_image(pixels);
    }
    return model.network().encode(model.encode_source(sample_text(model)));
}

void exercise(const apg::io::Model &model) {
    apg::models::EncoderOutput encoded;
    try {
        encoded = sample_input(model);
    } catch (const apg::Error &) {
        return; // e.g. a vocabulary whose tokens join to something else, or max_source_len 1
    }
    apg::decode::SessionOptions options;
    options.max_steps = 8; // bounded work per input; the lengths themselves are checked by load
    apg::decode::DecodeSession session(model.network(), encoded, options);
    apg::trace::Trace trace;
    while (!session.done()) {
        session.step();
        trace.steps.push_back(apg::decode::to_record(session.steps().back(), static_cast<int>(trace.steps.size())));
    }
    if (session.back() && !session.done()) session.force(model.config().target_vocab - 1);
    apg::decode::beam_search(model.network(), session.encoded(), 2, options);
    (void)trace.to_json().dump();
    (void)trace.to_npy();

    const std::vector<std::uint8_t> saved = model.save();
    const apg::io::Model again = apg::io::Model::load(saved);
    if (again.save() != saved) finding("round trip", "save(load(save(m))) differs from save(m)");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    try {
        const apg::io::Model model = apg::io::Model::load(std::span<const std::uint8_t>(data, size));
        exercise(model);
    } catch (const apg::Error &) {
        // a coded rejection: what hostile bytes should get
    } catch (const std::exception &e) {
        finding("uncoded exception", e.what());
    }
    return 0;
}
