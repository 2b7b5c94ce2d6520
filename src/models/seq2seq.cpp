#include "models/seq2seq.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace apg::models {

Seq2Seq::Seq2Seq(const ModelConfig &config, std::uint64_t seed)
    : config_(config), params_(init_parameters(config, seed)) {}

Seq2Seq::Seq2Seq(const ModelConfig &config, Parameters params) : config_(config), params_(std::move(params)) {
    config_.validate();
    models::tensors(params_, config_);
}

Mat fixed_vector(const ModelConfig &config, const Mat &H) {
    const Eigen::Index n = H.rows(), dh = H.cols();
    if (n == 0) throw std::invalid_argument("fixed vector: no encoder states");
    if (!config.bidirectional) return H.bottomRows(1);
    const Eigen::Index He = dh / 2;
    Mat out(1, dh);
    out.leftCols(He) = H.block(n - 1, 0, 1, He); // forward GRU after the last token
    out.rightCols(He) = H.block(0, He, 1, He);   // backward GRU after the first token
    return out;
}

void fixed_vector_backward(const ModelConfig &config, const Mat &d_fixed, Mat &d_H) {
    const Eigen::Index n = d_H.rows(), dh = d_H.cols();
    if (!config.bidirectional) {
        d_H.bottomRows(1) += d_fixed;
        return;
    }
    const Eigen::Index He = dh / 2;
    d_H.block(n - 1, 0, 1, He) += d_fixed.leftCols(He);
    d_H.block(0, He, 1, He) += d_fixed.rightCols(He);
}

namespace {

const TransformerDecoding &transformer_decoding_or_throw() {
    if (!transformer_decoding)
        throw StateError(ErrorCode::bad_state, "this module does not include the Transformer decoder (the trainer "
                                               "module does: models::register_transformer_decoder)");
    return *transformer_decoding;
}

} // namespace

EncoderOutput Seq2Seq::encode(std::span<const int> ids) const {
    if (config_.encoder == EncoderKind::conv || config_.encoder == EncoderKind::audio)
        throw InputError(ErrorCode::bad_argument,
                         std::string("encode: this model reads ") +
                             (config_.encoder == EncoderKind::conv ? "images" : "sound") + ", not text",
                         {{"name", std::string("encoder")}});
    if (ids.empty()) throw std::invalid_argument("encode: the source is empty");
    if (static_cast<int>(ids.size()) > config_.max_source_len)
        throw std::invalid_argument("encode: the source has " + std::to_string(ids.size()) +
                                    " tokens, this model accepts at most " + std::to_string(config_.max_source_len));
    EncoderOutput out;
    out.ids.assign(ids.begin(), ids.end());
    if (config_.encoder == EncoderKind::gru) {
        EncoderCache cache;
        encoder_forward(params_.encoder, config_.bidirectional, out.ids, {static_cast<int>(ids.size())}, cache);
        out.states = std::move(cache.outputs[0]);
    } else {
        auto cache = std::make_shared<TransformerEncoderCache>();
        transformer_encoder_forward(params_.transformer, ids, {}, *cache);
        out.states = cache->output;
        out.self_attention = std::move(cache);
    }
    if (config_.decoder == DecoderKind::transformer) {
        auto memory = std::make_shared<TransformerMemory>();
        transformer_decoding_or_throw().prepare(params_.transformer_decoder, out.states, *memory);
        out.transformer = std::move(memory);
        return out;
    }
    if (config_.score == attention::ScoreKind::none) {
        out.fixed = fixed_vector(config_, out.states);
        decoder_initial_state(params_.decoder, out.fixed, out.mean_state, out.initial_state);
        return out;
    }
    out.keys = attention::prepare_keys(params_.decoder.attn, out.states);
    decoder_initial_state(params_.decoder, out.states, out.mean_state, out.initial_state);
    return out;
}

Batch make_batch(const std::vector<std::vector<int>> &sources, const std::vector<std::vector<int>> &targets, int pad_id,
                 int start_id, int end_id) {
    if (sources.empty() || sources.size() != targets.size())
        throw std::invalid_argument("batch: " + std::to_string(sources.size()) + " sources and " +
                                    std::to_string(targets.size()) + " targets");
    Batch b;
    b.size = static_cast<int>(sources.size());
    for (std::size_t k = 0; k < sources.size(); ++k) {
        if (sources[k].empty()) throw std::invalid_argument("batch: source " + std::to_string(k) + " is empty");
        b.source_steps = std::max(b.source_steps, static_cast<int>(sources[k].size()));
        b.target_steps = std::max(b.target_steps, static_cast<int>(targets[k].size()) + 1);
    }
    const int B = b.size, N = b.source_steps, T = b.target_steps;
    b.source.assign(static_cast<std::size_t>(N) * B, pad_id);
    b.target_inputs.assign(static_cast<std::size_t>(T) * B, pad_id);
    b.target_outputs.assign(static_cast<std::size_t>(T) * B, -1);
    for (int k = 0; k < B; ++k) {
        const auto &src = sources[k];
        const auto &tgt = targets[k];
        b.source_lengths.push_back(static_cast<int>(src.size()));
        b.target_lengths.push_back(static_cast<int>(tgt.size()) + 1);
        for (std::size_t t = 0; t < src.size(); ++t) b.source[t * B + k] = src[t];
        for (std::size_t t = 0; t <= tgt.size(); ++t) {
            b.target_inputs[t * B + k] = t == 0 ? start_id : tgt[t - 1];
            b.target_outputs[t * B + k] = t == tgt.size() ? end_id : tgt[t];
        }
    }
    return b;
}

DecoderStep Seq2Seq::step(const EncoderOutput &encoded, const Vec &prev_state, int prev_token,
                          const attention::StepOptions &options) const {
    if (config_.decoder == DecoderKind::transformer)
        throw StateError(ErrorCode::bad_state, "step: a transformer decoder steps with transformer_step");
    DecoderStep out;
    const bool fixed = config_.score == attention::ScoreKind::none;
    decoder_step(params_.decoder, config_.style, fixed ? encoded.fixed : encoded.states, encoded.keys, prev_state,
                 prev_token, options, out);
    return out;
}

DecoderStep Seq2Seq::transformer_step(const EncoderOutput &encoded, const KeyValueCache &cache, int prev_token,
                                      const TransformerEdits &edits, bool keep_qkv) const {
    if (config_.decoder != DecoderKind::transformer || !encoded.transformer)
        throw StateError(ErrorCode::bad_state, "transformer_step: this model's decoder is a GRU");
    DecoderStep out;
    transformer_decoding_or_throw().step(params_.transformer_decoder, *encoded.transformer, cache, prev_token, edits,
                                         keep_qkv, out);
    return out;
}

std::vector<DecoderStep> Seq2Seq::greedy(const EncoderOutput &encoded, int start_id, int end_id, int max_steps) const {
    if (max_steps <= 0) max_steps = config_.max_target_len + 1;
    std::vector<DecoderStep> steps;
    if (config_.decoder == DecoderKind::transformer) {
        KeyValueCache cache;
        for (int token = start_id; static_cast<int>(steps.size()) < max_steps && (steps.empty() || token != end_id);) {
            steps.push_back(transformer_step(encoded, cache, token));
            cache.append(*steps.back().transformer);
            Eigen::Index best;
            steps.back().probs.maxCoeff(&best);
            token = static_cast<int>(best);
        }
        return steps;
    }
    Vec state = encoded.initial_state;
    int token = start_id;
    for (int i = 0; i < max_steps; ++i) {
        attention::StepOptions options; // location reads the last step's weights (none at the first)
        if (!steps.empty()) {
            const Vec &last = steps.back().attention.weights;
            options.previous = {last.data(), static_cast<std::size_t>(last.size())};
        }
        steps.push_back(step(encoded, state, token, options));
        Eigen::Index best;
        steps.back().probs.maxCoeff(&best);
        token = static_cast<int>(best);
        state = steps.back().state;
        if (token == end_id) break;
    }
    return steps;
}

BatchResult Seq2Seq::forward_backward(const Batch &batch, Parameters *grads, TrainingWorkspace &ws) const {
    const bool gru = config_.encoder == EncoderKind::gru, conv = config_.encoder == EncoderKind::conv;
    const bool audio = config_.encoder == EncoderKind::audio;
    if (audio)
        audio_encoder_forward(params_.audio, audio_config(config_), batch.frames, batch.source_lengths, ws.audio,
                              ws.audio_states);
    else if (conv)
        conv_encoder_forward(params_.conv, conv_config(config_), batch.images, batch.size, ws.conv, ws.conv_states);
    else if (gru)
        encoder_forward(params_.encoder, config_.bidirectional, batch.source, batch.source_lengths, ws.encoder);
    else
        transformer_encoder_forward_batch(params_.transformer, batch.source, batch.source_lengths, ws.transformer);
    const std::vector<Mat> &states = audio  ? ws.audio_states
                                     : conv ? ws.conv_states
                                     : gru  ? ws.encoder.outputs
                                            : ws.transformer.outputs; // B × (n_b × dh)
    const int B = batch.size;
    // The encoders' backward, after either decoder's has filled ws.d_states (B × (n_b × dh)).
    const auto encoder_backward_pass = [&] {
        if (audio)
            audio_encoder_backward(params_.audio, audio_config(config_), ws.audio, ws.d_states, grads->audio);
        else if (conv)
            conv_encoder_backward(params_.conv, conv_config(config_), ws.conv, ws.d_states, grads->conv);
        else if (gru)
            encoder_backward(params_.encoder, config_.bidirectional, ws.encoder, ws.d_states, grads->encoder);
        else
            transformer_encoder_backward_batch(params_.transformer, ws.transformer, ws.d_states, grads->transformer);
    };
    if (config_.decoder == DecoderKind::transformer) {
        TransformerDecoderBatchCache &td = ws.transformer_decoder;
        transformer_decoder_forward_batch(params_.transformer_decoder, states, batch.target_inputs,
                                          batch.target_outputs, batch.target_lengths, td);
        BatchResult result{td.tokens > 0 ? td.loss_sum / td.tokens : 0.0, td.tokens, td.correct};
        if (!grads || td.tokens == 0) return result;
        ws.d_states.resize(B);
        for (int b = 0; b < B; ++b) ws.d_states[b].setZero(states[b].rows(), states[b].cols());
        transformer_decoder_backward_batch(params_.transformer_decoder, states, td,
                                           1.0f / static_cast<float>(td.tokens), grads->transformer_decoder,
                                           ws.d_states);
        encoder_backward_pass();
        return result;
    }
    // Without attention the decoder reads one row per source, its fixed vector.
    const bool fixed = config_.score == attention::ScoreKind::none;
    if (fixed) {
        ws.fixed.resize(B);
        for (int b = 0; b < B; ++b) ws.fixed[b] = fixed_vector(config_, states[b]);
    }
    const std::vector<Mat> &decoder_states = fixed ? ws.fixed : states;
    ws.keys.resize(B);
    for (int b = 0; b < B; ++b) ws.keys[b] = attention::prepare_keys(params_.decoder.attn, decoder_states[b]);
    decoder_forward(params_.decoder, config_.style, decoder_states, ws.keys, batch.target_inputs, batch.target_outputs,
                    batch.target_lengths, ws.decoder);
    BatchResult result;
    result.tokens = ws.decoder.tokens;
    result.correct = ws.decoder.correct;
    result.loss = ws.decoder.tokens > 0 ? ws.decoder.loss_sum / ws.decoder.tokens : 0.0;
    if (!grads || ws.decoder.tokens == 0) return result;
    ws.d_states.resize(B);
    for (int b = 0; b < B; ++b) ws.d_states[b].setZero(states[b].rows(), states[b].cols());
    if (fixed) {
        ws.d_fixed.resize(B);
        for (int b = 0; b < B; ++b) ws.d_fixed[b].setZero(1, states[b].cols());
    }
    decoder_backward(params_.decoder, config_.style, decoder_states, ws.keys, ws.decoder,
                     1.0f / static_cast<float>(ws.decoder.tokens), grads->decoder, fixed ? ws.d_fixed : ws.d_states);
    if (fixed)
        for (int b = 0; b < B; ++b) fixed_vector_backward(config_, ws.d_fixed[b], ws.d_states[b]);
    encoder_backward_pass();
    return result;
}

} // namespace apg::models
