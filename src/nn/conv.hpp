// Convolution, ReLU and pooling over batches of images, each with its backward pass.
// Layout: an image is a Mat of H·W rows and C columns (row y·W + x holds the C channels of pixel
// (y, x), "HWC"); a batch of B images stacks them, (B·H·W) × C. A convolution is im2col (every
// output pixel's k×k×Cin patch as one row) times the weights through nn::matmul_nt, so its products
// run on the src/core kernels in the wasm build (SIMD or scalar) and on Eigen natively.
// Shapes: B = batch, H×W = input size, Ho×Wo = output size, Cin / Cout = channels, k = kernel,
// K = k·k·Cin (a patch, column (ky·k + kx)·Cin + c).
#pragma once

#include "core/params.hpp"
#include "core/rng.hpp"
#include "nn/matmul.hpp"

#include <cstdint>
#include <vector>

namespace apg::nn {

struct Conv2dShape {
    int height = 0, width = 0;             // H, W
    int in_channels = 0, out_channels = 0; // Cin, Cout
    int kernel = 3, stride = 1, padding = 0;

    // Ho = (H + 2·padding − k) / stride + 1, and Wo likewise.
    int out_height() const { return (height + 2 * padding - kernel) / stride + 1; }
    int out_width() const { return (width + 2 * padding - kernel) / stride + 1; }
    int patch() const { return kernel * kernel * in_channels; } // K
    // Throws std::invalid_argument for a size below 1, a negative padding, a padding of a
    // kernel or more, or a kernel larger than the padded input.
    void validate() const;
};

struct Conv2dParams {
    Mat w; // Cout × K
    Vec b; // Cout

    void list(core::ParamList out, const Conv2dShape &shape);
    // He-uniform ±√(6 / K): the usual start before a ReLU.
    static Conv2dParams init(const Conv2dShape &shape, core::Rng &rng);
};

struct Conv2dCache {
    int batch = 0;
    Mat cols; // (B·Ho·Wo) × K, the patches the forward pass multiplied
    Mat d_cols;
};

// x: (B·H·W) × Cin. y: (B·Ho·Wo) × Cout, y = im2col(x) Wᵀ + b. Zero padding.
void conv2d_forward(const Conv2dParams &params, const Conv2dShape &shape, const Mat &x, int batch, Mat &y,
                    Conv2dCache &cache);
// dy: (B·Ho·Wo) × Cout. ACCUMULATES dW and db into grads; writes dx ((B·H·W) × Cin) when given.
void conv2d_backward(const Conv2dParams &params, const Conv2dShape &shape, Conv2dCache &cache, const Mat &dy,
                     Conv2dParams &grads, Mat *dx);

// The patches of a batch (im2col) and the scatter-add back (col2im, its transpose).
void im2col(const Conv2dShape &shape, const Mat &x, int batch, Mat &cols);
void col2im(const Conv2dShape &shape, const Mat &cols, int batch, Mat &x);

// y = max(x, 0); dx = dy where y > 0, else 0 (y may alias x, dx may alias dy).
void relu_forward(const Mat &x, Mat &y);
void relu_backward(const Mat &y, const Mat &dy, Mat &dx);

enum class PoolKind { max, average };

// Non-overlapping windows of size×size (the stride is the size); rows and columns past the last
// whole window are dropped: Ho = H / size, Wo = W / size.
struct PoolShape {
    int height = 0, width = 0, channels = 0;
    int size = 2;
    PoolKind kind = PoolKind::max;
    int out_height() const { return height / size; }
    int out_width() const { return width / size; }
    // Throws std::invalid_argument for a size below 1 or a window larger than the input.
    void validate() const;
};

struct PoolCache {
    int batch = 0;
    std::vector<int> argmax; // max: per output value, the input row it came from (the first of ties)
};

// x: (B·H·W) × C, y: (B·Ho·Wo) × C.
void pool_forward(const PoolShape &shape, const Mat &x, int batch, Mat &y, PoolCache &cache);
// Writes dx ((B·H·W) × C): max routes each dy to its argmax, average spreads it over the window.
void pool_backward(const PoolShape &shape, const PoolCache &cache, const Mat &dy, Mat &dx);

} // namespace apg::nn
