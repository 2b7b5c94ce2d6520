// Turns a C++ exception into a JS Error carrying its whole message, its code (the name of its
// apg::ErrorCode) and its details (a plain object: the unknown tokens and suggestions, the
// limit, the field); the EngineError of playground.d.ts.
//
// A JS throw unwinds through the wasm frames without running C++ destructors, so it must happen
// only once nothing that owns memory or an emval handle is alive: the body runs (and its
// exception is caught and freed) inside guarded(); the error waits, as JSON, in one static
// buffer; the embind arguments are swapped for `undefined` (a reserved handle) so the skipped
// destructors of the invoker's temporaries have nothing to release.
#pragma once

#include "core/error.hpp"

#include <emscripten/val.h>

#include <exception>
#include <string_view>

namespace apg::wasm {

// The error as JSON ({message, code, details}) in a buffer that lives as long as the module.
const char *keep_error(const std::exception &e);
const char *keep_error(ErrorCode code, std::string_view message);
// Throws the kept error in JS as an Error with code and details; never returns.
[[noreturn]] void throw_js_error(const char *error_json);
// Wraps the exported function `exported_name` (after its embind registration) so that, before
// the call, its arguments are copied into plain values (any getter, proxy or valueOf of the
// caller's runs then, before the engine is entered, and a throw there becomes a coded Error), and
// after a JS exception it gives back the wasm stack and gives embind's own errors a code.
// The last `optional` arguments may be left out; they arrive as undefined.
void guard_entry(const char *exported_name, int optional = 0);
// The same for a method or a class function of an embind class. The wrapping happens once the
// runtime has started (before the module's ready promise reaches the caller).
void guard_method(const char *class_name, const char *method_name, int optional = 0);
void guard_static(const char *class_name, const char *function_name, int optional = 0);

template <class Body, class... Args> emscripten::val guarded(Body &&body, Args &...args) {
    const char *error = nullptr;
    try {
        return body(args...);
    } catch (const std::exception &e) {
        error = keep_error(e);
    } catch (...) {
        error = keep_error(ErrorCode::bad_state, "unknown C++ exception");
    }
    ((args = emscripten::val::undefined()), ...);
    throw_js_error(error);
}

} // namespace apg::wasm
