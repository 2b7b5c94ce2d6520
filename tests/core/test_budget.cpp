#include "core/budget.hpp"
#include "core/number_text.hpp"

#include <doctest/doctest.h>

#include <limits>
#include <string>
#include <variant>

using apg::core::MemoryBudget;

namespace {

template <class T> T detail_value(const apg::Error &e, const std::string &name) {
    for (const auto &[key, value] : e.details())
        if (key == name) return std::get<T>(value);
    FAIL("no detail " << name);
    return {};
}

} // namespace

TEST_CASE("MemoryBudget: a total within the limit passes; past it the largest product is named") {
    MemoryBudget budget("decode", 1000);
    budget.add("the hidden", 4, {{10, "steps"}, {20, "positions"}});
    budget.add_bytes("the rest", 100);
    CHECK(budget.total() == 900);
    CHECK_NOTHROW(budget.check());
    budget.add("the probabilities", 8, {{10, "steps"}, {2, "tokens"}});
    CHECK(budget.total() == 1060);
    try {
        budget.check();
        FAIL("no refusal");
    } catch (const apg::InputError &e) {
        CHECK(e.code() == apg::ErrorCode::limit_exceeded);
        CHECK(std::string(e.text()) == "decode: 10 steps × 20 positions (the hidden, 800 bytes) would need 1060 bytes "
                                       "in all, more than the limit of 1000 bytes one piece of work may use");
        CHECK(detail_value<std::string>(e, "name") == "steps × positions");
        CHECK(detail_value<double>(e, "bytes") == 1060);
        CHECK(detail_value<std::int64_t>(e, "limit") == 1000);
    }
}

TEST_CASE("MemoryBudget: products past 2^63 are counted, not wrapped") {
    MemoryBudget budget("run");
    budget.add("huge", 4, {{4096, "a"}, {4096, "b"}, {4096, "c"}, {4096, "d"}, {4096, "e"}});
    CHECK(budget.total() > 1e18);
    CHECK_THROWS_AS(budget.check(), apg::InputError);
}

TEST_CASE("number_text: the shortest text that reads back as the same number") {
    CHECK(apg::number_text(1000.0001) == "1000.0001");
    CHECK(apg::number_text(5e-324) == "5e-324");
    CHECK(apg::number_text(0.1 + 0.2) == "0.30000000000000004");
    CHECK(apg::number_text(2.5) == "2.5");
    CHECK(apg::number_text(1e300) == "1e+300");
    CHECK(apg::number_text(0.0) == "0");
    CHECK(apg::number_text(1e-3f) == "0.001");
    CHECK(apg::number_text(1000.0001f) == "1000.0001");
    CHECK(apg::number_text(-std::numeric_limits<double>::infinity()) == "-Infinity");
}
