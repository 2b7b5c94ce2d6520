// The shipped checkpoints in web/models/, read as the page reads them, for the tests that check
// their listing, their accuracy and their decodes.
#pragma once

#include "io/model.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

namespace apg::test {

inline const std::filesystem::path models_dir = std::filesystem::path(APG_SOURCE_DIR) / "web" / "models";

inline std::vector<std::uint8_t> read_bytes(const std::filesystem::path &p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The shipped model `name` (a file in web/models/), which must exist.
inline io::Model shipped(const char *name) {
    std::ifstream in(models_dir / name, std::ios::binary);
    REQUIRE(in);
    std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
    return io::Model::load(bytes);
}

} // namespace apg::test
