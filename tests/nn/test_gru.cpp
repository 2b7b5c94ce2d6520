#include "nn/gru.hpp"

#include "support/gradcheck.hpp"

#include <utility>

#include <doctest/doctest.h>

using namespace apg;
using namespace apg::nn;

namespace {

Mat random_mat(Eigen::Index r, Eigen::Index c, core::Rng &rng) {
    Mat m(r, c);
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = rng.uniform(-1.0f, 1.0f);
    return m;
}

GruParams zero_grads(const GruParams &p) {
    GruParams g;
    g.w_ih.setZero(p.w_ih.rows(), p.w_ih.cols());
    g.w_hh.setZero(p.w_hh.rows(), p.w_hh.cols());
    g.b_ih.setZero(p.b_ih.size());
    g.b_hh.setZero(p.b_hh.size());
    return g;
}

} // namespace

TEST_CASE("a GRU with zero weights halves its state (r = z = 1/2, n = 0)") {
    core::Rng rng(1);
    GruParams p = GruParams::init(2, 3, rng);
    p.w_ih.setZero();
    p.w_hh.setZero();
    p.b_ih.setZero();
    p.b_hh.setZero();
    Mat x(1, 2), xp(1, 9), h_prev(1, 3), h(1, 3);
    x << 0.3f, -0.7f;
    h_prev << 1.0f, -2.0f, 0.5f;
    gru_input_projection(p, whole(std::as_const(x)), whole(xp));
    GruStepCache cache;
    gru_step_forward(p, whole(std::as_const(xp)), whole(std::as_const(h_prev)), whole(h), cache);
    CHECK(h(0, 0) == doctest::Approx(0.5f));
    CHECK(h(0, 1) == doctest::Approx(-1.0f));
    CHECK(h(0, 2) == doctest::Approx(0.25f));
}

TEST_CASE("a GRU step matches the formula computed by hand for one unit") {
    // I = 1, H = 1: r = σ(w_ir x + b_ir + w_hr h + b_hr), z likewise, n = tanh(w_in x + b_in + r (w_hn h + b_hn))
    GruParams p;
    p.w_ih.resize(3, 1);
    p.w_hh.resize(3, 1);
    p.b_ih.resize(3);
    p.b_hh.resize(3);
    p.w_ih << 0.5f, -0.25f, 1.0f;
    p.w_hh << 0.1f, 0.2f, -0.3f;
    p.b_ih << 0.0f, 0.1f, 0.2f;
    p.b_hh << 0.05f, 0.0f, -0.1f;
    const float x = 2.0f, hp = 0.5f;
    const float r = 1.0f / (1.0f + std::exp(-(0.5f * x + 0.0f + 0.1f * hp + 0.05f)));
    const float z = 1.0f / (1.0f + std::exp(-(-0.25f * x + 0.1f + 0.2f * hp + 0.0f)));
    const float n = std::tanh(1.0f * x + 0.2f + r * (-0.3f * hp - 0.1f));
    const float want = (1 - z) * n + z * hp;
    Mat xm(1, 1), xp(1, 3), h_prev(1, 1), h(1, 1);
    xm << x;
    h_prev << hp;
    gru_input_projection(p, whole(std::as_const(xm)), whole(xp));
    GruStepCache cache;
    gru_step_forward(p, whole(std::as_const(xp)), whole(std::as_const(h_prev)), whole(h), cache);
    CHECK(h(0, 0) == doctest::Approx(want).epsilon(1e-5));
}

TEST_CASE("a masked GRU row keeps its previous state") {
    core::Rng rng(3);
    GruParams p = GruParams::init(2, 4, rng);
    Mat x = random_mat(2, 2, rng), h_prev = random_mat(2, 4, rng), xp(2, 12), h(2, 4);
    gru_input_projection(p, whole(std::as_const(x)), whole(xp));
    GruStepCache cache;
    const std::uint8_t mask[] = {1, 0};
    gru_step_forward(p, whole(std::as_const(xp)), whole(std::as_const(h_prev)), whole(h), cache, mask);
    CHECK(h.row(1) == h_prev.row(1));
    CHECK((h.row(0) - h_prev.row(0)).norm() > 1e-3f);
}

TEST_CASE("GRU step gradients match finite differences (with a masked row)") {
    core::Rng rng(7);
    const int B = 3, I = 4, H = 5;
    GruParams p = GruParams::init(I, H, rng);
    Mat x = random_mat(B, I, rng), h_prev = random_mat(B, H, rng), weights = random_mat(B, H, rng);
    const std::uint8_t mask[] = {1, 0, 1};

    auto loss = [&]() {
        Mat xp(B, 3 * H), h(B, H);
        GruStepCache cache;
        gru_input_projection(p, whole(std::as_const(x)), whole(xp));
        gru_step_forward(p, whole(std::as_const(xp)), whole(std::as_const(h_prev)), whole(h), cache, mask);
        return static_cast<double>((h.array() * weights.array()).sum());
    };

    Mat xp(B, 3 * H), h(B, H), d_xp(B, 3 * H), dh_prev = Mat::Zero(B, H), dx(B, I), scratch;
    GruStepCache cache;
    gru_input_projection(p, whole(std::as_const(x)), whole(xp));
    gru_step_forward(p, whole(std::as_const(xp)), whole(std::as_const(h_prev)), whole(h), cache, mask);
    GruParams g = zero_grads(p);
    gru_step_backward(p, whole(std::as_const(h_prev)), cache, whole(std::as_const(weights)), whole(d_xp),
                      whole(dh_prev), g, scratch, mask);
    MatMap dx_map = whole(dx);
    gru_input_projection_backward(p, whole(std::as_const(x)), whole(std::as_const(d_xp)), g, &dx_map, false);

    test::check_gradient("w_ih", view(p.w_ih), view(std::as_const(g.w_ih)), loss, test::GradCheck::composed(24));
    test::check_gradient("w_hh", view(p.w_hh), view(std::as_const(g.w_hh)), loss, test::GradCheck::composed(24));
    test::check_gradient("b_ih", view(p.b_ih), view(std::as_const(g.b_ih)), loss, test::GradCheck::composed(24));
    test::check_gradient("b_hh", view(p.b_hh), view(std::as_const(g.b_hh)), loss, test::GradCheck::composed(24));
    test::check_gradient("x", view(x), view(std::as_const(dx)), loss, test::GradCheck::composed(24));
    test::check_gradient("h_prev", view(h_prev), view(std::as_const(dh_prev)), loss, test::GradCheck::composed(24));
}
