// Attention forward, score → softmax → context, at the sizes of the benchmark table:
//   "sdpa"      one head of self-attention (attention::head_forward, the Transformer encoder's hot
//               path) at (n_q, n_k, d): Q Kᵀ, the scaling by 1/√d, the row softmax, P V; flops
//               counted as 4·n_q·n_k·d (2·n_q·n_k·d for Q Kᵀ and as many for P V; softmax is not counted)
//   "additive"  one decoder step through attention::attend with cached keys (Bahdanau), flops
//               counted as 2·da·dq (W_q q) + 4·n·da (add, tanh, dot with v) + 2·n·dv (context)
#include "attention/self_attention.hpp"
#include "attention/step.hpp"
#include "bench.hpp"
#include "core/rng.hpp"

#include <cmath>
#include <string>
#include <vector>

using namespace apg;

namespace {

std::string triple(std::size_t a, std::size_t b, std::size_t c) {
    return "(" + std::to_string(a) + "," + std::to_string(b) + "," + std::to_string(c) + ")";
}

Mat random_mat(std::size_t rows, std::size_t cols, core::Rng &rng) {
    Mat m(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = rng.uniform(-1.0f, 1.0f);
    return m;
}

void bench_sdpa(const std::string &impl, std::size_t nq, std::size_t nk, std::size_t d) {
    core::Rng rng(42);
    attention::SelfAttentionHead head;
    head.query = random_mat(nq, d, rng);
    head.key = random_mat(nk, d, rng);
    head.value = random_mat(nk, d, rng);
    const std::vector<std::uint8_t> allowed(nq * nk, 1);
    const float scale = 1.0f / std::sqrt(static_cast<float>(d));
    double ns = bench::time_ns([&] { attention::head_forward(head, allowed, scale); });
    bench::emit("sdpa", triple(nq, nk, d), impl, ns, 4.0 * nq * nk * d);
}

void bench_additive(const std::string &impl, std::size_t n, std::size_t d) {
    core::Rng rng(43);
    const auto di = static_cast<Eigen::Index>(d), ni = static_cast<Eigen::Index>(n);
    auto params = attention::ScoreParams::init(attention::ScoreKind::additive, di, di, di, rng);
    Mat keys(ni, di);
    Vec query(di);
    for (Eigen::Index i = 0; i < keys.size(); ++i) keys.data()[i] = rng.uniform(-1.0f, 1.0f);
    for (Eigen::Index i = 0; i < query.size(); ++i) query[i] = rng.uniform(-1.0f, 1.0f);
    const auto cache = attention::prepare_keys(params, keys);
    attention::AttentionStep step;
    double ns = bench::time_ns([&] { attention::attend(params, query, keys, cache, keys, {}, step); });
    bench::emit("additive", triple(1, n, d), impl, ns, 2.0 * d * d + 4.0 * n * d + 2.0 * n * d);
}

} // namespace

int main(int argc, char **argv) {
    const std::string impl = argc > 1 ? argv[1] : core::simd_isa();
    const std::size_t sizes[][3] = {{1, 16, 64}, {1, 128, 256}, {64, 64, 64}, {256, 256, 64}, {512, 512, 128}};
    for (const auto &s : sizes) bench_sdpa(impl, s[0], s[1], s[2]);
    bench_additive(impl, 128, 256);
}
