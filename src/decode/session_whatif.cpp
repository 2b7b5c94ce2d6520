// The what-ifs of a decoding session and of beam search (mask, pin, temperature): run once per
// click, so compiled for size in the wasm build, apart from the session's steps (session.cpp).
#include "decode/session.hpp"

#include "decode/ranking.hpp"

#include "core/error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace apg::decode {

WhatIfState::WhatIfState(int source_length, float temperature, const char *who)
    : who_(who), mask_(static_cast<std::size_t>(source_length), 1), temperature_(temperature) {}

void WhatIfState::reset(float temperature) {
    std::fill(mask_.begin(), mask_.end(), std::uint8_t{1});
    masked_count_ = 0;
    unpin();
    temperature_ = temperature;
    head_masks_.clear();
    std::fill(head_off_.begin(), head_off_.end(), std::uint8_t{0});
}

attention::StepOptions WhatIfState::options(const attention::StepOptions &base) const {
    attention::StepOptions used = base;
    used.temperature = temperature_;
    if (masked_count_ > 0) used.mask = mask_;
    used.weights = std::span<const float>(pin_.data(), static_cast<std::size_t>(pin_.size()));
    return used;
}

bool WhatIfState::intervened(const attention::StepOptions &used) const {
    return masked_count_ > 0 || pin_kind_ != Pin::none || used.temperature != 1.0f || any_head_what_if();
}

void WhatIfState::note(SessionStep &s, const attention::StepOptions &used) const {
    if (masked_count_ > 0) {
        s.masked.resize(static_cast<Eigen::Index>(mask_.size()));
        for (std::size_t j = 0; j < mask_.size(); ++j) s.masked[static_cast<Eigen::Index>(j)] = mask_[j] ? 0.0f : 1.0f;
    }
    s.pin = pin_kind_;
    s.pinned_token = pinned_token_;
    s.temperature = used.temperature;
    s.intervened = intervened(used);
}

int WhatIfState::check_source_index(int source_index) const {
    const int n = static_cast<int>(mask_.size());
    if (source_index < 0 || source_index >= n) {
        char message[112];
        std::snprintf(message, sizeof message, "%s: source token %d does not exist (the source has %d tokens)", who_,
                      source_index, n);
        bad_option("source_index", message, n - 1);
    }
    return source_index;
}

void WhatIfState::mask(int source_index, bool masked) {
    auto &m = mask_[static_cast<std::size_t>(check_source_index(source_index))];
    if (masked == (m == 0)) return;
    if (masked && masked_count_ + 1 == static_cast<int>(mask_.size()))
        bad_option("mask", std::string(who_) + ": that would mask every source token, leaving nothing to attend to");
    if (masked) check_heads_keep_a_token(source_index);
    m = masked ? 0 : 1;
    masked_count_ += masked ? 1 : -1;
}

void WhatIfState::pin(int source_index) {
    check_source_index(source_index);
    pin_ = Vec::Zero(static_cast<Eigen::Index>(mask_.size()));
    pin_[source_index] = 1;
    pin_kind_ = Pin::token;
    pinned_token_ = source_index;
}

Vec WhatIfState::normalized(std::span<const float> weights) const {
    const std::size_t n = mask_.size();
    char message[128];
    if (weights.size() != n) {
        std::snprintf(message, sizeof message, "%s: %zu weights given for %zu source tokens", who_, weights.size(), n);
        bad_option("weights", message, static_cast<std::int64_t>(n));
    }
    double sum = 0;
    for (std::size_t j = 0; j < n; ++j) {
        if (!std::isfinite(weights[j]) || weights[j] < 0) {
            std::snprintf(message, sizeof message, "%s: weight %zu is %g; weights must be finite and at least 0", who_,
                          j, static_cast<double>(weights[j]));
            bad_option("weights", message);
        }
        sum += weights[j];
    }
    if (!(sum > 0))
        bad_option("weights", std::string(who_) + ": the given weights are all 0, so they cannot be renormalised");
    Vec out(static_cast<Eigen::Index>(n));
    for (std::size_t j = 0; j < n; ++j) out[static_cast<Eigen::Index>(j)] = static_cast<float>(weights[j] / sum);
    return out;
}

void WhatIfState::pin(std::span<const float> weights) {
    pin_ = normalized(weights);
    pin_kind_ = Pin::weights;
    pinned_token_ = -1;
}

void WhatIfState::unpin() {
    pin_.resize(0);
    pin_kind_ = Pin::none;
    pinned_token_ = -1;
    head_pins_.clear();
}

void WhatIfState::set_temperature(float temperature) {
    attention::check_temperature(who_, temperature);
    temperature_ = temperature;
}

} // namespace apg::decode
