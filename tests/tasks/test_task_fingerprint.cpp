// The generated data must be the same on every platform: the shipped models were trained on the
// native build's data, and the browser (wasm) regenerates held-out sets and will train on it.
// Function arguments are evaluated in an unspecified order (GCC and clang differ), so a generator
// that draws two random numbers inside one call's arguments diverges between builds; these
// fingerprints, taken from the native build the shipped models were trained with, catch that.
#include "tasks/task.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>

namespace {
// FNV-1a over every source and target text, train then held-out.
std::uint64_t fingerprint(const apg::tasks::TaskData &task) {
    std::uint64_t h = 1469598103934665603ull;
    auto add = [&](const std::string &s) {
        for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
        h = (h ^ 0xff) * 1099511628211ull; // separator
    };
    for (const auto *part : {&task.train, &task.heldout})
        for (const auto &e : *part) {
            add(e.source_text);
            add(e.target_text);
        }
    return h;
}
} // namespace

TEST_CASE("every task generates the same data natively and in wasm") {
    CHECK(fingerprint(apg::tasks::make_task("dates", 1, 2000, 200)) == 6029422225922252094ull);
    CHECK(fingerprint(apg::tasks::make_task("zh", 1, 2000, 200)) == 6406298139285280771ull);
    CHECK(fingerprint(apg::tasks::make_task("reverse", 1, 2000, 200)) == 1867513702911222671ull);
}
