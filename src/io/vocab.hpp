// Vocabularies: token <-> id maps for the source and target sides of a task, with the tokenizer
// that turns typed text into tokens and messages that say which words were not understood.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace apg::io {

// characters: one token per UTF-8 code point (ASCII lowercased).
// words: whitespace-separated, ASCII lowercased; the punctuation . , ! ? ; : is dropped, so
// "Tom chased Jerry." and "tom chased jerry" give the same tokens. Non-ASCII code points (e.g.
// Chinese) are kept as they are; Chinese targets are written with spaces between words.
enum class Tokenizer { characters, words };

const char *tokenizer_name(Tokenizer tokenizer);
Tokenizer tokenizer_from_name(std::string_view name); // throws InputError(bad_argument)

class Vocabulary {
  public:
    static constexpr int pad = 0, bos = 1, eos = 2, unk = 3; // "<pad>", "<s>", "</s>", "<unk>"

    Vocabulary() = default;
    // tokens[0..3] must be the specials and every token distinct, non-empty, valid UTF-8 and at
    // most limits::max_token_bytes long, at most limits::max_vocab_tokens of them; else throws
    // InputError(bad_argument).
    Vocabulary(std::vector<std::string> tokens, Tokenizer tokenizer);
    // Specials first, then every token seen, sorted (byte order): deterministic.
    static Vocabulary build(const std::vector<std::vector<std::string>> &sequences, Tokenizer tokenizer);

    int size() const { return static_cast<int>(tokens_.size()); }
    Tokenizer tokenizer() const { return tokenizer_; }
    const std::vector<std::string> &tokens() const { return tokens_; }
    const std::string &token(int id) const; // throws std::out_of_range naming the id and size
    int id(std::string_view token) const;   // -1 when unknown
    int token_length(int id) const { return lengths_.at(static_cast<std::size_t>(id)); } // in code points
    int longest_token_length() const { return longest_; } // in code points, the specials left out

    // Throws InputError(bad_argument) for text that is not well-formed UTF-8.
    std::vector<std::string> tokenize(std::string_view text) const;
    // Throws InputError: empty text -> empty_input, "empty input: type a sentence"; unknown tokens
    // -> unknown_token, 'unknown word "tmo" (did you mean "tom"?)' naming each distinct unknown
    // token once, in order, joined by "; ", the first limits::max_suggested_unknown with up to 3
    // closest known words (closest_tokens); past limits::max_named_unknown the rest are counted
    // ("; and 99992 more unknown words"). Details: "tokens" (the named ones), "suggestions" (every
    // suggestion, once, in order) and "count" (distinct unknown tokens). The characters tokenizer
    // says 'unknown character "x"' without suggestions. The specials typed as text are unknown
    // words. Linear in the number of tokens; text in messages is escaped (core/quote.hpp) and cut
    // to limits::max_token_bytes.
    std::vector<int> encode(std::string_view text) const;
    std::vector<int> encode(const std::vector<std::string> &tokens) const;
    // Stops at eos, skips pad/bos; "" joiner for characters, " " for words.
    std::string join(const std::vector<int> &ids) const;

    nlohmann::json to_json() const;                       // {"tokenizer": "words", "tokens": [...]}
    static Vocabulary from_json(const nlohmann::json &j); // validates, throws FileError(bad_checkpoint)

    friend bool operator==(const Vocabulary &a, const Vocabulary &b) {
        return a.tokenizer_ == b.tokenizer_ && a.tokens_ == b.tokens_;
    }

  private:
    std::vector<std::string> tokens_;
    Tokenizer tokenizer_ = Tokenizer::words;
    std::unordered_map<std::string, int> ids_;
    std::vector<int> lengths_; // code points of each token
    int longest_ = 0;
};

// Nearest known tokens by edit distance (over code points), for messages: at most `count`, each at
// most max(1, length / 3) edits away, closest first, ties in vocabulary order; specials never
// suggested. A token longer than the vocabulary's longest by more than
// limits::suggestion_length_margin gets none without any comparison, and tokens whose length alone
// puts them too far are skipped, so a long word costs little.
std::vector<std::string> closest_tokens(const Vocabulary &vocab, std::string_view token, int count = 3);

// Edit distance between two UTF-8 strings in code points: insertions, deletions, substitutions and
// swaps of two neighbours ("tmo" -> "tom" is 1), each costing 1 (optimal string alignment).
int edit_distance(std::string_view a, std::string_view b);

// Splits UTF-8 text into code points (each as its bytes). Anything but well-formed UTF-8 as
// Unicode defines it (overlong forms, surrogates, code points past U+10FFFF, stray or missing
// continuation bytes) throws InputError(bad_argument) naming the byte.
std::vector<std::string> utf8_code_points(std::string_view text);

// The code points in text, counting every byte that is not a continuation byte (no validation:
// for limits, before the text is read).
std::size_t count_code_points(std::string_view text);

} // namespace apg::io
