// Values every module hands to JS: a loaded model's vocabularies and training record (Model.info
// and its kin in the page's, the image and the audio module), lists of strings, and objects of
// named fields (dimensions, limits).
#pragma once

#include "io/vocab.hpp"

#include <emscripten/val.h>
#include <nlohmann/json.hpp>

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace apg::wasm {

using emscripten::val;

// A JS object of these (name, value) fields, in order: a model's dimensions, a module's limits.
inline val object_of(std::initializer_list<std::pair<const char *, val>> fields) {
    val out = val::object();
    for (const auto &[name, value] : fields) out.set(name, value);
    return out;
}

inline val strings_to_js(const std::vector<std::string> &items) {
    return array_of(items, [](const std::string &s) { return val(s); });
}

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
