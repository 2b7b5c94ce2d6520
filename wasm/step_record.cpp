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
// An optional vector or matrix with no elements becomes null.
// clang-format off
EM_JS(emscripten::EM_VAL, apg_step_record_js,
      (emscripten::EM_VAL vocab_handle, const char *schema_json, const float *floats, const int *ints), {
    let fields = Module['apgStepFields'];
    if (!fields) {
        const types = ['integer', 'number', 'label', 'token', 'vector', 'matrix', 'top'];
        fields = Module['apgStepFields'] = JSON.parse(UTF8ToString(schema_json)).map((f) => ({
            name: f.name, type: types.indexOf(f.type), optional: f.optional, labels: f.labels, of: f.of,
        }));
    }
    const vocab = Emval.toValue(vocab_handle);
    let i = ints >> 2;
    let at = floats >> 2;
    const out = {};
    for (let n = 0; n < fields.length; n++) {
        const f = fields[n];
        switch (f.type) {
        case 0: out[f.name] = HEAP32[i++]; break;
        case 1: out[f.name] = HEAPF32[at++]; break;
        case 2: out[f.name] = f.labels[HEAP32[i++]]; break;
        case 3: out[f.name] = vocab[out[f.of]]; break;
        case 4: {
            const size = HEAP32[i++];
            out[f.name] = size === 0 && f.optional ? null : HEAPF32.slice(at, at + size);
            at += size;
            break;
        }
        case 5: {
            const rows = HEAP32[i++];
            const cols = HEAP32[i++];
            const size = rows * cols;
            out[f.name] = size === 0 && f.optional ? null : { data: HEAPF32.slice(at, at + size), rows, cols };
            at += size;
            break;
        }
        case 6: {
            const k = HEAP32[i++];
            const top = new Array(k);
            for (let j = 0; j < k; j++) {
                const id = HEAP32[i + j];
                top[j] = { id, token: vocab[id], prob: HEAPF32[at + j] };
            }
            i += k;
            at += k;
            out[f.name] = top;
            break;
        }
        }
    }
    return Emval.toHandle(out);
});
// clang-format on

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
    static const char *schema = step_schema_json().c_str();
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
        case Type::token:
            break;
        }
    }
    return val::take_ownership(apg_step_record_js(vocab.as_handle(), schema, pack.floats.data(), pack.ints.data()));
}

} // namespace apg::wasm
