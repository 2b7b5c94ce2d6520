#include "core/error.hpp"
#include "core/limits.hpp"
#include "tasks/pairs.hpp"

#include <doctest/doctest.h>

#include <numeric>
#include <set>
#include <string>

using namespace apg;
using namespace apg::tasks;

namespace {

// The coded error parse_pairs throws for text: its code, message and details.
struct Caught {
    ErrorCode code = ErrorCode::bad_state;
    std::string message;
    Details details;
    std::int64_t number(const std::string &key) const {
        for (const auto &[k, v] : details)
            if (k == key) return std::get<std::int64_t>(v);
        return -1;
    }
    std::string text(const std::string &key) const {
        for (const auto &[k, v] : details)
            if (k == key) return std::get<std::string>(v);
        return {};
    }
};

Caught error_of(const std::string &text, std::optional<io::Tokenizer> how = std::nullopt) {
    try {
        (void)parse_pairs(text, how, 1);
    } catch (const Error &e) {
        return {e.code(), std::string(e.text()), e.details()};
    }
    FAIL("no error for the text");
    return {};
}

std::string repeat(const std::string &line, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += line;
    return out;
}

} // namespace

TEST_CASE("pairs: lines become examples, CRLF and blank lines at the end are accepted") {
    const PairsData p = parse_pairs("ab\tba\r\nabc\tcba\n\n \n", std::nullopt, 1);
    CHECK(p.count == 2);
    CHECK(p.tokenizer == io::Tokenizer::characters);
    REQUIRE(p.data.train.size() == 2); // under 10 pairs nothing is held out
    CHECK(p.data.heldout.empty());
    CHECK(p.data.train[0].source == std::vector<std::string>{"a", "b"});
    CHECK(p.data.train[1].target == std::vector<std::string>{"c", "b", "a"});
    CHECK(p.data.max_source_len == 3 + 4);
    CHECK(p.source_lengths == std::vector<int>{0, 0, 1, 1});
    CHECK(p.longest_target == 3);
}

TEST_CASE("pairs: an empty text or only blank lines is empty_input") {
    for (const std::string text : {"", "\n", "\r\n\n  \n"}) {
        const Caught e = error_of(text);
        CHECK(e.code == ErrorCode::empty_input);
        CHECK(e.message.find("no pairs") != std::string::npos);
    }
}

TEST_CASE("pairs: every bad line is named by its number") {
    struct Case {
        std::string text;
        ErrorCode code;
        std::int64_t line;
        std::string says;
        std::string problem; // the details' name for it, which a page words in its own language
    };
    const Case cases[] = {
        {"a\tb\n\nc\td\n", ErrorCode::bad_argument, 2, "line 2: empty line", "empty_line"},
        {"a\tb\n   \nc\td", ErrorCode::bad_argument, 2, "line 2: a line of only spaces or tabs", "blank_line"},
        {"a\tb\n\t\nc\td", ErrorCode::bad_argument, 2, "line 2: a line of only spaces or tabs", "blank_line"},
        {"a\tb\r\n\r\nc\td", ErrorCode::bad_argument, 2, "line 2: empty line", "empty_line"},
        {"a\tb\nc d\n", ErrorCode::bad_argument, 2, "line 2: no tab", "no_tab"},
        {"a\tb\tc\n", ErrorCode::bad_argument, 1, "line 1: 2 tabs", "tabs"},
        {"a\tb\nc\x01"
         "d\te\n",
         ErrorCode::bad_argument, 2, "line 2: the control character U+0001 at column 2", "control"},
        {"a\tb\x7f\n", ErrorCode::bad_argument, 1, "U+007F at column 4", "control"},
        {"x\ty\nz\ta\nab\xC2\x85\tc", ErrorCode::bad_argument, 3, "U+0085 at column 3", "control"},
        {"a\tb\nc\td\n\xff\te", ErrorCode::bad_argument, 3, "line 3: not UTF-8", "not_utf8"},
        {"a\tb\n\tb\n", ErrorCode::bad_argument, 2, "line 2: the source is empty", "empty_side"},
        {"a\t \n", ErrorCode::bad_argument, 1, "line 1: the target is empty", "empty_side"},
        {"a b\tc d\n. !\tx y\n", ErrorCode::bad_argument, 2, "the source is empty (the word tokenizer drops",
         "empty_side"},
        {"ab\tc\n" + std::string(129, 'a') + "\tb\n", ErrorCode::too_long, 2, "line 2: the source has 129 tokens",
         "too_long"},
        {"a b\tc d\nx </s>\ty z\n", ErrorCode::bad_argument, 2, "line 2: the source holds \"</s>\", a name",
         "reserved"},
        {"a b\tc <pad>\n", ErrorCode::bad_argument, 1, "line 1: the target holds \"<pad>\"", "reserved"},
    };
    for (const Case &c : cases) {
        CAPTURE(c.text);
        const Caught e = error_of(c.text);
        CHECK(e.code == c.code);
        CHECK(e.number("line") == c.line);
        CHECK(e.message.find(c.says) != std::string::npos);
        CHECK(e.message.rfind("line " + std::to_string(c.line) + ": ", 0) == 0);
        CHECK(e.text("problem") == c.problem);
    }
}

TEST_CASE("pairs: a side's tokens and a token's bytes are bounded") {
    const Caught side = error_of("a\tb\nc\t" + repeat("x ", 129) + "\n", io::Tokenizer::words);
    CHECK(side.code == ErrorCode::too_long);
    CHECK(side.number("line") == 2);
    CHECK(side.number("length") == 129);
    CHECK(side.number("limit") == limits::max_pair_tokens);
    CHECK(side.message.find("the target has 129 tokens") != std::string::npos);
    CHECK(side.text("side") == "target");
    CHECK(side.text("unit") == "tokens");
    // 128 tokens is still fine
    CHECK(parse_pairs("a\t" + repeat("x ", 128), io::Tokenizer::words, 1).longest_target == 128);

    const Caught word = error_of("ok fine\tgood one\n" + std::string(65, 'w') + " x\tb c\n", io::Tokenizer::words);
    CHECK(word.code == ErrorCode::too_long);
    CHECK(word.number("line") == 2);
    CHECK(word.number("length") == 65);
    CHECK(word.number("limit") == limits::max_token_bytes);
}

TEST_CASE("pairs: more than max_pairs pairs names the first line over, more than max_pairs_bytes is refused first") {
    const Caught many = error_of(repeat("a\tb\n", limits::max_pairs + 1));
    CHECK(many.code == ErrorCode::limit_exceeded);
    CHECK(many.number("line") == limits::max_pairs + 1);
    CHECK(many.number("limit") == limits::max_pairs);
    CHECK(many.text("problem") == "too_many");
    CHECK(parse_pairs(repeat("a\tb\n", limits::max_pairs), std::nullopt, 1).count == limits::max_pairs);

    const Caught big = error_of(std::string(limits::max_pairs_bytes + 1, 'a'));
    CHECK(big.code == ErrorCode::limit_exceeded);
    CHECK(big.number("limit") == static_cast<std::int64_t>(limits::max_pairs_bytes));
    CHECK(big.number("length") == static_cast<std::int64_t>(limits::max_pairs_bytes + 1));
}

TEST_CASE("pairs: a vocabulary over max_vocab_tokens is limit_exceeded naming its side") {
    std::string text;
    int word = 0;
    for (int line = 0; line < 300; ++line) {
        for (int k = 0; k < 128; ++k) text += "w" + std::to_string(word++) + " ";
        text += "\tx y\n";
    }
    const Caught e = error_of(text);
    CHECK(e.code == ErrorCode::limit_exceeded);
    CHECK(e.number("limit") == limits::max_vocab_tokens);
    bool names_source = false;
    for (const auto &[k, v] : e.details)
        if (k == "name") names_source = std::get<std::string>(v) == "sourceVocab";
    CHECK(names_source);
}

TEST_CASE("pairs: automatic tokenization takes words when half the sources and half the targets have spaces") {
    CHECK(parse_pairs("tom chase jerry\t汤姆 追逐 杰瑞\nhello\tni hao\n", std::nullopt, 1).tokenizer ==
          io::Tokenizer::words);
    // spaced sources, unspaced targets: characters for both
    const PairsData chars = parse_pairs("tom chase jerry\t汤姆追逐杰瑞\nhi there\t你好\n", std::nullopt, 1);
    CHECK(chars.tokenizer == io::Tokenizer::characters);
    CHECK(chars.data.train[1].target == std::vector<std::string>{"你", "好"});
    CHECK(chars.data.train[1].source.size() == 8); // "hi there": the space is a token
    // 1 of 3 sources spaced: characters
    CHECK(parse_pairs("a b\tc d\nab\tc d\nab\tc d\n", std::nullopt, 1).tokenizer == io::Tokenizer::characters);
    // either can be asked for
    const PairsData words = parse_pairs("ab\tcd\n", io::Tokenizer::words, 1);
    CHECK(words.tokenizer == io::Tokenizer::words);
    CHECK(words.data.train[0].source == std::vector<std::string>{"ab"});
}

TEST_CASE("pairs: the held-out split is a tenth, by source, and follows from the seed") {
    std::string text;
    for (int i = 0; i < 200; ++i) text += "s" + std::to_string(i % 150) + " x\tt" + std::to_string(i) + " y\n";
    const PairsData a = parse_pairs(text, std::nullopt, 7);
    const PairsData b = parse_pairs(text, std::nullopt, 7);
    const PairsData c = parse_pairs(text, std::nullopt, 8);
    CHECK(a.count == 200);
    CHECK(a.data.heldout.size() >= 20);
    CHECK(a.data.heldout.size() <= 21); // a source seen twice may carry the share one past
    CHECK(a.data.train.size() + a.data.heldout.size() == 200);
    std::set<std::string> train_sources, a_held, c_held;
    for (const auto &e : a.data.train) train_sources.insert(e.source_text);
    for (const auto &e : a.data.heldout) {
        CHECK(train_sources.count(e.source_text) == 0);
        a_held.insert(e.source_text);
    }
    REQUIRE(b.data.heldout.size() == a.data.heldout.size());
    for (std::size_t k = 0; k < a.data.heldout.size(); ++k)
        CHECK(b.data.heldout[k].target_text == a.data.heldout[k].target_text);
    for (const auto &e : c.data.heldout) c_held.insert(e.source_text);
    CHECK(c_held != a_held);
    CHECK(std::accumulate(a.source_lengths.begin(), a.source_lengths.end(), 0) == 200);
    CHECK(a.source_lengths[2] == 200);

    CHECK(heldout_target(9) == 0);
    CHECK(heldout_target(10) == 1);
    CHECK(heldout_target(50000) == 1000);
}
