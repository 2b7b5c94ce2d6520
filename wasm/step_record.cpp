#include "step_record.hpp"

#include "decode/record_schema.hpp"

#include <emscripten/emscripten.h>

#include <cstdint>
#include <iterator>
#include <string_view>
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
// The table arrives once, as words: the field count, then per field its name, type, shape, doc
// and labels as (address, length) of their text, optional, the label count, and its `of`.
EM_JS(void, apg_step_schema_js, (const int *words), {
    if (Module['apgStepSchema']) return;
    let w = words >> 2;
    const text = () => { const s = UTF8ToString(HEAP32[w], HEAP32[w + 1]); w += 2; return s; };
    const camel = (name) => name.replace(/_(.)/g, (m, c) => c.toUpperCase());
    const schema = [];
    const count = HEAP32[w++];
    for (let n = 0; n < count; n++) {
        const trace = text();
        const field = { name: camel(trace), trace, type: text() };
        const shape = text();
        field.shape = shape ? shape.split(' ') : [];
        field.optional = HEAP32[w++] !== 0;
        field.doc = text();
        const labels = HEAP32[w++];
        if (field.type === 'label') field.labels = [];
        for (let l = 0; l < labels; l++) field.labels.push(text());
        const of = text();
        if (field.type === 'token') field.of = camel(of);
        schema.push(field);
    }
    Module['apgStepSchema'] = schema;
});

EM_JS(emscripten::EM_VAL, apg_step_schema_copy_js, (), {
    return Emval.toHandle(JSON.parse(JSON.stringify(Module['apgStepSchema'])));
});

// clang-format on

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

void send_schema() {
    static const bool sent = [] {
        std::vector<int> words;
        const auto text = [&words](std::string_view s) {
            words.push_back(static_cast<int>(reinterpret_cast<std::intptr_t>(s.data())));
            words.push_back(static_cast<int>(s.size()));
        };
        words.push_back(static_cast<int>(std::size(decode::record::decoder_step)));
        for (const auto &f : decode::record::decoder_step) {
            text(f.name);
            text(decode::record::type_names[static_cast<int>(f.type)]);
            text(f.shape);
            words.push_back(f.optional ? 1 : 0);
            text(f.doc);
            words.push_back(static_cast<int>(f.labels.size()));
            for (std::string_view label : f.labels) text(label);
            text(f.of);
        }
        apg_step_schema_js(words.data());
        return true;
    }();
    (void)sent;
}

} // namespace

val step_record_schema() {
    send_schema();
    return val::take_ownership(apg_step_schema_copy_js());
}

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
        case Type::token:
            break;
        }
    }
    return val::take_ownership(apg_step_record_js(vocab.as_handle(), pack.floats.data(), pack.ints.data()));
}

} // namespace apg::wasm
