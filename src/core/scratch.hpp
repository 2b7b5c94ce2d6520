// Working memory that a kernel grows once and reuses, so a call allocates nothing after the first.
#pragma once

#include <cstddef>
#include <vector>

namespace apg::core {

// `buffer` grown to at least n floats (never shrunk); its data.
inline float *sized(std::vector<float> &buffer, std::size_t n) {
    if (buffer.size() < n) buffer.resize(n);
    return buffer.data();
}

} // namespace apg::core
