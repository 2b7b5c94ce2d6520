#include "models/rnn_encoder.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace apg::models {

namespace {

void check_inputs(const EncoderParams &params, const std::vector<int> &ids, const std::vector<int> &lengths) {
    const std::size_t B = lengths.size();
    if (B == 0) throw std::invalid_argument("encoder: empty batch");
    if (ids.size() % B != 0)
        throw std::invalid_argument("encoder: " + std::to_string(ids.size()) + " ids do not fill " + std::to_string(B) +
                                    " nn::rows");
    const int N = static_cast<int>(ids.size() / B);
    for (std::size_t b = 0; b < B; ++b)
        if (lengths[b] < 1 || lengths[b] > N)
            throw std::invalid_argument("encoder: source length " + std::to_string(lengths[b]) + " is outside [1, " +
                                        std::to_string(N) + "]");
    const int V = static_cast<int>(params.embedding.rows());
    for (std::size_t i = 0; i < ids.size(); ++i)
        if (ids[i] < 0 || ids[i] >= V)
            throw std::invalid_argument("encoder: token id " + std::to_string(ids[i]) +
                                        " is outside the source vocabulary of " + std::to_string(V));
}

std::span<const std::uint8_t> mask_at(const EncoderCache &c, int t) {
    return {c.mask.data() + static_cast<std::size_t>(t) * c.batch, static_cast<std::size_t>(c.batch)};
}

} // namespace

void encoder_forward(const EncoderParams &params, bool bidirectional, const std::vector<int> &ids,
                     const std::vector<int> &lengths, EncoderCache &c) {
    check_inputs(params, ids, lengths);
    const int B = static_cast<int>(lengths.size()), N = static_cast<int>(ids.size() / lengths.size());
    const Eigen::Index E = params.embedding.cols(), He = params.fwd.hidden();
    c.batch = B;
    c.steps = N;
    c.ids = ids;
    c.lengths = lengths;
    c.mask.assign(static_cast<std::size_t>(N) * B, 0);
    for (int t = 0; t < N; ++t)
        for (int b = 0; b < B; ++b) c.mask[static_cast<std::size_t>(t) * B + b] = t < lengths[b] ? 1 : 0;

    c.inputs.resize(N * B, E);
    for (int r = 0; r < N * B; ++r) c.inputs.row(r) = params.embedding.row(ids[r]);

    c.proj_fwd.resize(N * B, 3 * He);
    nn::gru_input_projection(params.fwd, nn::whole(std::as_const(c.inputs)), nn::whole(c.proj_fwd));
    c.states_fwd.resize((N + 1) * B, He);
    nn::rows(c.states_fwd, 0, B).setZero();
    if (static_cast<int>(c.steps_fwd.size()) < N) c.steps_fwd.resize(N);
    for (int t = 0; t < N; ++t)
        nn::gru_step_forward(params.fwd, nn::rows(std::as_const(c.proj_fwd), t * B, B),
                             nn::rows(std::as_const(c.states_fwd), t * B, B), nn::rows(c.states_fwd, (t + 1) * B, B),
                             c.steps_fwd[t], mask_at(c, t));

    if (bidirectional) {
        c.proj_bwd.resize(N * B, 3 * He);
        nn::gru_input_projection(params.bwd, nn::whole(std::as_const(c.inputs)), nn::whole(c.proj_bwd));
        c.states_bwd.resize((N + 1) * B, He);
        nn::rows(c.states_bwd, N * B, B).setZero();
        if (static_cast<int>(c.steps_bwd.size()) < N) c.steps_bwd.resize(N);
        // Padded positions come first in reverse order; the mask holds the zero state through them.
        for (int t = N - 1; t >= 0; --t)
            nn::gru_step_forward(params.bwd, nn::rows(std::as_const(c.proj_bwd), t * B, B),
                                 nn::rows(std::as_const(c.states_bwd), (t + 1) * B, B),
                                 nn::rows(c.states_bwd, t * B, B), c.steps_bwd[t], mask_at(c, t));
    }

    const Eigen::Index dh = bidirectional ? 2 * He : He;
    c.outputs.resize(B);
    for (int b = 0; b < B; ++b) {
        Mat &H = c.outputs[b];
        H.resize(lengths[b], dh);
        for (int j = 0; j < lengths[b]; ++j) {
            H.row(j).head(He) = c.states_fwd.row((j + 1) * B + b);
            if (bidirectional) H.row(j).tail(He) = c.states_bwd.row(j * B + b);
        }
    }
}

void encoder_backward(const EncoderParams &params, bool bidirectional, EncoderCache &c,
                      const std::vector<Mat> &d_outputs, EncoderParams &grads) {
    const int B = c.batch, N = c.steps;
    const Eigen::Index He = params.fwd.hidden();
    if (static_cast<int>(d_outputs.size()) != B)
        throw std::invalid_argument("encoder backward: " + std::to_string(d_outputs.size()) +
                                    " output gradients for a batch of " + std::to_string(B));
    // Scatter dL/dH_b into per-direction, time-major gradients of the emitted states.
    c.d_states_fwd.setZero(N * B, He);
    if (bidirectional) c.d_states_bwd.setZero(N * B, He);
    for (int b = 0; b < B; ++b) {
        const Mat &dH = d_outputs[b];
        if (dH.rows() != c.lengths[b] || dH.cols() != (bidirectional ? 2 * He : He))
            throw std::invalid_argument("encoder backward: output gradient " + std::to_string(b) + " has shape " +
                                        std::to_string(dH.rows()) + "x" + std::to_string(dH.cols()));
        for (int j = 0; j < c.lengths[b]; ++j) {
            c.d_states_fwd.row(j * B + b) = dH.row(j).head(He);
            if (bidirectional) c.d_states_bwd.row(j * B + b) = dH.row(j).tail(He);
        }
    }

    c.d_proj_fwd.resize(N * B, 3 * He);
    c.carry.setZero(B, He);
    for (int t = N - 1; t >= 0; --t) {
        nn::rows(c.carry, 0, B) += nn::rows(std::as_const(c.d_states_fwd), t * B, B);
        // carry is now the total gradient of →h_t; carry_next collects that of →h_{t-1}
        c.carry_next.setZero(B, He);
        nn::gru_step_backward(params.fwd, nn::rows(std::as_const(c.states_fwd), t * B, B), c.steps_fwd[t],
                              nn::whole(std::as_const(c.carry)), nn::rows(c.d_proj_fwd, t * B, B),
                              nn::whole(c.carry_next), grads.fwd, c.d_hidden_proj, mask_at(c, t));
        std::swap(c.carry, c.carry_next);
    }
    c.d_inputs.resize(N * B, params.embedding.cols());
    nn::MatMap d_inputs = nn::whole(c.d_inputs);
    nn::gru_input_projection_backward(params.fwd, nn::whole(std::as_const(c.inputs)),
                                      nn::whole(std::as_const(c.d_proj_fwd)), grads.fwd, &d_inputs, false);

    if (bidirectional) {
        c.d_proj_bwd.resize(N * B, 3 * He);
        c.carry.setZero(B, He);
        for (int t = 0; t < N; ++t) {
            nn::rows(c.carry, 0, B) += nn::rows(std::as_const(c.d_states_bwd), t * B, B);
            c.carry_next.setZero(B, He);
            nn::gru_step_backward(params.bwd, nn::rows(std::as_const(c.states_bwd), (t + 1) * B, B), c.steps_bwd[t],
                                  nn::whole(std::as_const(c.carry)), nn::rows(c.d_proj_bwd, t * B, B),
                                  nn::whole(c.carry_next), grads.bwd, c.d_hidden_proj, mask_at(c, t));
            std::swap(c.carry, c.carry_next);
        }
        nn::gru_input_projection_backward(params.bwd, nn::whole(std::as_const(c.inputs)),
                                          nn::whole(std::as_const(c.d_proj_bwd)), grads.bwd, &d_inputs, true);
    }
    for (int r = 0; r < N * B; ++r) grads.embedding.row(c.ids[r]) += c.d_inputs.row(r);
}

} // namespace apg::models
