// The one place that knows which kind of source a pair holds (token ids, an image, frames): a new
// kind of input adds its vector to EncodedPairs and its case to each of these.
#include "train/trainer.hpp"

namespace apg::train {

std::size_t EncodedPairs::source_length(std::size_t k) const {
    if (!frames.empty()) return frames[k].size();
    return images.empty() ? sources[k].size() : 0;
}

models::EncoderOutput EncodedPairs::encode(const models::Seq2Seq &model, std::size_t k) const {
    if (!frames.empty()) return model.encode_audio(frames[k]);
    return images.empty() ? model.encode(sources[k]) : model.encode_image(images[k]);
}

models::Batch EncodedPairs::batch(std::span<const std::size_t> indices, const models::ModelConfig &config,
                                  SpecialTokens tokens) const {
    std::vector<std::vector<int>> batch_targets;
    for (std::size_t k : indices) batch_targets.push_back(targets[k]);
    if (!frames.empty()) {
        std::vector<std::span<const float>> utterances;
        for (std::size_t k : indices) utterances.emplace_back(frames[k]);
        return models::make_audio_batch(utterances, config.input_dim, batch_targets, tokens.pad, tokens.start,
                                        tokens.end);
    }
    if (!images.empty()) {
        std::vector<std::span<const std::uint8_t>> batch_images;
        for (std::size_t k : indices) batch_images.emplace_back(images[k]);
        return models::make_image_batch(batch_images, batch_targets, tokens.pad, tokens.start, tokens.end);
    }
    std::vector<std::vector<int>> batch_sources;
    for (std::size_t k : indices) batch_sources.push_back(sources[k]);
    return models::make_batch(batch_sources, batch_targets, tokens.pad, tokens.start, tokens.end);
}

} // namespace apg::train
