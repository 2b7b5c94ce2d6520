#include "nn/conv.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace apg::nn {

namespace {

[[noreturn]] void bad(const std::string &what) { throw std::invalid_argument(what); }

void require_rows(const char *op, const Mat &m, Eigen::Index rows, Eigen::Index cols) {
    if (m.rows() != rows || m.cols() != cols)
        bad(std::string(op) + ": the input is " + std::to_string(m.rows()) + "x" + std::to_string(m.cols()) +
            ", the shape wants " + std::to_string(rows) + "x" + std::to_string(cols));
}

} // namespace

void Conv2dShape::validate() const {
    if (height < 1 || width < 1 || in_channels < 1 || out_channels < 1 || kernel < 1 || stride < 1)
        bad("conv2d: every size must be at least 1");
    if (padding < 0 || padding >= kernel) bad("conv2d: the padding must lie in [0, kernel)");
    if (height + 2 * padding < kernel || width + 2 * padding < kernel)
        bad("conv2d: the kernel is larger than the padded input");
}

void PoolShape::validate() const {
    if (height < 1 || width < 1 || channels < 1 || size < 1) bad("pool: every size must be at least 1");
    if (size > height || size > width) bad("pool: the window is larger than the input");
}

void Conv2dParams::list(core::ParamList out, const Conv2dShape &s) {
    out.add("w", w, s.out_channels, s.patch());
    out.add("b", b, s.out_channels);
}

Conv2dParams Conv2dParams::init(const Conv2dShape &s, core::Rng &rng) {
    Conv2dParams p = core::zeros<Conv2dParams>(s);
    const float bound = std::sqrt(6.0f / static_cast<float>(s.patch()));
    for (Eigen::Index i = 0; i < p.w.size(); ++i) p.w.data()[i] = rng.uniform(-bound, bound);
    return p;
}

void im2col(const Conv2dShape &s, const Mat &x, int batch, Mat &cols) {
    const int H = s.height, W = s.width, C = s.in_channels, k = s.kernel;
    const int Ho = s.out_height(), Wo = s.out_width();
    require_rows("im2col", x, static_cast<Eigen::Index>(batch) * H * W, C);
    cols.resize(static_cast<Eigen::Index>(batch) * Ho * Wo, s.patch());
    for (int b = 0; b < batch; ++b)
        for (int oy = 0; oy < Ho; ++oy)
            for (int ox = 0; ox < Wo; ++ox) {
                float *row = cols.data() + ((static_cast<Eigen::Index>(b) * Ho + oy) * Wo + ox) * s.patch();
                for (int ky = 0; ky < k; ++ky) {
                    const int y = oy * s.stride + ky - s.padding;
                    for (int kx = 0; kx < k; ++kx) {
                        const int xx = ox * s.stride + kx - s.padding;
                        float *dst = row + (ky * k + kx) * C;
                        if (y < 0 || y >= H || xx < 0 || xx >= W) {
                            for (int c = 0; c < C; ++c) dst[c] = 0.0f;
                        } else {
                            const float *src = x.data() + ((static_cast<Eigen::Index>(b) * H + y) * W + xx) * C;
                            for (int c = 0; c < C; ++c) dst[c] = src[c];
                        }
                    }
                }
            }
}

void col2im(const Conv2dShape &s, const Mat &cols, int batch, Mat &x) {
    const int H = s.height, W = s.width, C = s.in_channels, k = s.kernel;
    const int Ho = s.out_height(), Wo = s.out_width();
    require_rows("col2im", cols, static_cast<Eigen::Index>(batch) * Ho * Wo, s.patch());
    x.setZero(static_cast<Eigen::Index>(batch) * H * W, C);
    for (int b = 0; b < batch; ++b)
        for (int oy = 0; oy < Ho; ++oy)
            for (int ox = 0; ox < Wo; ++ox) {
                const float *row = cols.data() + ((static_cast<Eigen::Index>(b) * Ho + oy) * Wo + ox) * s.patch();
                for (int ky = 0; ky < k; ++ky) {
                    const int y = oy * s.stride + ky - s.padding;
                    if (y < 0 || y >= H) continue;
                    for (int kx = 0; kx < k; ++kx) {
                        const int xx = ox * s.stride + kx - s.padding;
                        if (xx < 0 || xx >= W) continue;
                        const float *src = row + (ky * k + kx) * C;
                        float *dst = x.data() + ((static_cast<Eigen::Index>(b) * H + y) * W + xx) * C;
                        for (int c = 0; c < C; ++c) dst[c] += src[c];
                    }
                }
            }
}

void conv2d_forward(const Conv2dParams &p, const Conv2dShape &s, const Mat &x, int batch, Mat &y, Conv2dCache &cache) {
    s.validate();
    if (batch < 1) bad("conv2d: the batch is empty");
    if (p.w.rows() != s.out_channels || p.w.cols() != s.patch() || p.b.size() != s.out_channels)
        bad("conv2d: the weights do not fit the shape");
    cache.batch = batch;
    im2col(s, x, batch, cache.cols);
    y.resize(cache.cols.rows(), s.out_channels);
    matmul_nt(whole(std::as_const(cache.cols)), whole(p.w), whole(y));
    y.rowwise() += p.b.transpose();
}

void conv2d_backward(const Conv2dParams &p, const Conv2dShape &s, Conv2dCache &cache, const Mat &dy,
                     Conv2dParams &grads, Mat *dx) {
    require_rows("conv2d backward", dy, cache.cols.rows(), s.out_channels);
    matmul_tn(whole(dy), whole(std::as_const(cache.cols)), whole(grads.w), true);
    grads.b += dy.colwise().sum().transpose();
    if (!dx) return;
    cache.d_cols.resize(cache.cols.rows(), cache.cols.cols());
    matmul_nn(whole(dy), whole(p.w), whole(cache.d_cols));
    col2im(s, cache.d_cols, cache.batch, *dx);
}

void relu_forward(const Mat &x, Mat &y) { y = x.cwiseMax(0.0f); }

void relu_backward(const Mat &y, const Mat &dy, Mat &dx) {
    if (y.rows() != dy.rows() || y.cols() != dy.cols()) bad("relu backward: the gradient's shape is not the output's");
    dx = (y.array() > 0.0f).select(dy, 0.0f);
}

namespace {

// Calls f(out, first) for every window of a pooling: `out` its row in the output, `first` the
// input row of its top-left pixel (its pixel (dy, dx) is row first + dy · width + dx).
template <class F> void for_each_window(const PoolShape &s, int batch, F &&f) {
    const int H = s.height, W = s.width, q = s.size, Ho = s.out_height(), Wo = s.out_width();
    for (int b = 0; b < batch; ++b)
        for (int oy = 0; oy < Ho; ++oy)
            for (int ox = 0; ox < Wo; ++ox)
                f((static_cast<Eigen::Index>(b) * Ho + oy) * Wo + ox, (b * H + oy * q) * W + ox * q);
}

} // namespace

void pool_forward(const PoolShape &s, const Mat &x, int batch, Mat &y, PoolCache &cache) {
    s.validate();
    const int H = s.height, W = s.width, C = s.channels, q = s.size;
    require_rows("pool", x, static_cast<Eigen::Index>(batch) * H * W, C);
    cache.batch = batch;
    y.resize(static_cast<Eigen::Index>(batch) * s.out_height() * s.out_width(), C);
    if (s.kind == PoolKind::max) cache.argmax.assign(static_cast<std::size_t>(y.size()), 0);
    const float inv = 1.0f / static_cast<float>(q * q);
    for_each_window(s, batch, [&](Eigen::Index out, int first) {
        for (int c = 0; c < C; ++c) {
            float best = 0.0f, sum = 0.0f;
            int at = -1;
            for (int dy = 0; dy < q; ++dy)
                for (int dx = 0; dx < q; ++dx) {
                    const int in = first + dy * W + dx;
                    const float v = x(in, c);
                    sum += v;
                    if (at < 0 || v > best) best = v, at = in;
                }
            if (s.kind == PoolKind::max) {
                y(out, c) = best;
                cache.argmax[static_cast<std::size_t>(out * C + c)] = at;
            } else {
                y(out, c) = sum * inv;
            }
        }
    });
}

void pool_backward(const PoolShape &s, const PoolCache &cache, const Mat &dy, Mat &dx) {
    const int H = s.height, W = s.width, C = s.channels, q = s.size;
    const int batch = cache.batch;
    require_rows("pool backward", dy, static_cast<Eigen::Index>(batch) * s.out_height() * s.out_width(), C);
    dx.setZero(static_cast<Eigen::Index>(batch) * H * W, C);
    const float inv = 1.0f / static_cast<float>(q * q);
    for_each_window(s, batch, [&](Eigen::Index out, int first) {
        for (int c = 0; c < C; ++c) {
            if (s.kind == PoolKind::max) {
                dx(cache.argmax[static_cast<std::size_t>(out * C + c)], c) += dy(out, c);
                continue;
            }
            for (int ddy = 0; ddy < q; ++ddy)
                for (int ddx = 0; ddx < q; ++ddx) dx(first + ddy * W + ddx, c) += dy(out, c) * inv;
        }
    });
}

} // namespace apg::nn
