// Bytes the allocator holds in use, for the tests that hold a memory budget to what a piece of work
// really allocates: glibc's mallinfo2, Emscripten's mallinfo. -1 where it cannot be read (under
// AddressSanitizer, whose allocator reports nothing there): those tests then check only the budget.
#pragma once

#include "support/sanitized.hpp"

#include <cstdint>
#include <malloc.h>

namespace apg::test {

inline std::int64_t heap_in_use() {
    // (clang, which builds the sanitizer preset, says so through __has_feature, not the macro GCC sets)
    if constexpr (sanitized) return -1;
#if defined(__EMSCRIPTEN__)
    return static_cast<std::int64_t>(mallinfo().uordblks);
#elif defined(__GLIBC__)
    return static_cast<std::int64_t>(mallinfo2().uordblks);
#else
    return -1;
#endif
}

} // namespace apg::test
