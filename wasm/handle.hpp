// What JS holds for an engine object (a model, a decoding session, a training run), and its
// methods as embind functions. Each call first takes its own reference to the object, so even a
// delete() of the handle from page code during the call cannot free what the call is using; and
// its body runs inside guarded() (js_error.hpp), so a C++ exception reaches JS as a coded Error.
//
//   emscripten::class_<Handle<Run>>("TrainRunHandle").function("step", method<step_js>)
//     with val step_js(Run &run, val n), or val f(const std::shared_ptr<T> &, ...) for a method
//     whose result keeps the object alive (a model's session holds the model)
//   exported("limits", entry<limits_js>) with val limits_js()
//   ExportedClass<Run>("TrainRunHandle").method("step", method<step_js>)
#pragma once

#include "js_error.hpp"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>

namespace apg::wasm {

template <class T> struct Handle { std::shared_ptr<T> held; };

template <auto F, class Signature = decltype(F)> struct Method;
template <auto F, class T, class... Args> struct Method<F, emscripten::val (*)(T &, Args...)> {
    static emscripten::val call(Handle<T> &h, Args... args) {
        return guarded(
            [&h](Args &...a) {
                const std::shared_ptr<T> held = h.held;
                return F(*held, a...);
            },
            args...);
    }
};
template <auto F, class T, class... Args> struct Method<F, emscripten::val (*)(const std::shared_ptr<T> &, Args...)> {
    static emscripten::val call(Handle<T> &h, Args... args) {
        return guarded(
            [&h](Args &...a) {
                const std::shared_ptr<T> held = h.held;
                return F(held, a...);
            },
            args...);
    }
};
template <auto F> inline constexpr auto method = &Method<F>::call;

template <auto F, class Signature = decltype(F)> struct Entry;
template <auto F, class... Args> struct Entry<F, emscripten::val (*)(Args...)> {
    static emscripten::val call(Args... args) { return guarded(F, args...); }
};
template <auto F> inline constexpr auto entry = &Entry<F>::call;

// A module function, registered and guarded (guard_entry: its last `optional` arguments may be
// left out), so the two are never listed apart.
template <class F> void exported(const char *name, F function, int optional = 0) {
    emscripten::function(name, function);
    guard_entry(name, optional);
}

// The same for the class `name` of Handle<T>: each method and class function registered and
// guarded (guard_method, guard_static) in one call.
template <class T> class ExportedClass {
  public:
    explicit ExportedClass(const char *name) : class_(name), name_(name) {}
    template <class F> ExportedClass &method(const char *name, F function, int optional = 0) {
        class_.function(name, function);
        guard_method(name_, name, optional);
        return *this;
    }
    template <class F> ExportedClass &class_function(const char *name, F function, int optional = 0) {
        class_.class_function(name, function);
        guard_static(name_, name, optional);
        return *this;
    }

  private:
    emscripten::class_<Handle<T>> class_;
    const char *name_;
};

} // namespace apg::wasm
