// Named step records: every buffer of every computation step, by name, so the page, the JSON and
// the .npy exports all read the same names ("query", "scores", "hidden", "weights", "context",
// "state", "logits", "probs", …). A record holds any set of named tensors, so new kinds of steps
// (self-attention layers with per-head n×n weights, say "encoder.layer0.head1.weights") add
// names, not types.
#pragma once

#include "core/tensor.hpp"

#include <nlohmann/json.hpp>
#include <xtensor/xarray.hpp>

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace apg::trace {

using Tensor = xt::xarray<float>; // row-major

Tensor to_tensor(const Vec &v);
Tensor to_tensor(const Mat &m);

struct StepRecord {
    std::string kind = "decoder"; // what produced it: "decoder", "self_attention", …
    int index = 0;                // position within its trace
    std::map<std::string, Tensor> tensors;
    nlohmann::json fields = nlohmann::json::object(); // scalars and labels: "token", "token_id", "choice", …

    void set(const std::string &name, Tensor tensor) { tensors[name] = std::move(tensor); }
    bool has(std::string_view name) const;
    // Throws std::out_of_range naming the missing buffer and the ones the record has.
    const Tensor &get(std::string_view name) const;
};

struct Trace {
    nlohmann::json meta = nlohmann::json::object(); // model, input tokens, …
    std::vector<StepRecord> steps;

    // {"meta": …, "steps": [{"kind", "index", "fields", "tensors": {name: {"shape": […], "data": […]}}}]}
    nlohmann::json to_json() const;
    // One .npy file per buffer name. Where every step that has the buffer gives it the same shape,
    // the steps are stacked on a leading axis ("weights.npy": steps × n); otherwise one file per
    // step ("weights.step3.npy"). Returns file name → file bytes.
    std::map<std::string, std::string> to_npy() const;
};

// One .npy file (version 1.0, little-endian float32, C order) of `shape`, reading
// product(shape) floats from `data`.
std::string npy_bytes(const std::vector<std::size_t> &shape, const float *data);

// JSON of one record (used by to_json and by bindings that send a single step).
nlohmann::json to_json(const StepRecord &record);

} // namespace apg::trace
