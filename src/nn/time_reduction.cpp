#include "nn/time_reduction.hpp"

#include <stdexcept>
#include <string>

namespace apg::nn {

namespace {

void check(Eigen::Index rows, int batch, std::span<const int> lengths, const char *what) {
    if (batch <= 0 || static_cast<int>(lengths.size()) != batch || rows % batch != 0)
        throw std::invalid_argument(std::string("time reduction ") + what + ": " + std::to_string(rows) +
                                    " rows for a batch of " + std::to_string(batch) + " with " +
                                    std::to_string(lengths.size()) + " lengths");
}

} // namespace

void time_reduction_forward(const Mat &in, int batch, std::span<const int> lengths, Mat &out,
                            std::vector<int> &out_lengths) {
    check(in.rows(), batch, lengths, "forward");
    const int B = batch, N = static_cast<int>(in.rows() / B), M = reduced_length(N);
    const Eigen::Index D = in.cols();
    out.setZero(static_cast<Eigen::Index>(M) * B, 2 * D);
    out_lengths.resize(B);
    for (int b = 0; b < B; ++b) {
        if (lengths[b] < 1 || lengths[b] > N)
            throw std::invalid_argument("time reduction: length " + std::to_string(lengths[b]) + " outside [1, " +
                                        std::to_string(N) + "]");
        out_lengths[b] = reduced_length(lengths[b]);
        for (int t = 0; t < lengths[b]; ++t)
            out.row(static_cast<Eigen::Index>(t / 2) * B + b).segment((t % 2) * D, D) =
                in.row(static_cast<Eigen::Index>(t) * B + b);
    }
}

void time_reduction_backward(const Mat &d_out, int batch, int steps, std::span<const int> lengths, Mat &d_in) {
    check(d_out.rows(), batch, lengths, "backward");
    const int B = batch;
    const Eigen::Index D = d_out.cols() / 2;
    if (d_out.rows() / B != reduced_length(steps))
        throw std::invalid_argument("time reduction backward: " + std::to_string(d_out.rows() / B) +
                                    " output steps for " + std::to_string(steps) + " input steps");
    d_in.setZero(static_cast<Eigen::Index>(steps) * B, D);
    for (int b = 0; b < B; ++b)
        for (int t = 0; t < lengths[b] && t < steps; ++t)
            d_in.row(static_cast<Eigen::Index>(t) * B + b) =
                d_out.row(static_cast<Eigen::Index>(t / 2) * B + b).segment((t % 2) * D, D);
}

} // namespace apg::nn
