// Checkpoints in the .safetensors format: an 8-byte little-endian header length N, N bytes of
// JSON header {name: {"dtype": "F32", "shape": [...], "data_offsets": [begin, end]}, "__metadata__":
// {string: string}}, then the raw little-endian float32 data. The loader trusts nothing in the file.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace apg::io {

struct NamedTensor {
    std::vector<std::int64_t> shape;
    std::vector<float> data; // row-major, size = product of shape
};

struct Checkpoint {
    std::map<std::string, NamedTensor> tensors;  // name = module path, e.g. "encoder.fwd.w_ih"
    std::map<std::string, std::string> metadata; // "__metadata__": JSON strings inside for config/vocabularies
};

// Largest header the loader accepts, in bytes.
inline constexpr std::uint64_t max_header_bytes = 100ull * 1024 * 1024;

// Deterministic bytes (tensors in sorted name order, data in the same order). Throws
// std::invalid_argument when a tensor's data size does not match its shape, a dim is negative, a
// name is empty or "__metadata__", or a value is not finite.
std::vector<std::uint8_t> save_safetensors(const Checkpoint &checkpoint);

// Throws std::runtime_error("checkpoint: ...") naming the field/tensor: never crashes, never half-loads.
Checkpoint load_safetensors(std::span<const std::uint8_t> bytes);

} // namespace apg::io
