#include "nn/time_reduction.hpp"

#include "core/rng.hpp"
#include "support/gradcheck.hpp"

#include <doctest/doctest.h>

#include <vector>

using namespace apg;

TEST_CASE("time reduction concatenates neighbouring steps; an odd length pairs its last step with zeros") {
    // B = 2 sequences of lengths 3 and 2, N = 3 steps, D = 2; value = 10·t + b + 0.1·feature.
    Mat in(3 * 2, 2);
    for (int t = 0; t < 3; ++t)
        for (int b = 0; b < 2; ++b) in.row(t * 2 + b) << 10 * t + b, 10 * t + b + 0.1f;
    in.row(2 * 2 + 1).setConstant(99); // padding of sequence 1 must not leak
    const std::vector<int> lengths = {3, 2};
    Mat out;
    std::vector<int> out_lengths;
    nn::time_reduction_forward(in, 2, lengths, out, out_lengths);
    CHECK(out_lengths == std::vector<int>{2, 1});
    REQUIRE(out.rows() == 2 * 2);
    REQUIRE(out.cols() == 4);
    Mat want(4, 4);
    want << 0, 0.1f, 10, 10.1f, // step 0 of sequence 0: frames 0 and 1
        1, 1.1f, 11, 11.1f,     // step 0 of sequence 1
        20, 20.1f, 0, 0,        // step 1 of sequence 0: frame 2 and zeros (odd length)
        0, 0, 0, 0;             // past sequence 1's end
    CHECK(out.isApprox(want));
    CHECK(nn::reduced_length(1) == 1);
    CHECK(nn::reduced_length(300) == 150);
    CHECK(nn::reduced_length(301) == 151);
}

TEST_CASE("time reduction's backward matches finite differences, zero at padding") {
    core::Rng rng(3);
    const int B = 3, N = 5, D = 2;
    const std::vector<int> lengths = {5, 2, 4};
    Mat in(N * B, D), weights(3 * B, 2 * D);
    for (Eigen::Index i = 0; i < in.size(); ++i) in.data()[i] = rng.uniform(-1, 1);
    for (Eigen::Index i = 0; i < weights.size(); ++i) weights.data()[i] = rng.uniform(-1, 1);
    // L = Σ weights ⊙ out², so dL/dout = 2 · weights ⊙ out.
    auto loss = [&] {
        Mat out;
        std::vector<int> l;
        nn::time_reduction_forward(in, B, lengths, out, l);
        return static_cast<double>((weights.array() * out.array().square()).sum());
    };
    Mat out, d_in;
    std::vector<int> l;
    nn::time_reduction_forward(in, B, lengths, out, l);
    const Mat d_out = 2 * (weights.array() * out.array()).matrix();
    nn::time_reduction_backward(d_out, B, N, lengths, d_in);
    REQUIRE(d_in.rows() == in.rows());
    test::check_gradient("in", {in.data(), static_cast<std::size_t>(in.size())},
                         {d_in.data(), static_cast<std::size_t>(d_in.size())}, loss, test::GradCheck::composed(100));
    for (int b = 0; b < B; ++b)
        for (int t = lengths[b]; t < N; ++t) CHECK(d_in.row(t * B + b).isZero());
}

TEST_CASE("time reduction refuses lengths and shapes that do not fit") {
    Mat in(4, 2), out;
    std::vector<int> l;
    CHECK_THROWS_AS(nn::time_reduction_forward(in, 2, std::vector<int>{3, 1}, out, l), std::invalid_argument);
    CHECK_THROWS_AS(nn::time_reduction_forward(in, 2, std::vector<int>{0, 1}, out, l), std::invalid_argument);
    CHECK_THROWS_AS(nn::time_reduction_forward(in, 3, std::vector<int>{1, 1, 1}, out, l), std::invalid_argument);
}
