#include "js_error.hpp"

#include "core/limits.hpp"

#include <emscripten/emscripten.h>
#include <nlohmann/json.hpp>

#include <string>
#include <type_traits>

// clang-format off
EM_JS(void, apg_throw_js_error, (const char *error_json), {
    const kept = JSON.parse(UTF8ToString(error_json));
    const error = new Error(kept.message);
    error.code = kept.code;
    error.details = kept.details;
    throw error;
});

// Every entry point is wrapped by this (see guard_entry in js_error.hpp). Three things happen in
// JS, around the embind function:
// - The arguments are copied into plain values first: arrays into new arrays, typed arrays into
//   new typed arrays of the same kind, objects into new objects of their own enumerable
//   properties, functions into empty functions, strings made well-formed (a lone surrogate
//   becomes U+FFFD, as TextEncoder does). Whatever page code this runs (a getter, a proxy trap)
//   runs before the engine is entered, so it cannot free what a call is using, and the engine
//   never calls valueOf or toString. A throw while copying (a getter, a detached buffer, a
//   revoked proxy, nesting deeper than core/limits.hpp allows) becomes an Error with code bad_argument.
//   The copy is linear in the value and bounded: a value held or passed twice is copied once, one
//   that holds itself is refused (bad_argument), a string longer than max_argument_chars is
//   refused by its length before anything copies it (too_long), and the elements, keys and
//   string units of a call count against max_argument_elements together.
// - A call with a number of arguments no overload takes, or on a deleted object, is refused
//   (codes bad_argument and bad_state) before embind sees it; so is delete() (or clone()) of a
//   deleted handle, which embind itself refuses with an uncoded BindingError.
// - A JS throw leaves wasm without running the epilogues that give back the shadow stack, and
//   the invoke_* wrappers on its way put the stack pointer back only to their own frames: each
//   error would keep a few dozen bytes of stack until it overflowed. So the stack pointer is put
//   back to where the call found it; and errors raised by embind itself or by the runtime (a
//   RangeError when memory or the stack runs out) get a code too.
// The wrapping waits until the runtime has run (embind binds a function or method only once
// every type it uses is registered), which is still before the module's ready promise reaches
// the caller. Left-out optional arguments are passed as undefined, so no function needs
// overloads by argument count.
//   where: 0 = a module function, 1 = a method of class_name, 2 = a class function of class_name
EM_JS(void, apg_guard_js, (const char *class_name, const char *name, int where, int optional, int max_elements, int max_depth, int max_chars), {
    if (!Module['apgPlainCopy']) {
        const isArray = Array.isArray;
        const isView = ArrayBuffer.isView;
        const ownKeys = Object.keys;
        const typedArrayName = Object.getOwnPropertyDescriptor(
            Object.getPrototypeOf(Int8Array.prototype), Symbol.toStringTag).get;
        const typedArrays = {
            Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
            Float32Array, Float64Array, BigInt64Array, BigUint64Array,
        };
        const toWellFormed = String.prototype.toWellFormed;
        const wellFormed = function(s) {
            if (toWellFormed) return toWellFormed.call(s);
            let out = "";
            for (let i = 0; i < s.length; i++) {
                const c = s.charCodeAt(i);
                if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
                    const d = s.charCodeAt(i + 1);
                    if (d >= 0xdc00 && d <= 0xdfff) { out += s[i] + s[i + 1]; i++; continue; }
                }
                out += c >= 0xd800 && c <= 0xdfff ? String.fromCharCode(0xfffd) : s[i];
            }
            return out;
        };
        // One copier per call: every argument's distinct objects are copied once (a value held
        // twice, or passed twice, gets one copy, so the work is linear in the value however it
        // shares), an object met again while it is being copied holds itself and is refused, and
        // the elements, keys and string units copied are counted against one bound.
        // What the copy refuses with its own code (page code cannot make one: a throw of its own
        // is reported as what it threw).
        const Refusal = function(code, message, details) {
            this.code = code;
            this.message = message;
            this.details = details;
        };
        const copier = function() {
            const copies = new Map();
            const open = new Set();
            let spent = 0;
            const spend = function(n) {
                spent += n;
                if (spent > max_elements)
                    throw new RangeError('more than ' + max_elements + ' elements, keys and characters in all');
            };
            const text = function(s) {
                if (s.length > max_chars)
                    throw new Refusal('too_long', 'holds a text of ' + s.length + ' characters, more than the ' +
                                      max_chars + ' an argument may hold', { length: s.length, limit: max_chars });
                spend(s.length);
                return wellFormed(s);
            };
            const copy = function(v, depth) {
                if (typeof v === 'string') return text(v);
                if (typeof v === 'function') return function() {};
                if (typeof v !== 'object' || v === null) return v;
                const done = copies.get(v);
                if (done !== undefined) return done;
                if (open.has(v))
                    throw new Refusal('bad_argument', 'holds itself (a cycle), which the engine cannot read', {});
                if (depth > max_depth) throw new RangeError('nested more than ' + max_depth + ' levels deep');
                spend(1);
                let out;
                if (isView(v)) {
                    const kind = typedArrayName.call(v);
                    out = kind === undefined ? {} : new typedArrays[kind](v);
                } else if (isArray(v)) {
                    const n = v.length;
                    if (!(n <= max_elements)) throw new RangeError('an array of more than ' + max_elements + ' elements');
                    spend(n);
                    open.add(v);
                    out = new Array(n);
                    for (let i = 0; i < n; i++) out[i] = copy(v[i], depth + 1);
                    open.delete(v);
                } else {
                    const keys = ownKeys(v);
                    if (keys.length > max_elements) throw new RangeError('an object of more than ' + max_elements + ' keys');
                    spend(keys.length);
                    open.add(v);
                    out = Object.create(null);
                    for (let i = 0; i < keys.length; i++) out[text(keys[i])] = copy(v[keys[i]], depth + 1);
                    open.delete(v);
                }
                copies.set(v, out);
                return out;
            };
            return copy;
        };
        const coded = function(message, code, details, cause) {
            const error = cause === undefined ? new Error(message) : new Error(message, { cause: cause });
            error.code = code;
            error.details = details;
            return error;
        };
        // An embind handle's own methods (delete, clone, deleteLater, isAliasOf; embind's
        // ClassHandle) throw embind's uncoded BindingError on a deleted handle ("already
        // deleted"): each class's get a coded bad_state instead, checked before embind's.
        const guardedClasses = new Set();
        const guardHandle = function(className) {
            if (guardedClasses.has(className)) return;
            guardedClasses.add(className);
            const proto = Module[className].prototype;
            for (const name of ['delete', 'clone', 'deleteLater', 'isAliasOf']) {
                const inner = proto[name];
                if (typeof inner !== 'function') continue;
                const label = className + '.' + name;
                const outer = function(...args) {
                    if (name !== 'isAliasOf' && this instanceof Module[className] && this.isDeleted())
                        throw coded(label + ': this ' + className + ' was deleted already', 'bad_state', {});
                    try {
                        return inner.apply(this, args);
                    } catch (error) {
                        if (error instanceof Error && error.code === undefined) {
                            error.code = 'bad_state';
                            error.details = {};
                        }
                        throw error;
                    }
                };
                Object.defineProperty(proto, name, { value: outer, writable: true, configurable: true });
            }
        };
        Module['apgPlainCopy'] = { copier: copier, Refusal: Refusal, coded: coded, guardHandle: guardHandle };
    }
    const helpers = Module['apgPlainCopy'];
    const className = UTF8ToString(class_name);
    const key = UTF8ToString(name);
    const label = where === 0 ? key : className + '.' + key;
    addOnPostRun(function() {
        if (where !== 0) helpers.guardHandle(className);
        const target = where === 0 ? Module : where === 1 ? Module[className].prototype : Module[className];
        const inner = target[key];
        const most = inner.argCount;
        const least = most - optional;
        const outer = function(...args) {
            if (args.length < least || args.length > most)
                throw helpers.coded(label + ': expected ' + (least === most ? most : least + (most - least === 1 ? ' or ' : ' to ') + most) +
                                    ' arguments, got ' + args.length, 'bad_argument', { least: least, most: most });
            const plain = new Array(most);
            const copy = helpers.copier();
            for (let i = 0; i < args.length; i++) {
                try {
                    plain[i] = copy(args[i], 0);
                } catch (error) {
                    if (error instanceof helpers.Refusal)
                        throw helpers.coded(label + ': argument ' + (i + 1) + ' ' + error.message, error.code,
                                            Object.assign({ argument: i + 1 }, error.details));
                    throw helpers.coded(label + ': argument ' + (i + 1) + ' cannot be read: ' +
                                        (error instanceof Error ? error.message : String(error)),
                                        'bad_argument', { argument: i + 1 }, error);
                }
            }
            if (where === 1 && this instanceof Module[className] && this.isDeleted())
                throw helpers.coded(label + ': this ' + className + ' was deleted', 'bad_state', {});
            const stackPointer = stackSave();
            try {
                return inner.apply(this, plain);
            } catch (error) {
                stackRestore(stackPointer);
                if (error instanceof Error && error.code === undefined) {
                    error.code = error instanceof Module['BindingError'] ? 'bad_argument'
                               : error instanceof RangeError ? 'limit_exceeded' : 'bad_state';
                    error.details = {};
                }
                throw error;
            }
        };
        outer.argCount = inner.argCount;
        target[key] = outer;
    });
});
// clang-format on

namespace apg::wasm {

namespace {

constexpr int max_elements = static_cast<int>(limits::max_argument_elements);
constexpr int max_depth = static_cast<int>(limits::max_argument_depth);
constexpr int max_chars = static_cast<int>(limits::max_argument_chars);

nlohmann::json details_to_json(const Details &details) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto &entry : details) std::visit([&](const auto &v) { out[entry.first] = v; }, entry.second);
    return out;
}

const char *keep(ErrorCode code, std::string_view message, const Details &details) {
    static std::string kept;
    nlohmann::json j;
    j["message"] = std::string(message);
    j["code"] = std::string(name(code));
    j["details"] = details_to_json(details);
    // Bytes that are not UTF-8 (a file's token, say) become U+FFFD rather than losing the error.
    kept = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return kept.c_str();
}

} // namespace

const char *keep_error(const std::exception &e) {
    if (const auto *coded = dynamic_cast<const Error *>(&e))
        return keep(coded->code(), coded->text(), coded->details());
    return keep(code_of(e), e.what(), {});
}

const char *keep_error(ErrorCode code, std::string_view message) { return keep(code, message, {}); }

void throw_js_error(const char *error_json) {
    apg_throw_js_error(error_json);
    __builtin_unreachable();
}

void guard_entry(const char *exported_name, int optional) {
    apg_guard_js("", exported_name, 0, optional, max_elements, max_depth, max_chars);
}

void guard_method(const char *class_name, const char *method_name, int optional) {
    apg_guard_js(class_name, method_name, 1, optional, max_elements, max_depth, max_chars);
}

void guard_static(const char *class_name, const char *function_name, int optional) {
    apg_guard_js(class_name, function_name, 2, optional, max_elements, max_depth, max_chars);
}

} // namespace apg::wasm
