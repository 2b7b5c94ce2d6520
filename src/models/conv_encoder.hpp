// The convolutional encoder of the image-captioning models: an RGB image to a grid of L = G × G
// annotation vectors, the encoder states the attention decoder attends over (Show, Attend and
// Tell's role for a CNN). Shapes: S = image side (pixels), C = conv_channels, F = features
// (the config's encoder_hidden), G = S / 4, L = G², dh = F + 2.
//   x   = pixel bytes · 2/255 − 1                        (S·S) × 3
//   a_1 = MaxPool2(ReLU(Conv3x3(x; 3 → C, pad 1)))       (S/2)² × C
//   a_2 = MaxPool2(ReLU(Conv3x3(a_1; C → C, pad 1)))     G² × C
//   f   = Conv3x3(a_2; C → F, pad 1)                     G² × F   (linear: signed features for dot scores)
//   H   = [f ; p]                                        L × (F + 2), row r·G + c = cell (r, c)
// where p = (2r/(G−1) − 1, 2c/(G−1) − 1) is the cell's position (row, then column) in [−1, 1], so
// the decoder's context says where it looked as well as what it saw. The last conv sees an 18 × 18
// pixel field, more than the largest object of the scenes task.
#pragma once

#include "models/config.hpp"
#include "nn/conv.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace apg::models {

struct ConvEncoderConfig {
    int image_size = 32;                          // S, a multiple of 4
    int channels = 3;                             // RGB
    int conv_channels = 16;                       // C
    int features = 30;                            // F
    int grid() const { return image_size / 4; }   // G
    int cells() const { return grid() * grid(); } // L
    int state() const { return features + 2; }    // dh
    nn::Conv2dShape conv1() const;
    nn::Conv2dShape conv2() const;
    nn::Conv2dShape conv3() const;
    nn::PoolShape pool1() const;
    nn::PoolShape pool2() const;
};

ConvEncoderConfig conv_config(const ModelConfig &config);

struct ConvEncoderParams {
    nn::Conv2dParams conv1, conv2, conv3;
    // The tensors, once: conv1.{w,b}, conv2.{w,b}, conv3.{w,b}.
    void list(core::ParamList out, const ConvEncoderConfig &config);
    static ConvEncoderParams init(const ConvEncoderConfig &config, core::Rng &rng);
};

// The fixed position code of the grid: L × 2.
Mat grid_positions(int grid);

struct ConvEncoderCache {
    int batch = 0;
    Mat input, h1, p1, h2, p2, features; // each (B·rows) × channels
    nn::Conv2dCache c1, c2, c3;
    nn::PoolCache q1, q2;
    Mat d_features, d_p2, d_h2, d_p1, d_h1; // backward scratch
};

// pixels: B images of S·S·3 bytes (RGB, row-major). Writes states: B matrices L × dh.
// Throws InputError(bad_argument) when pixels is not B·S·S·3 bytes long.
void conv_encoder_forward(const ConvEncoderParams &params, const ConvEncoderConfig &config,
                          std::span<const std::uint8_t> pixels, int batch, ConvEncoderCache &cache,
                          std::vector<Mat> &states);
// d_states: B matrices L × dh (the position columns' gradients are dropped). ACCUMULATES grads.
void conv_encoder_backward(const ConvEncoderParams &params, const ConvEncoderConfig &config, ConvEncoderCache &cache,
                           const std::vector<Mat> &d_states, ConvEncoderParams &grads);

} // namespace apg::models
