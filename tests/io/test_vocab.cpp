#include "io/vocab.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
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
