#include "models/audio_encoder.hpp"

#include "nn/time_reduction.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace apg::models {

namespace {

std::span<const std::uint8_t> mask_at(const BiGruLayerCache &c, int t) {
    return {c.mask.data() + static_cast<std::size_t>(t) * c.batch, static_cast<std::size_t>(c.batch)};
}

// c.inputs, c.batch, c.steps and c.lengths set: runs both directions and fills c.output.
void bigru_forward(const nn::GruParams &fwd, const nn::GruParams &bwd, BiGruLayerCache &c) {
    const int B = c.batch, N = c.steps;
    const Eigen::Index He = fwd.hidden();
    c.mask.assign(static_cast<std::size_t>(N) * B, 0);
    for (int t = 0; t < N; ++t)
        for (int b = 0; b < B; ++b) c.mask[static_cast<std::size_t>(t) * B + b] = t < c.lengths[b] ? 1 : 0;
    c.proj_fwd.resize(N * B, 3 * He);
    c.proj_bwd.resize(N * B, 3 * He);
    nn::gru_input_projection(fwd, nn::whole(std::as_const(c.inputs)), nn::whole(c.proj_fwd));
    nn::gru_input_projection(bwd, nn::whole(std::as_const(c.inputs)), nn::whole(c.proj_bwd));
    c.states_fwd.resize((N + 1) * B, He);
    c.states_bwd.resize((N + 1) * B, He);
    nn::rows(c.states_fwd, 0, B).setZero();
    nn::rows(c.states_bwd, N * B, B).setZero();
    if (static_cast<int>(c.steps_fwd.size()) < N) c.steps_fwd.resize(N), c.steps_bwd.resize(N);
    for (int t = 0; t < N; ++t)
        nn::gru_step_forward(fwd, nn::rows(std::as_const(c.proj_fwd), t * B, B),
                             nn::rows(std::as_const(c.states_fwd), t * B, B), nn::rows(c.states_fwd, (t + 1) * B, B),
                             c.steps_fwd[t], mask_at(c, t));
    // Padded steps come first in reverse order; the mask holds the zero state through them.
    for (int t = N - 1; t >= 0; --t)
        nn::gru_step_forward(bwd, nn::rows(std::as_const(c.proj_bwd), t * B, B),
                             nn::rows(std::as_const(c.states_bwd), (t + 1) * B, B), nn::rows(c.states_bwd, t * B, B),
                             c.steps_bwd[t], mask_at(c, t));
    c.output.setZero(N * B, 2 * He);
    for (int t = 0; t < N; ++t)
        for (int b = 0; b < B; ++b) {
            if (t >= c.lengths[b]) continue;
            c.output.row(t * B + b).head(He) = c.states_fwd.row((t + 1) * B + b);
            c.output.row(t * B + b).tail(He) = c.states_bwd.row(t * B + b);
        }
}

// c.d_output set (zero at padding): writes c.d_inputs and accumulates the GRUs' gradients.
void bigru_backward(const nn::GruParams &fwd, const nn::GruParams &bwd, BiGruLayerCache &c, nn::GruParams &g_fwd,
                    nn::GruParams &g_bwd) {
    const int B = c.batch, N = c.steps;
    const Eigen::Index He = fwd.hidden();
    c.d_proj_fwd.resize(N * B, 3 * He);
    c.carry.setZero(B, He);
    for (int t = N - 1; t >= 0; --t) {
        nn::rows(c.carry, 0, B) += c.d_output.block(t * B, 0, B, He);
        c.carry_next.setZero(B, He);
        nn::gru_step_backward(fwd, nn::rows(std::as_const(c.states_fwd), t * B, B), c.steps_fwd[t],
                              nn::whole(std::as_const(c.carry)), nn::rows(c.d_proj_fwd, t * B, B),
                              nn::whole(c.carry_next), g_fwd, c.d_hidden_proj, mask_at(c, t));
        std::swap(c.carry, c.carry_next);
    }
    c.d_proj_bwd.resize(N * B, 3 * He);
    c.carry.setZero(B, He);
    for (int t = 0; t < N; ++t) {
        nn::rows(c.carry, 0, B) += c.d_output.block(t * B, He, B, He);
        c.carry_next.setZero(B, He);
        nn::gru_step_backward(bwd, nn::rows(std::as_const(c.states_bwd), (t + 1) * B, B), c.steps_bwd[t],
                              nn::whole(std::as_const(c.carry)), nn::rows(c.d_proj_bwd, t * B, B),
                              nn::whole(c.carry_next), g_bwd, c.d_hidden_proj, mask_at(c, t));
        std::swap(c.carry, c.carry_next);
    }
    c.d_inputs.resize(N * B, c.inputs.cols());
    nn::MatMap d_inputs = nn::whole(c.d_inputs);
    nn::gru_input_projection_backward(fwd, nn::whole(std::as_const(c.inputs)), nn::whole(std::as_const(c.d_proj_fwd)),
                                      g_fwd, &d_inputs, false);
    nn::gru_input_projection_backward(bwd, nn::whole(std::as_const(c.inputs)), nn::whole(std::as_const(c.d_proj_bwd)),
                                      g_bwd, &d_inputs, true);
}

} // namespace

int AudioEncoderConfig::states_for(int frames) const {
    for (int r = 0; r < reductions; ++r) frames = nn::reduced_length(frames);
    return frames;
}

AudioEncoderConfig audio_config(const ModelConfig &c) { return {c.input_dim, c.encoder_hidden, c.reductions}; }

void AudioEncoderParams::list(core::ParamList out, const AudioEncoderConfig &c) {
    out.count("fwd", fwd, static_cast<std::size_t>(c.layers()));
    out.count("bwd", bwd, static_cast<std::size_t>(c.layers()));
    for (int r = 0; r < c.layers(); ++r) {
        const core::ParamList layer = out.sub("layers").sub(std::to_string(r));
        const int input = r == 0 ? c.input_dim : 4 * c.hidden;
        fwd[r].list(layer.sub("fwd"), input, c.hidden);
        bwd[r].list(layer.sub("bwd"), input, c.hidden);
    }
}

AudioEncoderParams AudioEncoderParams::init(const AudioEncoderConfig &c, core::Rng &rng) {
    AudioEncoderParams p;
    for (int r = 0; r < c.layers(); ++r) {
        const int input = r == 0 ? c.input_dim : 4 * c.hidden;
        p.fwd.push_back(nn::GruParams::init(input, c.hidden, rng));
        p.bwd.push_back(nn::GruParams::init(input, c.hidden, rng));
    }
    return p;
}

void audio_encoder_forward(const AudioEncoderParams &params, const AudioEncoderConfig &config,
                           std::span<const float> frames, std::span<const int> lengths, AudioEncoderCache &cache,
                           std::vector<Mat> &states) {
    const int B = static_cast<int>(lengths.size()), F = config.input_dim;
    if (B == 0) throw std::invalid_argument("audio encoder: empty batch");
    if (frames.size() % (static_cast<std::size_t>(B) * F) != 0)
        throw std::invalid_argument("audio encoder: " + std::to_string(frames.size()) + " values do not fill " +
                                    std::to_string(B) + " rows of frames of " + std::to_string(F));
    const int N = static_cast<int>(frames.size() / (static_cast<std::size_t>(B) * F));
    for (int b = 0; b < B; ++b)
        if (lengths[b] < 1 || lengths[b] > N)
            throw std::invalid_argument("audio encoder: length " + std::to_string(lengths[b]) + " outside [1, " +
                                        std::to_string(N) + "]");
    cache.layers.resize(static_cast<std::size_t>(config.layers()));
    for (int r = 0; r < config.layers(); ++r) {
        BiGruLayerCache &c = cache.layers[r];
        c.batch = B;
        if (r == 0) {
            c.steps = N;
            c.lengths.assign(lengths.begin(), lengths.end());
            c.inputs = Eigen::Map<const Mat>(frames.data(), static_cast<Eigen::Index>(N) * B, F);
        } else {
            BiGruLayerCache &prev = cache.layers[r - 1];
            nn::time_reduction_forward(prev.output, B, prev.lengths, c.inputs, c.lengths);
            c.steps = nn::reduced_length(prev.steps);
        }
        bigru_forward(params.fwd[r], params.bwd[r], c);
    }
    const BiGruLayerCache &last = cache.layers.back();
    states.resize(B);
    for (int b = 0; b < B; ++b) {
        states[b].resize(last.lengths[b], last.output.cols());
        for (int t = 0; t < last.lengths[b]; ++t) states[b].row(t) = last.output.row(t * B + b);
    }
}

void audio_encoder_backward(const AudioEncoderParams &params, const AudioEncoderConfig &config,
                            AudioEncoderCache &cache, const std::vector<Mat> &d_states, AudioEncoderParams &grads) {
    BiGruLayerCache &last = cache.layers.back();
    const int B = last.batch;
    if (static_cast<int>(d_states.size()) != B)
        throw std::invalid_argument("audio encoder backward: " + std::to_string(d_states.size()) +
                                    " state gradients for a batch of " + std::to_string(B));
    last.d_output.setZero(last.output.rows(), last.output.cols());
    for (int b = 0; b < B; ++b) {
        if (d_states[b].rows() != last.lengths[b] || d_states[b].cols() != last.output.cols())
            throw std::invalid_argument("audio encoder backward: state gradient " + std::to_string(b) +
                                        " has the wrong shape");
        for (int t = 0; t < last.lengths[b]; ++t) last.d_output.row(t * B + b) = d_states[b].row(t);
    }
    for (int r = config.layers() - 1; r >= 0; --r) {
        BiGruLayerCache &c = cache.layers[r];
        bigru_backward(params.fwd[r], params.bwd[r], c, grads.fwd[r], grads.bwd[r]);
        if (r > 0) {
            BiGruLayerCache &prev = cache.layers[r - 1];
            nn::time_reduction_backward(c.d_inputs, B, prev.steps, prev.lengths, prev.d_output);
        }
    }
}

} // namespace apg::models
