#include "io/vocab.hpp"

#include "core/error.hpp"
#include "core/limits.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

using apg::io::closest_tokens;
using apg::io::edit_distance;
using apg::io::Tokenizer;
using apg::io::Vocabulary;

namespace {

Vocabulary tom_and_jerry() {
    return Vocabulary::build({{"tom", "chased", "jerry"}, {"the", "cat", "ate", "its", "fish"}, {"tom", "said"}},
                             Tokenizer::words);
}

std::string message_of(const Vocabulary &vocab, const std::string &text) {
    try {
        vocab.encode(text);
    } catch (const std::invalid_argument &error) {
        return error.what();
    }
    return "(no exception)";
}

} // namespace

TEST_CASE("a built vocabulary puts the specials first and then every token sorted") {
    const Vocabulary vocab = tom_and_jerry();
    const std::vector<std::string> expected{"<pad>", "<s>", "</s>",  "<unk>", "ate", "cat", "chased",
                                            "fish",  "its", "jerry", "said",  "the", "tom"};
    CHECK(vocab.tokens() == expected);
    CHECK(vocab.size() == 13);
    CHECK(vocab.id("<pad>") == Vocabulary::pad);
    CHECK(vocab.id("</s>") == Vocabulary::eos);
    CHECK(vocab.id("tom") == 12);
    CHECK(vocab.id("tmo") == -1);
    CHECK(vocab.token(4) == "ate");
}

TEST_CASE("building from the same sequences in another order gives the same vocabulary") {
    const Vocabulary a = Vocabulary::build({{"b", "a"}, {"c"}}, Tokenizer::words);
    const Vocabulary b = Vocabulary::build({{"c"}, {"a", "b", "a"}}, Tokenizer::words);
    CHECK(a == b);
}

TEST_CASE("a vocabulary must start with the four specials and hold each token once") {
    CHECK_THROWS_AS(Vocabulary({"<s>", "<pad>", "</s>", "<unk>"}, Tokenizer::words), std::invalid_argument);
    CHECK_THROWS_AS(Vocabulary({"<pad>", "<s>", "</s>"}, Tokenizer::words), std::invalid_argument);
    CHECK_THROWS_AS(Vocabulary({"<pad>", "<s>", "</s>", "<unk>", "a", "a"}, Tokenizer::words), std::invalid_argument);
    CHECK_THROWS_AS(Vocabulary({"<pad>", "<s>", "</s>", "<unk>", ""}, Tokenizer::words), std::invalid_argument);
    CHECK_NOTHROW(Vocabulary({"<pad>", "<s>", "</s>", "<unk>", "a"}, Tokenizer::words));
}

TEST_CASE("token names the id and the size when the id is out of range") {
    const Vocabulary vocab = tom_and_jerry();
    try {
        (void)vocab.token(13);
        FAIL("no exception");
    } catch (const std::out_of_range &error) {
        CHECK(std::string(error.what()) == "vocabulary: token id 13 is outside [0, 13)");
    }
    CHECK_THROWS_AS((void)vocab.token(-1), std::out_of_range);
}

TEST_CASE("the words tokenizer lowercases ASCII and drops punctuation") {
    const Vocabulary vocab = tom_and_jerry();
    CHECK(vocab.tokenize("  Tom chased\tJERRY!  ") == std::vector<std::string>{"tom", "chased", "jerry"});
    CHECK(vocab.tokenize("Tom, said.") == std::vector<std::string>{"tom", "said"});
    CHECK(vocab.tokenize("jerry's cat?") == std::vector<std::string>{"jerry's", "cat"});
    CHECK(vocab.encode("Tom chased Jerry.") == std::vector<int>{12, 6, 9});
}

TEST_CASE("the characters tokenizer splits UTF-8 code points and collapses whitespace") {
    const Vocabulary vocab = Vocabulary::build({}, Tokenizer::characters);
    CHECK(vocab.tokenize(" Nov  29,\t2026 ") ==
          std::vector<std::string>{"n", "o", "v", " ", "2", "9", ",", " ", "2", "0", "2", "6"});
    CHECK(vocab.tokenize("汤姆追") == std::vector<std::string>{"汤", "姆", "追"});
    CHECK_THROWS_AS(vocab.tokenize("\xff"), std::invalid_argument);
    CHECK_THROWS_AS(vocab.tokenize("\xe6\xb1"), std::invalid_argument); // a 3-byte code point cut short
}

TEST_CASE("Chinese words are tokens that encode and join back with spaces") {
    const Vocabulary vocab =
        Vocabulary::build({{"汤姆", "追逐", "杰瑞"}, {"猫", "吃", "了", "它", "的", "鱼"}}, Tokenizer::words);
    const std::vector<int> ids = vocab.encode("汤姆 追逐 杰瑞");
    REQUIRE(ids.size() == 3);
    CHECK(vocab.token(ids[0]) == "汤姆");
    CHECK(vocab.token(ids[2]) == "杰瑞");
    CHECK(vocab.join(ids) == "汤姆 追逐 杰瑞");
}

TEST_CASE("join stops at the end token and skips padding and the start token") {
    const Vocabulary words = tom_and_jerry();
    CHECK(words.join({Vocabulary::bos, 12, 6, Vocabulary::pad, 9, Vocabulary::eos, 12}) == "tom chased jerry");
    CHECK(words.join({}) == "");
    const Vocabulary characters = Vocabulary::build({{"2", "0", "-"}}, Tokenizer::characters);
    CHECK(characters.join(characters.encode("20-02")) == "20-02");
}

TEST_CASE("empty input asks for a sentence") {
    const Vocabulary vocab = tom_and_jerry();
    CHECK(message_of(vocab, "") == "empty input: type a sentence");
    CHECK(message_of(vocab, "  ?! ") == "empty input: type a sentence");
}

TEST_CASE("unknown words are each named with the closest known ones") {
    const Vocabulary vocab = tom_and_jerry();
    CHECK(message_of(vocab, "Tmo chased Jerry") == "unknown word \"tmo\" (did you mean \"tom\"?)");
    CHECK(message_of(vocab, "tmo chsed jery") ==
          "unknown word \"tmo\" (did you mean \"tom\"?); unknown word \"chsed\" (did you mean \"chased\"?); "
          "unknown word \"jery\" (did you mean \"jerry\"?)");
    // Nothing is close to "xylophone": no suggestion rather than a wild one.
    CHECK(message_of(vocab, "tom xylophone") == "unknown word \"xylophone\"");
    // A special typed as text is not a word.
    CHECK(message_of(vocab, "<pad>") == "unknown word \"<pad>\"");
}

TEST_CASE("an unknown word repeated in the input is named once") {
    const Vocabulary vocab = tom_and_jerry();
    CHECK(message_of(vocab, "tmo tmo") == "unknown word \"tmo\" (did you mean \"tom\"?)");
}

TEST_CASE("closest tokens are ranked by edit distance, ties in vocabulary order, at most count") {
    const Vocabulary vocab = Vocabulary::build({{"cat", "bat", "hat", "cart", "dog"}}, Tokenizer::words);
    CHECK(closest_tokens(vocab, "cat") == std::vector<std::string>{"cat", "bat", "cart"});
    CHECK(closest_tokens(vocab, "mat", 2) == std::vector<std::string>{"bat", "cat"});
    CHECK(closest_tokens(vocab, "zzzzzz").empty());
}

TEST_CASE("edit distance counts code points and a swap of neighbours as one edit") {
    CHECK(edit_distance("tom", "tom") == 0);
    CHECK(edit_distance("tmo", "tom") == 1);
    CHECK(edit_distance("kitten", "sitting") == 3);
    CHECK(edit_distance("", "abc") == 3);
    CHECK(edit_distance("汤姆", "汤") == 1); // 6 bytes vs 3, but one code point apart
}

TEST_CASE("unknown characters are named as characters") {
    const Vocabulary vocab = Vocabulary::build({{"1", "2", " ", "n", "o", "v"}}, Tokenizer::characters);
    CHECK(message_of(vocab, "nov 12x") == "unknown character \"x\"");
}

TEST_CASE("a vocabulary survives a JSON round trip") {
    const Vocabulary vocab = Vocabulary::build({{"汤姆", "追逐"}, {"猫"}}, Tokenizer::words);
    const nlohmann::json j = vocab.to_json();
    CHECK(j.at("tokenizer") == "words");
    CHECK(j.at("tokens").size() == 7);
    CHECK(Vocabulary::from_json(nlohmann::json::parse(j.dump())) == vocab);
    const Vocabulary characters = Vocabulary::build({{"a"}}, Tokenizer::characters);
    CHECK(Vocabulary::from_json(characters.to_json()).tokenizer() == Tokenizer::characters);
}

TEST_CASE("bad vocabulary JSON is rejected with a message naming the field") {
    auto message = [](const nlohmann::json &j) -> std::string {
        try {
            Vocabulary::from_json(j);
        } catch (const std::runtime_error &error) {
            return error.what();
        }
        return "(no exception)";
    };
    const nlohmann::json specials = {"<pad>", "<s>", "</s>", "<unk>"};
    CHECK(message(nlohmann::json::array()) == "vocabulary: expected a JSON object");
    CHECK(message({{"tokens", specials}}) == "vocabulary: field \"tokenizer\" must be a string");
    CHECK(message({{"tokenizer", "words"}}) == "vocabulary: field \"tokens\" must be an array of strings");
    CHECK(message({{"tokenizer", "words"}, {"tokens", {"<pad>", "<s>", "</s>", "<unk>", 5}}}) ==
          "vocabulary: tokens[4] is not a string");
    CHECK(message({{"tokenizer", "bytes"}, {"tokens", specials}}) ==
          "unknown tokenizer \"bytes\" (expected characters or words)");
    CHECK(message({{"tokenizer", "words"}, {"tokens", {"<pad>", "<s>", "</s>"}}}) ==
          "vocabulary: needs at least the 4 special tokens, got 3 tokens");
    CHECK(message({{"tokenizer", "words"}, {"tokens", {"<pad>", "<s>", "</s>", "<unk>", "a", "a"}}}) ==
          "vocabulary: token \"a\" appears twice");
    CHECK(message({{"tokenizer", "words"}, {"tokens", specials}, {"extra", 1}}) ==
          "vocabulary: unexpected field \"extra\"");
}

namespace {

struct Coded {
    apg::ErrorCode code;
    std::string message;
    apg::Details details;
    std::vector<std::string> list(const std::string &name) const {
        for (const auto &[key, value] : details)
            if (key == name && std::holds_alternative<std::vector<std::string>>(value))
                return std::get<std::vector<std::string>>(value);
        return {"(none)"};
    }
    std::int64_t number(const std::string &name) const {
        for (const auto &[key, value] : details)
            if (key == name && std::holds_alternative<std::int64_t>(value)) return std::get<std::int64_t>(value);
        return -1;
    }
};

Coded encode_error(const Vocabulary &vocab, const std::string &text) {
    try {
        vocab.encode(text);
    } catch (const apg::InputError &e) {
        return {e.code(), e.what(), e.details()};
    }
    FAIL("no InputError for \"" << text << "\"");
    return {};
}

} // namespace

TEST_CASE("unknown words give one coded error with the tokens and suggestions as details") {
    const Vocabulary vocab = tom_and_jerry();
    const Coded e = encode_error(vocab, "tmo chsed jery");
    CHECK(e.code == apg::ErrorCode::unknown_token);
    CHECK(e.list("tokens") == std::vector<std::string>{"tmo", "chsed", "jery"});
    CHECK(e.list("suggestions") == std::vector<std::string>{"tom", "chased", "jerry"});
    CHECK(e.number("count") == 3);
    CHECK(encode_error(vocab, " ,. ").code == apg::ErrorCode::empty_input);
}

TEST_CASE("100,000 distinct unknown words give one error naming the first few and counting the rest") {
    // Each unknown word was searched for in a list of those seen before and compared with every
    // vocabulary token: quadratic, minutes for this input.
    const Vocabulary vocab = tom_and_jerry();
    std::string text = "tom";
    for (int i = 0; i < 100000; ++i) text += " w" + std::to_string(i);
    text += " tmo w5 w7"; // repeats are counted once
    const Coded e = encode_error(vocab, text);
    CHECK(e.code == apg::ErrorCode::unknown_token);
    const auto named = apg::limits::max_named_unknown;
    REQUIRE(e.list("tokens").size() == static_cast<std::size_t>(named));
    CHECK(e.list("tokens").front() == "w0");
    CHECK(e.list("tokens").back() == "w" + std::to_string(named - 1));
    CHECK(e.number("count") == 100001);
    CHECK(e.message.rfind("unknown word \"w0\"; unknown word \"w1\"; ", 0) == 0);
    CHECK(e.message.find("; and " + std::to_string(100001 - named) + " more unknown words") != std::string::npos);
    CHECK(e.message.size() < 400);
}

TEST_CASE("a word of a million characters is named cut short and gets no edit-distance search") {
    const Vocabulary vocab = tom_and_jerry();
    const Coded e = encode_error(vocab, "tom " + std::string(1000000, 'x'));
    CHECK(e.code == apg::ErrorCode::unknown_token);
    const std::string shown = std::string(apg::limits::max_token_bytes, 'x') + "…";
    CHECK(e.list("tokens") == std::vector<std::string>{shown});
    CHECK(e.list("suggestions").empty());
    CHECK(e.message == "unknown word \"" + shown + "\"");
    // A word just past the longest token ("chased", 6) by the margin gets no suggestion, one
    // within it still does.
    CHECK(closest_tokens(vocab, std::string(6 + apg::limits::suggestion_length_margin + 1, 'a')).empty());
    CHECK(closest_tokens(vocab, "chasedd") == std::vector<std::string>{"chased"});
}

TEST_CASE("a NUL or a control character in an unknown word is escaped, and the message reaches its end") {
    const Vocabulary vocab = tom_and_jerry();
    const Coded e = encode_error(vocab, std::string("tom a\0b \x01\"", 10));
    CHECK(e.message == "unknown word \"a\\u0000b\"; unknown word \"\\u0001\\\"\"");
    CHECK(std::string(e.message.c_str()) == e.message); // no NUL inside: a C string carries it all
    CHECK(e.list("tokens") == std::vector<std::string>{std::string("a\0b", 3), "\x01\""});
}

TEST_CASE("the UTF-8 reader is strict: no surrogates, overlong forms or code points past U+10FFFF") {
    const Vocabulary words = tom_and_jerry();
    const Vocabulary characters = Vocabulary::build({{"a"}}, Tokenizer::characters);
    for (const char *bad : {
             "\xed\xa0\x80",     // U+D800, a surrogate
             "\xed\xbf\xbf",     // U+DFFF
             "\xc0\xaf",         // '/' in two bytes
             "\xc1\xbf",         // overlong U+007F
             "\xe0\x80\xaf",     // '/' in three bytes
             "\xe0\x9f\xbf",     // overlong U+07FF
             "\xf0\x80\x80\xaf", // '/' in four bytes
             "\xf0\x8f\xbf\xbf", // overlong U+FFFF
             "\xf4\x90\x80\x80", // U+110000
             "\xf5\x80\x80\x80", // past U+10FFFF by the lead byte
             "\x80",             // a continuation byte alone
             "\xe6\xb1",         // cut short
         }) {
        CAPTURE(bad);
        for (const Vocabulary *vocab : {&words, &characters}) {
            try {
                vocab->tokenize(std::string("a ") + bad);
                FAIL("accepted");
            } catch (const apg::InputError &e) {
                CHECK(e.code() == apg::ErrorCode::bad_argument);
                CHECK(std::string(e.what()).find("not valid UTF-8") != std::string::npos);
            }
        }
        CHECK_THROWS_AS(apg::io::utf8_code_points(bad), apg::InputError);
    }
    // The edges of what is allowed.
    for (const char *good : {"\x7f", "\xc2\x80", "\xdf\xbf", "\xe0\xa0\x80", "\xed\x9f\xbf", "\xee\x80\x80",
                             "\xef\xbf\xbf", "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf"}) {
        CAPTURE(good);
        CHECK(apg::io::utf8_code_points(good).size() == 1);
        CHECK(characters.tokenize(good) == std::vector<std::string>{good});
    }
}

TEST_CASE("a vocabulary is refused past its limits: too many tokens, a token too long or not UTF-8") {
    std::vector<std::string> tokens{"<pad>", "<s>", "</s>", "<unk>"};
    for (int i = 0; tokens.size() < static_cast<std::size_t>(apg::limits::max_vocab_tokens); ++i)
        tokens.push_back("t" + std::to_string(i));
    CHECK(Vocabulary(tokens, Tokenizer::words).size() == apg::limits::max_vocab_tokens);
    tokens.push_back("one more");
    const std::string too_many = "more than the limit of " + std::to_string(apg::limits::max_vocab_tokens);
    CHECK_THROWS_WITH_AS(Vocabulary(tokens, Tokenizer::words), doctest::Contains(too_many.c_str()), apg::InputError);
    const std::vector<std::string> specials{"<pad>", "<s>", "</s>", "<unk>"};
    auto with = [&](std::string token) {
        auto t = specials;
        t.push_back(std::move(token));
        return t;
    };
    CHECK_NOTHROW(Vocabulary(with(std::string(apg::limits::max_token_bytes, 'a')), Tokenizer::words));
    CHECK_THROWS_AS(Vocabulary(with(std::string(apg::limits::max_token_bytes + 1, 'a')), Tokenizer::words),
                    apg::InputError);
    CHECK_THROWS_WITH_AS(Vocabulary(with("\xed\xa0\x80"), Tokenizer::words), doctest::Contains("not valid UTF-8"),
                         apg::InputError);
    // Read from a file, the same refusals are file errors.
    CHECK_THROWS_AS(Vocabulary::from_json({{"tokenizer", "words"}, {"tokens", with("\xc0\xaf")}}), apg::FileError);
}
