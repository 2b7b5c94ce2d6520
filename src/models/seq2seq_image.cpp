// The image side of the Seq2Seq model: one image through the conv encoder, and image batches.
#include "core/error.hpp"
#include "models/seq2seq.hpp"

#include <string>

namespace apg::models {

EncoderOutput Seq2Seq::encode_image(std::span<const std::uint8_t> pixels) const {
    if (config_.encoder != EncoderKind::conv)
        throw InputError(ErrorCode::bad_argument, "encode_image: this model reads text, not images",
                         {{"name", std::string("encoder")}});
    EncoderOutput out;
    ConvEncoderCache cache;
    std::vector<Mat> states;
    conv_encoder_forward(params_.conv, conv_config(config_), pixels, 1, cache, states);
    out.states = std::move(states[0]);
    out.keys = attention::prepare_keys(params_.decoder.attn, out.states);
    decoder_initial_state(params_.decoder, out.states, out.mean_state, out.initial_state);
    return out;
}

Batch make_image_batch(const std::vector<std::span<const std::uint8_t>> &images,
                       const std::vector<std::vector<int>> &targets, int pad_id, int start_id, int end_id) {
    if (images.empty() || images.size() != targets.size())
        throw std::invalid_argument("batch: " + std::to_string(images.size()) + " images and " +
                                    std::to_string(targets.size()) + " targets");
    // The target side is make_batch's with a one-token stand-in source per image.
    Batch b = make_batch(std::vector<std::vector<int>>(images.size(), std::vector<int>{pad_id}), targets, pad_id,
                         start_id, end_id);
    b.source_steps = 0;
    b.source.clear();
    b.source_lengths.clear();
    for (const auto &image : images) b.images.insert(b.images.end(), image.begin(), image.end());
    return b;
}

} // namespace apg::models
