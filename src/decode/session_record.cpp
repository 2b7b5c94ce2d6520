// A decoding step as a named trace record, built from the field table of record_schema.hpp, for
// the exports. Compiled for size in the wasm build: the page's step records are packed by the
// bindings from the same table instead.
#include "decode/record_schema.hpp"

#include <algorithm>

namespace apg::decode {

namespace record {

namespace {

trace::Tensor tensor(const Value &v, std::initializer_list<std::size_t> shape) {
    trace::Tensor t = trace::Tensor::from_shape(shape);
    std::copy(v.data, v.data + t.size(), t.data());
    return t;
}

} // namespace

trace::StepRecord to_record(const SessionStep &step, int index, std::span<const std::string> target_tokens) {
    trace::StepRecord r;
    for (const Field &f : decoder_step) {
        const std::string name(f.name);
        if (f.type == Type::token) {
            if (target_tokens.empty()) continue;
            const int id = r.fields[std::string(f.of)].get<int>();
            r.fields[name] = id >= 0 && id < static_cast<int>(target_tokens.size()) ? target_tokens[id] : "";
            continue;
        }
        const Value v = f.get(step, index);
        const auto rows = static_cast<std::size_t>(v.rows), cols = static_cast<std::size_t>(v.cols);
        switch (f.type) {
        case Type::integer:
            if (name == "index")
                r.index = static_cast<int>(v.number);
            else
                r.fields[name] = static_cast<std::int64_t>(v.number);
            break;
        case Type::number:
            r.fields[name] = v.number;
            break;
        case Type::label:
            if (name == "kind")
                r.kind = f.labels[static_cast<std::size_t>(v.number)];
            else
                r.fields[name] = f.labels[static_cast<std::size_t>(v.number)];
            break;
        case Type::vector:
            if (rows > 0 || !f.optional) r.set(name, tensor(v, {rows}));
            break;
        case Type::matrix:
            if (rows * cols > 0 || !f.optional) r.set(name, tensor(v, {rows, cols}));
            break;
        case Type::top:
            r.fields[name + "_ids"] = std::vector<int>(v.ids, v.ids + rows);
            r.fields[name + "_probs"] = std::vector<float>(v.data, v.data + rows);
            break;
        case Type::tensor:
            if (v.rank > 0) {
                trace::Tensor t =
                    trace::Tensor::from_shape(std::vector<std::size_t>(v.dims.begin(), v.dims.begin() + v.rank));
                std::copy(v.data, v.data + t.size(), t.data());
                r.set(name, std::move(t));
            }
            break;
        case Type::token: // written above
        case Type::ints:  // not in a decoder step
            break;
        }
    }
    return r;
}

} // namespace record

trace::StepRecord to_record(const SessionStep &step, int index) { return record::to_record(step, index, {}); }

} // namespace apg::decode
