// Turns a C++ exception into a JS Error carrying its message (TOOLCHAIN.md #8).
//
// A JS throw unwinds through the wasm frames without running C++ destructors, so it must happen
// only once nothing that owns memory or an emval handle is alive: the body runs (and its
// exception is caught and freed) inside guarded(); the message waits in one static buffer; the
// embind arguments are swapped for `undefined` (a reserved handle) so the skipped destructors
// of the invoker's temporaries have nothing to release.
#pragma once

#include <emscripten/val.h>

#include <exception>

namespace apg::wasm {

// Copies the message into a buffer that lives as long as the module.
const char *keep_message(const char *message);
// throw new Error(message) in JS; never returns.
[[noreturn]] void throw_js_error(const char *message);
// Wraps the exported function `exported_name` (after its embind registration) so that it gives
// back the wasm stack when a JS exception leaves it.
void restore_stack_on_throw(const char *exported_name);
// The same for a method or a class function of an embind class. The wrapping happens once the
// runtime has started (before the module's ready promise reaches the caller).
void restore_stack_on_throw_method(const char *class_name, const char *method_name);
void restore_stack_on_throw_static(const char *class_name, const char *function_name);

template <class Body, class... Args> emscripten::val guarded(Body &&body, Args &...args) {
    const char *message = nullptr;
    try {
        return body(args...);
    } catch (const std::exception &e) {
        message = keep_message(e.what());
    } catch (...) {
        message = keep_message("unknown C++ exception");
    }
    ((args = emscripten::val::undefined()), ...);
    throw_js_error(message);
}

} // namespace apg::wasm
