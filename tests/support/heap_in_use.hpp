// Bytes the allocator holds in use, for the tests that hold a memory budget to what a piece of work
// really allocates: AddressSanitizer's count of the bytes the program asked for and has not freed
// (the native-asan preset, where the decode suite's budget checks run), glibc's mallinfo2,
// Emscripten's mallinfo. -1 where none can be read: those tests then check only the budget.
#pragma once

#include "support/sanitized.hpp"

#include <cstdint>
#include <malloc.h>

#if APG_TEST_SANITIZED
#include <sanitizer/allocator_interface.h>
#endif

namespace apg::test {

inline std::int64_t heap_in_use() {
#if APG_TEST_SANITIZED
    // glibc's figures are empty under ASan, whose allocator replaces glibc's
    return static_cast<std::int64_t>(__sanitizer_get_current_allocated_bytes());
#elif defined(__EMSCRIPTEN__)
    return static_cast<std::int64_t>(mallinfo().uordblks);
#elif defined(__GLIBC__)
    return static_cast<std::int64_t>(mallinfo2().uordblks);
#else
    return -1;
#endif
}

} // namespace apg::test
