#include "train/optim.hpp"

#include <cmath>
#include <stdexcept>

namespace apg::train {

Adam::Adam(std::vector<models::TensorRef> params, AdamOptions options) : params_(std::move(params)), options_(options) {
    for (const auto &p : params_) {
        m_.emplace_back(p.data.size(), 0.0f);
        v_.emplace_back(p.data.size(), 0.0f);
    }
}

void Adam::step(const std::vector<models::TensorRef> &grads) {
    if (grads.size() != params_.size())
        throw std::invalid_argument("adam: " + std::to_string(grads.size()) + " gradients for " +
                                    std::to_string(params_.size()) + " parameters");
    ++steps_;
    const float b1 = options_.beta1, b2 = options_.beta2;
    const float correction1 = 1.0f - static_cast<float>(std::pow(b1, steps_));
    const float correction2 = 1.0f - static_cast<float>(std::pow(b2, steps_));
    const float step_size = options_.learning_rate / correction1;
    const float inv_sqrt_c2 = 1.0f / std::sqrt(correction2);
    for (std::size_t t = 0; t < params_.size(); ++t) {
        if (grads[t].data.size() != params_[t].data.size())
            throw std::invalid_argument("adam: gradient of " + params_[t].name + " has the wrong size");
        float *p = params_[t].data.data();
        const float *g = grads[t].data.data();
        float *m = m_[t].data(), *v = v_[t].data();
        const std::size_t n = params_[t].data.size();
        for (std::size_t i = 0; i < n; ++i) {
            m[i] = b1 * m[i] + (1.0f - b1) * g[i];
            v[i] = b2 * v[i] + (1.0f - b2) * g[i] * g[i];
            p[i] -= step_size * m[i] / (std::sqrt(v[i]) * inv_sqrt_c2 + options_.epsilon);
        }
    }
}

double clip_gradient_norm(const std::vector<models::TensorRef> &grads, float max_norm) {
    double sum = 0;
    for (const auto &g : grads)
        for (float x : g.data) sum += static_cast<double>(x) * x;
    const double norm = std::sqrt(sum);
    if (max_norm > 0 && norm > max_norm) {
        const float scale = static_cast<float>(max_norm / norm);
        for (const auto &g : grads)
            for (float &x : g.data) x *= scale;
    }
    return norm;
}

} // namespace apg::train
