#include "nn/feed_forward.hpp"

#include "core/shape_text.hpp"

#include "nn/matmul.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace apg::nn {

namespace {

void check_params(const char *op, const FeedForwardParams &p) {
    const Eigen::Index d = p.w1.cols(), f = p.w1.rows();
    if (d == 0 || f == 0 || p.b1.size() != f || p.w2.rows() != d || p.w2.cols() != f || p.b2.size() != d)
        throw std::invalid_argument(std::string(op) + ": parameters do not fit: w1 " + core::shape_text(p.w1) +
                                    ", b1 " + core::shape_text(p.b1) + ", w2 " + core::shape_text(p.w2) + ", b2 " +
                                    core::shape_text(p.b2) + " (expected w1 f×d, b1 f, w2 d×f, b2 d with d, f > 0)");
}

void check_mat(const char *op, const char *what, const Mat &m, Eigen::Index rows, Eigen::Index cols) {
    if (m.rows() != rows || m.cols() != cols)
        throw std::invalid_argument(std::string(op) + ": " + what + " is " + core::shape_text(m) + ", expected " +
                                    core::shape_text(rows, cols));
}

// y[n×m] = x[n×k] wᵀ + b, with w: m × k.
void linear_forward(const Mat &x, const Mat &w, const Vec &b, Mat &y) {
    y.resize(x.rows(), w.rows());
    matmul_nt(whole(x), whole(w), whole(y));
    y.rowwise() += b.transpose();
}

// The gradient of linear_forward: ACCUMULATES dx (n × k) += dy w, dw += dyᵀ x, db += Σ_rows dy.
void linear_backward(const Mat &x, const Mat &w, const Mat &dy, Mat &dx, Mat &dw, Vec &db) {
    matmul_nn(whole(dy), whole(w), whole(dx), true);
    matmul_tn(whole(dy), whole(x), whole(dw), true);
    db += dy.colwise().sum().transpose();
}

constexpr double inv_sqrt2 = 0.70710678118654752440;
constexpr double inv_sqrt_2pi = 0.39894228040143267794;

// GELU(x) = x Φ(x), Φ the standard normal CDF; GELU'(x) = Φ(x) + x φ(x).
float gelu(float x) { return static_cast<float>(0.5 * x * (1.0 + std::erf(x * inv_sqrt2))); }
float gelu_grad(float x) {
    const double cdf = 0.5 * (1.0 + std::erf(x * inv_sqrt2));
    const double pdf = inv_sqrt_2pi * std::exp(-0.5 * static_cast<double>(x) * x);
    return static_cast<float>(cdf + x * pdf);
}

} // namespace

std::string_view name(Activation activation) { return activation == Activation::relu ? "relu" : "gelu"; }

Activation parse_activation(std::string_view text) {
    if (text == "relu") return Activation::relu;
    if (text == "gelu") return Activation::gelu;
    throw std::invalid_argument("unknown activation \"" + std::string(text) + "\" (expected relu or gelu)");
}

FeedForwardParams FeedForwardParams::init(Eigen::Index d, Eigen::Index f, Activation activation, core::Rng &rng) {
    auto fill = [&rng](auto &m, Eigen::Index fan_in) {
        const float bound = 1.0f / std::sqrt(static_cast<float>(fan_in));
        for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = rng.uniform(-bound, bound);
    };
    FeedForwardParams p = core::zeros<FeedForwardParams>(d, f, activation);
    fill(p.w1, d);
    fill(p.b1, d);
    fill(p.w2, f);
    fill(p.b2, f);
    return p;
}

void FeedForwardParams::list(core::ParamList out, Eigen::Index d, Eigen::Index f, Activation wanted) {
    out.add("w1", w1, f, d);
    out.add("b1", b1, f);
    out.add("w2", w2, d, f);
    out.add("b2", b2, d);
    out.setting("activation", activation, wanted);
}

void feed_forward_forward(const FeedForwardParams &params, const Mat &x, Mat &y, FeedForwardCache &cache) {
    check_params("feed_forward_forward", params);
    check_mat("feed_forward_forward", "x", x, x.rows(), params.dim());
    linear_forward(x, params.w1, params.b1, cache.pre);
    cache.hidden.resize(cache.pre.rows(), cache.pre.cols());
    const float *pre = cache.pre.data();
    float *hidden = cache.hidden.data();
    if (params.activation == Activation::relu)
        for (Eigen::Index i = 0; i < cache.pre.size(); ++i) hidden[i] = pre[i] > 0.0f ? pre[i] : 0.0f;
    else
        for (Eigen::Index i = 0; i < cache.pre.size(); ++i) hidden[i] = gelu(pre[i]);
    linear_forward(cache.hidden, params.w2, params.b2, y);
}

void feed_forward_backward(const FeedForwardParams &params, const Mat &x, const FeedForwardCache &cache, const Mat &dy,
                           Mat &dx, FeedForwardParams &grads) {
    check_params("feed_forward_backward", params);
    check_params("feed_forward_backward (grads)", grads);
    const Eigen::Index n = x.rows(), d = params.dim(), f = params.inner();
    check_mat("feed_forward_backward", "x", x, n, d);
    check_mat("feed_forward_backward", "cache.pre", cache.pre, n, f);
    check_mat("feed_forward_backward", "cache.hidden", cache.hidden, n, f);
    check_mat("feed_forward_backward", "dy", dy, n, d);
    check_mat("feed_forward_backward", "dx", dx, n, d);
    if (grads.w1.rows() != f || grads.w1.cols() != d)
        throw std::invalid_argument("feed_forward_backward: grads.w1 is " + core::shape_text(grads.w1) + ", expected " +
                                    core::shape_text(params.w1));

    Mat d_hidden = Mat::Zero(n, f);
    linear_backward(cache.hidden, params.w2, dy, d_hidden, grads.w2, grads.b2);
    // d_pre = d_hidden ⊙ act'(pre), in place.
    float *g = d_hidden.data();
    const float *pre = cache.pre.data();
    if (params.activation == Activation::relu)
        for (Eigen::Index i = 0; i < d_hidden.size(); ++i) g[i] = pre[i] > 0.0f ? g[i] : 0.0f;
    else
        for (Eigen::Index i = 0; i < d_hidden.size(); ++i) g[i] *= gelu_grad(pre[i]);
    linear_backward(x, params.w1, d_hidden, dx, grads.w1, grads.b1);
}

} // namespace apg::nn
