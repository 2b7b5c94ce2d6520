#include "attention/cosine_bound.hpp"

#include "core/error.hpp"

#include <cmath>
#include <string>

namespace apg::attention {

double cosine_weight_bound(int n, double scale) {
    if (n < 1)
        throw InputError(ErrorCode::bad_argument,
                         "cosine_weight_bound: n must be at least 1 key, got " + std::to_string(n),
                         {{"name", std::string("n")}});
    if (!std::isfinite(scale))
        throw InputError(ErrorCode::bad_argument, "cosine_weight_bound: the scale must be a finite number",
                         {{"name", std::string("scale")}});
    // 1 / (1 + (n − 1) e^{−2|g|}) is the same fraction without overflow for a large scale.
    return 1.0 / (1.0 + (n - 1) * std::exp(-2.0 * std::abs(scale)));
}

} // namespace apg::attention
