// Deterministic random numbers (splitmix64): the same seed gives the same stream on every
// platform and compiler, which std::normal_distribution does not promise.
#pragma once

#include <cmath>
#include <cstdint>

namespace apg::core {

class Rng {
  public:
    explicit Rng(std::uint64_t seed) : state_(seed) {}

    std::uint64_t next_u64() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // uniform in [0, 1)
    double uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }
    float uniform(float lo, float hi) { return lo + static_cast<float>(uniform()) * (hi - lo); }
    // uniform integer in [0, n)
    std::uint64_t below(std::uint64_t n) { return n == 0 ? 0 : next_u64() % n; }
    // standard normal (Box–Muller)
    float normal() {
        double u1 = uniform(), u2 = uniform();
        if (u1 < 1e-300) u1 = 1e-300;
        return static_cast<float>(std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2));
    }

  private:
    std::uint64_t state_;
};

} // namespace apg::core
