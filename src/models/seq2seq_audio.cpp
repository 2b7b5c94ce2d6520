// The audio side of the Seq2Seq model: one utterance through the audio encoder, and audio batches.
#include "core/error.hpp"
#include "core/limits.hpp"
#include "models/seq2seq.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace apg::models {

EncoderOutput Seq2Seq::encode_audio(std::span<const float> frames) const {
    if (config_.encoder != EncoderKind::audio)
        throw InputError(ErrorCode::bad_argument, "encode_audio: this model does not read sound",
                         {{"name", std::string("encoder")}});
    const std::size_t F = static_cast<std::size_t>(config_.input_dim);
    if (frames.size() % F != 0)
        throw InputError(ErrorCode::bad_argument,
                         "encode_audio: " + std::to_string(frames.size()) + " values are not whole frames of " +
                             std::to_string(F),
                         {{"name", std::string("frames")}, {"limit", static_cast<std::int64_t>(F)}});
    const std::int64_t n = static_cast<std::int64_t>(frames.size() / F);
    if (n == 0)
        throw InputError(ErrorCode::empty_input, "encode_audio: the utterance has no frames",
                         {{"name", std::string("frames")}});
    if (n > config_.max_source_len)
        throw InputError(ErrorCode::too_long,
                         "encode_audio: the utterance has " + std::to_string(n) + " frames, this model takes at most " +
                             std::to_string(config_.max_source_len),
                         {{"length", n}, {"limit", std::int64_t{config_.max_source_len}}});
    // A value near the float maximum overflows the first products to inf − inf = NaN, and a NaN
    // would make every weight NaN: refused here, whoever the caller.
    for (std::size_t i = 0; i < frames.size(); ++i)
        if (!(std::abs(frames[i]) <= limits::max_frame_value)) {
            char message[128];
            std::snprintf(message, sizeof message, "encode_audio: frame %zu holds %g, outside ±%g", i / F,
                          static_cast<double>(frames[i]), static_cast<double>(limits::max_frame_value));
            throw InputError(
                ErrorCode::bad_argument, message,
                {{"name", std::string("frames")}, {"limit", static_cast<double>(limits::max_frame_value)}});
        }
    EncoderOutput out;
    AudioEncoderCache cache;
    std::vector<Mat> states;
    const int lengths[1] = {static_cast<int>(n)};
    audio_encoder_forward(params_.audio, audio_config(config_), frames, lengths, cache, states);
    out.states = std::move(states[0]);
    out.keys = attention::prepare_keys(params_.decoder.attn, out.states);
    decoder_initial_state(params_.decoder, out.states, out.mean_state, out.initial_state);
    return out;
}

Batch make_audio_batch(const std::vector<std::span<const float>> &utterances, int input_dim,
                       const std::vector<std::vector<int>> &targets, int pad_id, int start_id, int end_id) {
    if (utterances.empty() || utterances.size() != targets.size())
        throw std::invalid_argument("batch: " + std::to_string(utterances.size()) + " utterances and " +
                                    std::to_string(targets.size()) + " targets");
    const std::size_t F = static_cast<std::size_t>(input_dim);
    // The target side is make_batch's with a one-token stand-in source per utterance.
    Batch b = make_batch(std::vector<std::vector<int>>(utterances.size(), std::vector<int>{pad_id}), targets, pad_id,
                         start_id, end_id);
    b.source.clear();
    b.source_lengths.clear();
    b.source_steps = 0;
    for (const auto &u : utterances) {
        if (u.empty() || u.size() % F != 0)
            throw std::invalid_argument("batch: an utterance of " + std::to_string(u.size()) +
                                        " values is not whole frames");
        b.source_lengths.push_back(static_cast<int>(u.size() / F));
        b.source_steps = std::max(b.source_steps, b.source_lengths.back());
    }
    const std::size_t B = utterances.size();
    b.frames.assign(static_cast<std::size_t>(b.source_steps) * B * F, 0.0f);
    for (std::size_t k = 0; k < B; ++k)
        for (int t = 0; t < b.source_lengths[k]; ++t)
            std::copy_n(utterances[k].data() + t * F, F, b.frames.data() + (t * B + k) * F);
    return b;
}

} // namespace apg::models
