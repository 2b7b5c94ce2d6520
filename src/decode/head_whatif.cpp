// The what-ifs on one head of the Transformer decoder's cross-attention (declared with the others
// in session.hpp): mask a source token for that head alone, pin its weights, switch it off. Run
// once per click, so compiled for size in the wasm build.
#include "decode/ranking.hpp"
#include "decode/session.hpp"

#include <algorithm>
#include <string>

namespace apg::decode {

void WhatIfState::set_heads(int layers, int heads) {
    layers_ = layers;
    heads_ = heads;
    head_masks_.clear();
    head_pins_.clear();
    head_off_.assign(static_cast<std::size_t>(layers) * static_cast<std::size_t>(heads), 0);
}

std::size_t WhatIfState::check_head(int layer, int head) const {
    const std::string where(who_);
    if (layers_ == 0) bad_option("layer", where + ": this model's decoder is a GRU, which has no heads");
    if (layer < 0 || layer >= layers_)
        bad_option("layer",
                   where + ": layer " + std::to_string(layer) + " does not exist (the decoder has " +
                       std::to_string(layers_) + ")",
                   layers_ - 1);
    if (head < 0 || head >= heads_)
        bad_option("head",
                   where + ": head " + std::to_string(head) + " does not exist (each layer has " +
                       std::to_string(heads_) + ")",
                   heads_ - 1);
    return static_cast<std::size_t>(layer) * static_cast<std::size_t>(heads_) + static_cast<std::size_t>(head);
}

bool WhatIfState::any_head_what_if() const {
    return !head_masks_.empty() || !head_pins_.empty() ||
           std::any_of(head_off_.begin(), head_off_.end(), [](std::uint8_t off) { return off != 0; });
}

void WhatIfState::check_heads_keep_a_token(int source_index) const {
    for (std::size_t at = 0; at < head_masks_.size(); ++at) {
        const auto &own = head_masks_[at];
        if (own.empty()) continue;
        bool any = false;
        for (std::size_t j = 0; j < own.size(); ++j)
            any = any || (own[j] && mask_[j] && static_cast<int>(j) != source_index);
        if (!any)
            bad_option("mask", std::string(who_) + ": that would leave layer " + std::to_string(at / heads_) +
                                   ", head " + std::to_string(at % heads_) + " with no source token to attend to");
    }
}

void WhatIfState::mask_head(int layer, int head, int source_index, bool masked) {
    const std::size_t at = check_head(layer, head);
    check_source_index(source_index);
    if (head_masks_.empty()) head_masks_.resize(head_off_.size());
    auto &own = head_masks_[at];
    if (own.empty()) {
        if (!masked) return;
        own.assign(mask_.size(), 1);
    }
    if (masked) {
        bool any = false;
        for (std::size_t j = 0; j < own.size(); ++j)
            any = any || (own[j] && mask_[j] && static_cast<int>(j) != source_index);
        if (!any)
            bad_option("mask", std::string(who_) + ": that would leave layer " + std::to_string(layer) + ", head " +
                                   std::to_string(head) + " with no source token to attend to");
    }
    own[static_cast<std::size_t>(source_index)] = masked ? 0 : 1;
    // A head whose own mask hides nothing has none, so "no what-if" stays an empty list.
    if (std::all_of(own.begin(), own.end(), [](std::uint8_t m) { return m != 0; })) own.clear();
    if (std::all_of(head_masks_.begin(), head_masks_.end(), [](const auto &m) { return m.empty(); }))
        head_masks_.clear();
}

void WhatIfState::pin_head(int layer, int head, int source_index) {
    const std::size_t at = check_head(layer, head);
    check_source_index(source_index);
    if (head_pins_.empty()) head_pins_.resize(head_off_.size());
    head_pins_[at] = Vec::Zero(static_cast<Eigen::Index>(mask_.size()));
    head_pins_[at][source_index] = 1;
}

void WhatIfState::pin_head(int layer, int head, std::span<const float> weights) {
    const std::size_t at = check_head(layer, head);
    Vec pinned = normalized(weights);
    if (head_pins_.empty()) head_pins_.resize(head_off_.size());
    head_pins_[at] = std::move(pinned);
}

void WhatIfState::switch_head(int layer, int head, bool on) { head_off_[check_head(layer, head)] = on ? 0 : 1; }

models::TransformerEdits WhatIfState::edits(const attention::StepOptions &used) const {
    models::TransformerEdits e;
    e.mask.assign(used.mask.begin(), used.mask.end());
    e.temperature = used.temperature;
    e.weights.assign(used.weights.begin(), used.weights.end());
    e.head_masks = head_masks_;
    if (!head_pins_.empty()) {
        e.head_weights.resize(head_pins_.size());
        for (std::size_t at = 0; at < head_pins_.size(); ++at)
            e.head_weights[at].assign(head_pins_[at].data(), head_pins_[at].data() + head_pins_[at].size());
    }
    if (std::any_of(head_off_.begin(), head_off_.end(), [](std::uint8_t off) { return off != 0; }))
        e.head_off = head_off_;
    return e;
}

} // namespace apg::decode
