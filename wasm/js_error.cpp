#include "js_error.hpp"

#include <emscripten/emscripten.h>

#include <string>

// clang-format off
EM_JS(void, apg_throw_js_error, (const char *message), {
    throw new Error(UTF8ToString(message));
});

// A JS throw leaves wasm without running the epilogues that give back the shadow stack, and the
// invoke_* wrappers on its way put the stack pointer back only to their own frames: each error
// would keep a few dozen bytes of stack until it overflowed. So each entry point is wrapped to
// restore the stack pointer it was entered with. The wrapping waits until the runtime has run
// (embind binds a function or method only once every type it uses is registered), which is
// still before the module's ready promise reaches the caller. The overload table is shared so
// that embind's dispatch between overloads keeps working.
//   where: 0 = a module function, 1 = a method of class_name, 2 = a class function of class_name
EM_JS(void, apg_restore_stack_on_throw_js, (const char *class_name, const char *name, int where), {
    const className = UTF8ToString(class_name);
    const key = UTF8ToString(name);
    addOnPostRun(function() {
        const target = where === 0 ? Module : where === 1 ? Module[className].prototype : Module[className];
        const inner = target[key];
        const outer = function(...args) {
            const stackPointer = stackSave();
            try {
                return inner.apply(this, args);
            } catch (error) {
                stackRestore(stackPointer);
                throw error;
            }
        };
        outer.overloadTable = inner.overloadTable;
        outer.argCount = inner.argCount;
        target[key] = outer;
    });
});
// clang-format on

namespace apg::wasm {

const char *keep_message(const char *message) {
    static std::string kept;
    kept = message;
    return kept.c_str();
}

void throw_js_error(const char *message) {
    apg_throw_js_error(message);
    __builtin_unreachable();
}

void restore_stack_on_throw(const char *exported_name) { apg_restore_stack_on_throw_js("", exported_name, 0); }

void restore_stack_on_throw_method(const char *class_name, const char *method_name) {
    apg_restore_stack_on_throw_js(class_name, method_name, 1);
}

void restore_stack_on_throw_static(const char *class_name, const char *function_name) {
    apg_restore_stack_on_throw_js(class_name, function_name, 2);
}

} // namespace apg::wasm
