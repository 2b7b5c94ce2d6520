#include "attention/softmax_terms.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace apg::attention {

SoftmaxTerms softmax_terms(const Vec &scores, const StepOptions &options) {
    const Eigen::Index n = scores.size();
    const auto &mask = options.mask;
    if (!mask.empty() && static_cast<Eigen::Index>(mask.size()) != n)
        throw std::invalid_argument("softmax_terms: mask has " + std::to_string(mask.size()) + " entries for " +
                                    std::to_string(n) + " scores");
    check_temperature("softmax_terms", options.temperature);
    auto on = [&](Eigen::Index j) { return mask.empty() || mask[static_cast<std::size_t>(j)] != 0; };

    SoftmaxTerms t;
    t.max_score = -std::numeric_limits<float>::infinity();
    int unmasked = 0;
    for (Eigen::Index j = 0; j < n; ++j)
        if (on(j)) {
            ++unmasked;
            t.max_score = std::max(t.max_score, scores[j]);
        }
    if (unmasked == 0)
        throw std::invalid_argument("softmax_terms: every one of the " + std::to_string(n) +
                                    " positions is masked, so there is nothing to attend to");
    t.exps = Vec::Zero(n);
    double sum = 0;
    for (Eigen::Index j = 0; j < n; ++j)
        if (on(j)) {
            t.exps[j] = std::exp((scores[j] - t.max_score) / options.temperature);
            sum += t.exps[j];
        }
    t.exp_sum = static_cast<float>(sum);
    double entropy = 0;
    for (Eigen::Index j = 0; j < n; ++j) {
        const double a = t.exps[j] / sum;
        if (a > 0) entropy -= a * std::log(a);
    }
    t.entropy = static_cast<float>(entropy);
    t.max_entropy = static_cast<float>(std::log(static_cast<double>(unmasked)));
    return t;
}

} // namespace apg::attention
