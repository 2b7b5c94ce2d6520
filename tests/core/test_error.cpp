#include "core/error.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace apg;

TEST_CASE("a coded error keeps its code, message and details and is caught as its standard type") {
    try {
        throw InputError(ErrorCode::too_long, "too long: 20 tokens, the limit is 14",
                         {{"length", std::int64_t{20}}, {"limit", std::int64_t{14}}});
    } catch (const std::invalid_argument &e) {
        CHECK(std::string(e.what()) == "too long: 20 tokens, the limit is 14");
        CHECK(code_of(e) == ErrorCode::too_long);
        const auto &coded = dynamic_cast<const Error &>(e);
        REQUIRE(coded.details().size() == 2);
        CHECK(coded.details()[1].first == "limit");
        CHECK(std::get<std::int64_t>(coded.details()[1].second) == 14);
    }
}

TEST_CASE("exceptions without a code get the code their standard type stands for") {
    CHECK(code_of(std::invalid_argument("x")) == ErrorCode::bad_argument);
    CHECK(code_of(std::out_of_range("x")) == ErrorCode::bad_argument);
    CHECK(code_of(std::logic_error("x")) == ErrorCode::bad_state);
    CHECK(code_of(std::runtime_error("checkpoint: x")) == ErrorCode::bad_checkpoint);
    CHECK(code_of(std::bad_alloc()) == ErrorCode::limit_exceeded);
}

TEST_CASE("every error code has a distinct name") {
    for (ErrorCode a : all_error_codes)
        for (ErrorCode b : all_error_codes)
            if (a != b) CHECK(name(a) != name(b));
}
