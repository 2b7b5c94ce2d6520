#include "nn/cross_entropy.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace apg::nn {

namespace {

void check(const char *op, std::size_t size, int target) {
    if (size == 0) throw std::invalid_argument(std::string(op) + ": no classes");
    if (target < 0 || static_cast<std::size_t>(target) >= size)
        throw std::invalid_argument(std::string(op) + ": target " + std::to_string(target) + " is outside [0, " +
                                    std::to_string(size) + ")");
}

} // namespace

double cross_entropy(core::cfspan logits, int target) {
    check("cross_entropy", logits.size(), target);
    std::size_t best = 0;
    for (std::size_t i = 1; i < logits.size(); ++i)
        if (logits[i] > logits[best]) best = i;
    const double top = logits[best];
    // The largest term is exp(0) = 1; the rest are summed apart so log1p sees them at full precision.
    double rest = 0;
    for (std::size_t i = 0; i < logits.size(); ++i)
        if (i != best) rest += std::exp(static_cast<double>(logits[i]) - top);
    return std::log1p(rest) - (static_cast<double>(logits[static_cast<std::size_t>(target)]) - top);
}

void cross_entropy_backward(core::cfspan probs, int target, float scale, core::fspan d_logits) {
    check("cross_entropy_backward", probs.size(), target);
    if (d_logits.size() != probs.size())
        throw std::invalid_argument("cross_entropy_backward: d_logits has " + std::to_string(d_logits.size()) +
                                    " elements for " + std::to_string(probs.size()) + " classes");
    const auto y = static_cast<std::size_t>(target);
    double others = 0; // Σ_{i≠y} p_i = 1 − p_y without the cancellation
    for (std::size_t i = 0; i < probs.size(); ++i)
        if (i != y) others += probs[i];
    for (std::size_t i = 0; i < probs.size(); ++i) d_logits[i] = scale * probs[i];
    d_logits[y] = static_cast<float>(-scale * others);
}

} // namespace apg::nn
