// A loaded model's vocabularies and training record as JS values: the page's module, the image
// module and the audio module all describe their models with these (Model.info and its kin).
#pragma once

#include "io/vocab.hpp"

#include <emscripten/val.h>
#include <nlohmann/json.hpp>

namespace apg::wasm {

using emscripten::val;

// The tokens in id order.
inline val vocab_to_js(const io::Vocabulary &vocab) {
    val out = val::array();
    for (int i = 0; i < vocab.size(); ++i) out.call<void>("push", vocab.token(i));
    return out;
}

// Through JSON text: the training record is nested JSON of any shape, and JSON.parse builds it at once.
inline val json_to_js(const nlohmann::json &j) { return val::global("JSON").call<val>("parse", j.dump()); }

// One figure of a training record (e.g. "heldout_exact_match"), or null when the record has none
// or it is not a number (a hand-made checkpoint's record can hold anything).
inline val training_number(const nlohmann::json &training, const char *key) {
    const auto it = training.find(key);
    return it != training.end() && it->is_number() ? val(it->get<double>()) : val::null();
}

} // namespace apg::wasm
