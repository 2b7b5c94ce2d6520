// Checkpoints in the .safetensors format: an 8-byte little-endian header length N, N bytes of
// JSON header {name: {"dtype": "F32", "shape": [...], "data_offsets": [begin, end]}, "__metadata__":
// {string: string}}, then the raw little-endian float32 data. The loader trusts nothing in the file.
#pragma once

#include "core/limits.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
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

// Largest header the loader accepts, in bytes: a JSON text like any other it parses.
inline constexpr std::uint64_t max_header_bytes = limits::max_json_bytes;

// Deterministic bytes (tensors in sorted name order, data in the same order). Throws
// std::invalid_argument when a tensor's data size does not match its shape, a dim is negative, a
// name is empty or "__metadata__", or a value is not finite.
std::vector<std::uint8_t> save_safetensors(const Checkpoint &checkpoint);

// Throws FileError(bad_checkpoint, "checkpoint: ...") naming the field/tensor (details "field", and
// "limit" when a limit is passed): never crashes, never half-loads. Files over
// limits::max_file_bytes are refused before anything is parsed.
Checkpoint load_safetensors(std::span<const std::uint8_t> bytes);

// Parses one JSON text of a checkpoint (the header, or a metadata string such as the config): at
// most limits::max_json_bytes long, nesting at most limits::max_json_depth deep, no key twice in
// one object (nlohmann would keep the last silently). Throws FileError(bad_checkpoint,
// "checkpoint: <field> ...") with details "field" (and "limit" for the size and depth).
nlohmann::json parse_json(std::string_view text, const std::string &field);

} // namespace apg::io
