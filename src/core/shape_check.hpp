// Shape checks shared by the kernel implementations: a mismatch throws std::invalid_argument
// naming the shapes, so a bad call never reads or writes out of bounds.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace apg::core {

inline void require_size(const char *op, const char *what, std::size_t got, std::size_t want) {
    if (got != want)
        throw std::invalid_argument(std::string(op) + ": " + what + " has " + std::to_string(got) +
                                    " elements, expected " + std::to_string(want));
}

} // namespace apg::core
