#include "models/conv_encoder.hpp"

#include "core/error.hpp"

#include <string>

namespace apg::models {

namespace {

nn::Conv2dShape conv(int size, int in, int out) {
    nn::Conv2dShape s;
    s.height = s.width = size;
    s.in_channels = in;
    s.out_channels = out;
    s.kernel = 3;
    s.stride = 1;
    s.padding = 1;
    return s;
}

nn::PoolShape pool(int size, int channels) {
    nn::PoolShape s;
    s.height = s.width = size;
    s.channels = channels;
    s.size = 2;
    s.kind = nn::PoolKind::max;
    return s;
}

} // namespace

nn::Conv2dShape ConvEncoderConfig::conv1() const { return conv(image_size, channels, conv_channels); }
nn::Conv2dShape ConvEncoderConfig::conv2() const { return conv(image_size / 2, conv_channels, conv_channels); }
nn::Conv2dShape ConvEncoderConfig::conv3() const { return conv(grid(), conv_channels, features); }
nn::PoolShape ConvEncoderConfig::pool1() const { return pool(image_size, conv_channels); }
nn::PoolShape ConvEncoderConfig::pool2() const { return pool(image_size / 2, conv_channels); }

ConvEncoderConfig conv_config(const ModelConfig &c) {
    ConvEncoderConfig e;
    e.image_size = c.image_size;
    e.conv_channels = c.conv_channels;
    e.features = c.encoder_hidden;
    return e;
}

void ConvEncoderParams::list(core::ParamList out, const ConvEncoderConfig &c) {
    conv1.list(out.sub("conv1"), c.conv1());
    conv2.list(out.sub("conv2"), c.conv2());
    conv3.list(out.sub("conv3"), c.conv3());
}

ConvEncoderParams ConvEncoderParams::init(const ConvEncoderConfig &c, core::Rng &rng) {
    ConvEncoderParams p;
    p.conv1 = nn::Conv2dParams::init(c.conv1(), rng);
    p.conv2 = nn::Conv2dParams::init(c.conv2(), rng);
    p.conv3 = nn::Conv2dParams::init(c.conv3(), rng);
    return p;
}

Mat grid_positions(int grid) {
    Mat p(static_cast<Eigen::Index>(grid) * grid, 2);
    const float step = grid > 1 ? 2.0f / static_cast<float>(grid - 1) : 0.0f;
    for (int r = 0; r < grid; ++r)
        for (int c = 0; c < grid; ++c) {
            p(r * grid + c, 0) = static_cast<float>(r) * step - 1.0f;
            p(r * grid + c, 1) = static_cast<float>(c) * step - 1.0f;
        }
    return p;
}

void conv_encoder_forward(const ConvEncoderParams &params, const ConvEncoderConfig &c,
                          std::span<const std::uint8_t> pixels, int batch, ConvEncoderCache &cache,
                          std::vector<Mat> &states) {
    const std::int64_t want = std::int64_t{batch} * c.image_size * c.image_size * c.channels;
    if (batch < 1 || static_cast<std::int64_t>(pixels.size()) != want)
        throw InputError(ErrorCode::bad_argument,
                         "conv encoder: " + std::to_string(pixels.size()) + " bytes for " + std::to_string(batch) +
                             " images of " + std::to_string(c.image_size) + "x" + std::to_string(c.image_size) +
                             " RGB pixels (" + std::to_string(want) + " bytes)",
                         {{"name", std::string("pixels")}, {"limit", want}});
    cache.batch = batch;
    cache.input.resize(static_cast<Eigen::Index>(batch) * c.image_size * c.image_size, c.channels);
    for (std::size_t i = 0; i < pixels.size(); ++i)
        cache.input.data()[i] = static_cast<float>(pixels[i]) * (2.0f / 255.0f) - 1.0f;
    nn::conv2d_forward(params.conv1, c.conv1(), cache.input, batch, cache.h1, cache.c1);
    nn::relu_forward(cache.h1, cache.h1);
    nn::pool_forward(c.pool1(), cache.h1, batch, cache.p1, cache.q1);
    nn::conv2d_forward(params.conv2, c.conv2(), cache.p1, batch, cache.h2, cache.c2);
    nn::relu_forward(cache.h2, cache.h2);
    nn::pool_forward(c.pool2(), cache.h2, batch, cache.p2, cache.q2);
    nn::conv2d_forward(params.conv3, c.conv3(), cache.p2, batch, cache.features, cache.c3);
    const Mat positions = grid_positions(c.grid());
    const Eigen::Index L = c.cells(), F = c.features;
    states.resize(static_cast<std::size_t>(batch));
    for (int b = 0; b < batch; ++b) {
        Mat &h = states[static_cast<std::size_t>(b)];
        h.resize(L, F + 2);
        h.leftCols(F) = cache.features.middleRows(b * L, L);
        h.rightCols(2) = positions;
    }
}

void conv_encoder_backward(const ConvEncoderParams &params, const ConvEncoderConfig &c, ConvEncoderCache &cache,
                           const std::vector<Mat> &d_states, ConvEncoderParams &grads) {
    const Eigen::Index L = c.cells(), F = c.features;
    cache.d_features.resize(cache.batch * L, F);
    for (int b = 0; b < cache.batch; ++b)
        cache.d_features.middleRows(b * L, L) = d_states[static_cast<std::size_t>(b)].leftCols(F);
    nn::conv2d_backward(params.conv3, c.conv3(), cache.c3, cache.d_features, grads.conv3, &cache.d_p2);
    nn::pool_backward(c.pool2(), cache.q2, cache.d_p2, cache.d_h2);
    nn::relu_backward(cache.h2, cache.d_h2, cache.d_h2);
    nn::conv2d_backward(params.conv2, c.conv2(), cache.c2, cache.d_h2, grads.conv2, &cache.d_p1);
    nn::pool_backward(c.pool1(), cache.q1, cache.d_p1, cache.d_h1);
    nn::relu_backward(cache.h1, cache.d_h1, cache.d_h1);
    nn::conv2d_backward(params.conv1, c.conv1(), cache.c1, cache.d_h1, grads.conv1, nullptr);
}

} // namespace apg::models
