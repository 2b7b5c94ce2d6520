// The what-ifs of a decoding session (mask, pin, temperature): run once per click, so compiled
// for size in the wasm build, apart from the session's steps (session.cpp).
#include "decode/session.hpp"

#include "decode/ranking.hpp"

#include "core/error.hpp"

#include <cmath>
#include <cstdio>

namespace apg::decode {

void DecodeSession::note_what_ifs(SessionStep &s, const attention::StepOptions &used) const {
    if (masked_count_ > 0) {
        s.masked.resize(static_cast<Eigen::Index>(mask_.size()));
        for (std::size_t j = 0; j < mask_.size(); ++j) s.masked[static_cast<Eigen::Index>(j)] = mask_[j] ? 0.0f : 1.0f;
    }
    s.pin = pin_kind_;
    s.pinned_token = pinned_token_;
    s.temperature = used.temperature;
    s.intervened = masked_count_ > 0 || pin_kind_ != Pin::none || used.temperature != 1.0f;
}

int DecodeSession::check_source_index(int source_index) const {
    const int n = static_cast<int>(mask_.size());
    if (source_index < 0 || source_index >= n) {
        char message[96];
        std::snprintf(message, sizeof message, "session: source token %d does not exist (the source has %d tokens)",
                      source_index, n);
        bad_option("source_index", message, n - 1);
    }
    return source_index;
}

void DecodeSession::mask(int source_index, bool masked) {
    auto &m = mask_[static_cast<std::size_t>(check_source_index(source_index))];
    if (masked == (m == 0)) return;
    if (masked && masked_count_ + 1 == static_cast<int>(mask_.size()))
        bad_option("mask", "session: that would mask every source token, leaving nothing to attend to");
    m = masked ? 0 : 1;
    masked_count_ += masked ? 1 : -1;
}

void DecodeSession::pin(int source_index) {
    check_source_index(source_index);
    pin_ = Vec::Zero(static_cast<Eigen::Index>(mask_.size()));
    pin_[source_index] = 1;
    pin_kind_ = Pin::token;
    pinned_token_ = source_index;
}

void DecodeSession::pin(std::span<const float> weights) {
    const std::size_t n = mask_.size();
    char message[112];
    if (weights.size() != n) {
        std::snprintf(message, sizeof message, "session: %zu weights given for %zu source tokens", weights.size(), n);
        bad_option("weights", message, static_cast<std::int64_t>(n));
    }
    double sum = 0;
    for (std::size_t j = 0; j < n; ++j) {
        if (!std::isfinite(weights[j]) || weights[j] < 0) {
            std::snprintf(message, sizeof message, "session: weight %zu is %g; weights must be finite and at least 0",
                          j, static_cast<double>(weights[j]));
            bad_option("weights", message);
        }
        sum += weights[j];
    }
    if (!(sum > 0)) bad_option("weights", "session: the given weights are all 0, so they cannot be renormalised");
    pin_.resize(static_cast<Eigen::Index>(n));
    for (std::size_t j = 0; j < n; ++j) pin_[static_cast<Eigen::Index>(j)] = static_cast<float>(weights[j] / sum);
    pin_kind_ = Pin::weights;
    pinned_token_ = -1;
}

void DecodeSession::unpin() {
    pin_.resize(0);
    pin_kind_ = Pin::none;
    pinned_token_ = -1;
}

void DecodeSession::set_temperature(float temperature) {
    attention::check_temperature("session", temperature);
    temperature_ = temperature;
}

} // namespace apg::decode
