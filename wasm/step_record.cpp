#include "step_record.hpp"

#include "decode/record_schema.hpp"

#include <emscripten/emscripten.h>

#include <vector>

// One step record is built by a single call into JS: the numbers travel packed in one float
// buffer and one int buffer instead of ~40 separate property sets, which would cost more than
// the decoding step itself. Both buffers hold the fields in the schema's order, each taking:
//   integer, label  ints: the value (a label's index)
//   number          floats: the value
//   token           nothing (named from the id field it refers to)
//   vector          ints: size; floats: the elements
//   matrix          ints: rows, cols; floats: the elements, row-major
//   top             ints: k, k ids; floats: k probabilities
//   tensor          ints: rank r, then r sizes; floats: the elements, row-major
// An optional vector, matrix or tensor with no elements becomes null.

// The unpacker, generated from the same table (a test checks that it is up to date).
#include "step_record_unpack.inc"

namespace apg::wasm {

using decode::record::Type;
using emscripten::val;

namespace {

// Scratch for the packing; reused so a step allocates nothing once warm.
struct StepPacking {
    std::vector<float> floats;
    std::vector<int> ints;
};

} // namespace

val step_to_js(const val &vocab, const decode::SessionStep &s, int index) {
    static StepPacking pack;
    pack.ints.clear();
    pack.floats.clear();
    for (const auto &f : decode::record::decoder_step) {
        if (f.type == Type::token) continue;
        const decode::record::Value v = f.get(s, index);
        switch (f.type) {
        case Type::integer:
        case Type::label:
            pack.ints.push_back(static_cast<int>(v.number));
            break;
        case Type::number:
            pack.floats.push_back(static_cast<float>(v.number));
            break;
        case Type::vector:
            pack.ints.push_back(static_cast<int>(v.rows));
            pack.floats.insert(pack.floats.end(), v.data, v.data + v.rows);
            break;
        case Type::matrix:
            pack.ints.push_back(static_cast<int>(v.rows));
            pack.ints.push_back(static_cast<int>(v.cols));
            pack.floats.insert(pack.floats.end(), v.data, v.data + v.rows * v.cols);
            break;
        case Type::top:
            pack.ints.push_back(static_cast<int>(v.rows));
            pack.ints.insert(pack.ints.end(), v.ids, v.ids + v.rows);
            pack.floats.insert(pack.floats.end(), v.data, v.data + v.rows);
            break;
        case Type::tensor: {
            pack.ints.push_back(v.rank);
            std::int64_t size = v.rank > 0 ? 1 : 0;
            for (int k = 0; k < v.rank; ++k) {
                pack.ints.push_back(static_cast<int>(v.dims[static_cast<std::size_t>(k)]));
                size *= v.dims[static_cast<std::size_t>(k)];
            }
            pack.floats.insert(pack.floats.end(), v.data, v.data + size);
            break;
        }
        case Type::token: // not packed
        case Type::ints:  // not in a decoder step
            break;
        }
    }
    return val::take_ownership(apg_step_record_js(vocab.as_handle(), pack.floats.data(), pack.ints.data()));
}

} // namespace apg::wasm
