#include "nn/layer_norm.hpp"

#include "core/shape_text.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace apg::nn {

namespace {

void check_params(const char *op, const LayerNormParams &params) {
    if (params.gain.size() == 0 || params.gain.size() != params.bias.size())
        throw std::invalid_argument(std::string(op) + ": gain has " + std::to_string(params.gain.size()) +
                                    " elements and bias " + std::to_string(params.bias.size()) +
                                    ", expected the same positive size");
    if (!(params.eps > 0.0f))
        throw std::invalid_argument(std::string(op) + ": eps must be > 0, got " + std::to_string(params.eps));
}

void check_rows(const char *op, const char *what, const Mat &m, Eigen::Index rows, Eigen::Index cols) {
    if (m.rows() != rows || m.cols() != cols)
        throw std::invalid_argument(std::string(op) + ": " + what + " is " + core::shape_text(m) + ", expected " +
                                    core::shape_text(rows, cols));
}

} // namespace

LayerNormParams LayerNormParams::init(Eigen::Index d, float eps) {
    LayerNormParams p = core::zeros<LayerNormParams>(d, eps);
    p.gain.setOnes();
    return p;
}

void LayerNormParams::list(core::ParamList out, Eigen::Index d, float eps_wanted) {
    out.add("gain", gain, d);
    out.add("bias", bias, d);
    out.setting("eps", eps, eps_wanted);
}

void layer_norm_forward(const LayerNormParams &params, const Mat &x, Mat &y, LayerNormCache &cache) {
    check_params("layer_norm_forward", params);
    const Eigen::Index n = x.rows(), d = params.dim();
    check_rows("layer_norm_forward", "x", x, n, d);
    y.resize(n, d);
    cache.normalized.resize(n, d);
    cache.inv_std.resize(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        // Two passes (mean, then squared deviations) in double: one-pass E[x²] − μ² cancels badly
        // when |μ| is large next to σ.
        double mean = 0.0;
        for (Eigen::Index j = 0; j < d; ++j) mean += x(i, j);
        mean /= static_cast<double>(d);
        double var = 0.0;
        for (Eigen::Index j = 0; j < d; ++j) {
            const double dev = x(i, j) - mean;
            var += dev * dev;
        }
        var /= static_cast<double>(d);
        const double inv_std = 1.0 / std::sqrt(var + params.eps);
        cache.inv_std(i) = static_cast<float>(inv_std);
        for (Eigen::Index j = 0; j < d; ++j) {
            const float xhat = static_cast<float>((x(i, j) - mean) * inv_std);
            cache.normalized(i, j) = xhat;
            y(i, j) = params.gain(j) * xhat + params.bias(j);
        }
    }
}

void layer_norm_backward(const LayerNormParams &params, const LayerNormCache &cache, const Mat &dy, Mat &dx,
                         LayerNormParams &grads) {
    check_params("layer_norm_backward", params);
    const Eigen::Index n = cache.normalized.rows(), d = params.dim();
    check_rows("layer_norm_backward", "cache.normalized", cache.normalized, n, d);
    check_rows("layer_norm_backward", "dy", dy, n, d);
    check_rows("layer_norm_backward", "dx", dx, n, d);
    if (grads.gain.size() != d || grads.bias.size() != d)
        throw std::invalid_argument("layer_norm_backward: grads.gain has " + std::to_string(grads.gain.size()) +
                                    " and grads.bias " + std::to_string(grads.bias.size()) + " elements, expected " +
                                    std::to_string(d));
    for (Eigen::Index i = 0; i < n; ++i) {
        // With g = dL/dx̂ = dy ⊙ gain:  dx = inv_std · (g − mean(g) − x̂ · mean(g ⊙ x̂)).
        double mean_g = 0.0, mean_gx = 0.0;
        for (Eigen::Index j = 0; j < d; ++j) {
            const double g = static_cast<double>(dy(i, j)) * params.gain(j);
            mean_g += g;
            mean_gx += g * cache.normalized(i, j);
            grads.gain(j) += dy(i, j) * cache.normalized(i, j);
            grads.bias(j) += dy(i, j);
        }
        mean_g /= static_cast<double>(d);
        mean_gx /= static_cast<double>(d);
        const double inv_std = cache.inv_std(i);
        for (Eigen::Index j = 0; j < d; ++j) {
            const double g = static_cast<double>(dy(i, j)) * params.gain(j);
            dx(i, j) += static_cast<float>(inv_std * (g - mean_g - cache.normalized(i, j) * mean_gx));
        }
    }
}

} // namespace apg::nn
