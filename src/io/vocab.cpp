#include "io/vocab.hpp"

#include "core/error.hpp"
#include "core/limits.hpp"
#include "core/quote.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <stdexcept>
#include <unordered_set>

namespace apg::io {

namespace {

const std::vector<std::string> &specials() {
    static const std::vector<std::string> names{"<pad>", "<s>", "</s>", "<unk>"};
    return names;
}

char lower_ascii(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// Punctuation the words tokenizer drops: it carries no meaning in the tasks' grammars.
bool is_dropped_punctuation(char c) { return c == '.' || c == ',' || c == '!' || c == '?' || c == ';' || c == ':'; }

std::string quoted_list(const std::vector<std::string> &items, const char *joiner) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0) out += joiner;
        out += quote(items[i]);
    }
    return out;
}

[[noreturn]] void bad_vocabulary(const std::string &message) {
    throw InputError(ErrorCode::bad_argument, "vocabulary: " + message);
}

} // namespace

const char *tokenizer_name(Tokenizer tokenizer) { return tokenizer == Tokenizer::characters ? "characters" : "words"; }

Tokenizer tokenizer_from_name(std::string_view name) {
    if (name == "characters") return Tokenizer::characters;
    if (name == "words") return Tokenizer::words;
    throw InputError(ErrorCode::bad_argument, "unknown tokenizer " + quote(name) + " (expected characters or words)",
                     {{"name", std::string("tokenizer")}});
}

namespace {

[[noreturn]] void not_utf8(std::size_t byte, const char *why) {
    throw InputError(ErrorCode::bad_argument,
                     "text is not valid UTF-8 (" + std::string(why) + " at byte " + std::to_string(byte) + ")",
                     {{"byte", static_cast<std::int64_t>(byte)}});
}

// Bytes in the UTF-8 code point starting at text[i], and the code point, for well-formed UTF-8
// only (as Unicode defines it): no overlong forms, no surrogates (U+D800..U+DFFF), nothing above
// U+10FFFF. Throws InputError(bad_argument) naming the byte otherwise.
std::size_t decode_code_point(std::string_view text, std::size_t i, char32_t &point) {
    const auto lead = static_cast<unsigned char>(text[i]);
    std::size_t length = 0;
    // The second byte's range depends on the lead: that is where overlong forms, surrogates and
    // code points past U+10FFFF are excluded.
    unsigned char lo = 0x80, hi = 0xBF;
    if (lead < 0x80) {
        point = lead;
        return 1;
    } else if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
        point = lead & 0x1F;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        point = lead & 0x0F;
        if (lead == 0xE0) lo = 0xA0; // below: overlong
        if (lead == 0xED) hi = 0x9F; // above: surrogates
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        point = lead & 0x07;
        if (lead == 0xF0) lo = 0x90; // below: overlong
        if (lead == 0xF4) hi = 0x8F; // above: past U+10FFFF
    } else {
        not_utf8(i, lead >= 0x80 && lead < 0xC0 ? "a continuation byte without a lead"
                                                : "a byte that never starts a code point");
    }
    if (i + length > text.size()) not_utf8(i, "a code point cut short");
    for (std::size_t k = 1; k < length; ++k) {
        const auto byte = static_cast<unsigned char>(text[i + k]);
        const bool ok = k == 1 ? byte >= lo && byte <= hi : (byte & 0xC0) == 0x80;
        if (!ok)
            not_utf8(i + k, k == 1 && (byte & 0xC0) == 0x80
                                ? "an overlong form, a surrogate or a code point past U+10FFFF"
                                : "a bad continuation byte");
        point = (point << 6) | (byte & 0x3F);
    }
    return length;
}

std::size_t code_point_length(std::string_view text, std::size_t i) {
    char32_t point;
    return decode_code_point(text, i, point);
}

void validate_utf8(std::string_view text) {
    for (std::size_t i = 0; i < text.size();) i += code_point_length(text, i);
}

std::u32string decode_utf8(std::string_view text) {
    std::u32string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        char32_t point;
        i += decode_code_point(text, i, point);
        out.push_back(point);
    }
    return out;
}

// Optimal string alignment distance over code points, with three rows of the table (the one
// before the previous row is needed for transpositions).
int osa_distance(const std::u32string &x, const std::u32string &y) {
    std::vector<int> before(y.size() + 1), previous(y.size() + 1), current(y.size() + 1);
    for (std::size_t j = 0; j <= y.size(); ++j) previous[j] = static_cast<int>(j);
    for (std::size_t i = 1; i <= x.size(); ++i) {
        current[0] = static_cast<int>(i);
        for (std::size_t j = 1; j <= y.size(); ++j) {
            const int substitute = previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1);
            current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitute});
            if (i > 1 && j > 1 && x[i - 1] == y[j - 2] && x[i - 2] == y[j - 1])
                current[j] = std::min(current[j], before[j - 2] + 1);
        }
        std::swap(before, previous);
        std::swap(previous, current);
    }
    return previous[y.size()];
}

// The token as a message shows it: at most limits::max_token_bytes bytes (cut at a code point),
// so a megabyte of unknown text makes a short message.
std::string shown(const std::string &token) {
    if (token.size() <= static_cast<std::size_t>(limits::max_token_bytes)) return token;
    std::size_t end = static_cast<std::size_t>(limits::max_token_bytes);
    while (end > 0 && (static_cast<unsigned char>(token[end]) & 0xC0) == 0x80) --end;
    return token.substr(0, end) + "…";
}

} // namespace

std::size_t count_code_points(std::string_view text) {
    std::size_t count = 0;
    for (const char c : text) count += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return count;
}

std::vector<std::string> utf8_code_points(std::string_view text) {
    std::vector<std::string> points;
    points.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t length = code_point_length(text, i);
        points.emplace_back(text.substr(i, length));
        i += length;
    }
    return points;
}

int edit_distance(std::string_view a, std::string_view b) { return osa_distance(decode_utf8(a), decode_utf8(b)); }

Vocabulary::Vocabulary(std::vector<std::string> tokens, Tokenizer tokenizer)
    : tokens_(std::move(tokens)), tokenizer_(tokenizer) {
    const auto &names = specials();
    if (tokens_.size() < names.size())
        bad_vocabulary("needs at least the 4 special tokens, got " + std::to_string(tokens_.size()) + " tokens");
    if (tokens_.size() > static_cast<std::size_t>(limits::max_vocab_tokens))
        bad_vocabulary("has " + std::to_string(tokens_.size()) + " tokens, more than the limit of " +
                       std::to_string(limits::max_vocab_tokens));
    for (std::size_t i = 0; i < names.size(); ++i)
        if (tokens_[i] != names[i])
            bad_vocabulary("token " + std::to_string(i) + " must be \"" + names[i] + "\", got " +
                           quote(shown(tokens_[i])));
    ids_.reserve(tokens_.size());
    lengths_.reserve(tokens_.size());
    for (std::size_t i = 0; i < tokens_.size(); ++i) {
        const std::string &token = tokens_[i];
        if (token.empty()) bad_vocabulary("token " + std::to_string(i) + " is empty");
        if (token.size() > static_cast<std::size_t>(limits::max_token_bytes))
            bad_vocabulary("token " + std::to_string(i) + " is " + std::to_string(token.size()) +
                           " bytes, more than the limit of " + std::to_string(limits::max_token_bytes));
        try {
            validate_utf8(token);
        } catch (const std::invalid_argument &) {
            bad_vocabulary("token " + std::to_string(i) + " is not valid UTF-8");
        }
        if (!ids_.emplace(token, static_cast<int>(i)).second)
            bad_vocabulary("token " + quote(token) + " appears twice");
        lengths_.push_back(static_cast<int>(count_code_points(token)));
        if (i >= names.size()) longest_ = std::max(longest_, lengths_.back());
    }
}

Vocabulary Vocabulary::build(const std::vector<std::vector<std::string>> &sequences, Tokenizer tokenizer) {
    const auto &names = specials();
    std::set<std::string> seen;
    for (const auto &sequence : sequences)
        for (const auto &token : sequence)
            if (std::find(names.begin(), names.end(), token) == names.end()) seen.insert(token);
    std::vector<std::string> tokens(names);
    tokens.insert(tokens.end(), seen.begin(), seen.end());
    return Vocabulary(std::move(tokens), tokenizer);
}

const std::string &Vocabulary::token(int id) const {
    if (id < 0 || id >= size())
        throw std::out_of_range("vocabulary: token id " + std::to_string(id) + " is outside [0, " +
                                std::to_string(size()) + ")");
    return tokens_[static_cast<std::size_t>(id)];
}

int Vocabulary::id(std::string_view token) const {
    const auto found = ids_.find(std::string(token));
    return found == ids_.end() ? -1 : found->second;
}

std::vector<std::string> Vocabulary::tokenize(std::string_view text) const {
    std::vector<std::string> tokens;
    if (tokenizer_ == Tokenizer::characters) {
        // Leading/trailing whitespace is trimmed and every run of whitespace becomes one space,
        // so "29  nov 2026 " reads as "29 nov 2026".
        bool pending_space = false;
        tokens.reserve(text.size());
        for (std::size_t i = 0; i < text.size();) {
            const std::size_t length = code_point_length(text, i);
            const std::string_view point = text.substr(i, length);
            i += length;
            if (length == 1 && is_space(point[0])) {
                pending_space = !tokens.empty();
                continue;
            }
            if (pending_space) tokens.emplace_back(" ");
            pending_space = false;
            tokens.emplace_back(length == 1 ? std::string(1, lower_ascii(point[0])) : std::string(point));
        }
        return tokens;
    }
    std::string word;
    auto flush = [&] {
        if (!word.empty()) tokens.push_back(std::move(word));
        word.clear();
    };
    validate_utf8(text); // before splitting on bytes, which is safe for UTF-8
    tokens.reserve(1 + static_cast<std::size_t>(std::count(text.begin(), text.end(), ' ')));
    for (char c : text) {
        if (is_space(c) || is_dropped_punctuation(c))
            flush();
        else
            word += lower_ascii(c);
    }
    flush();
    return tokens;
}

std::vector<int> Vocabulary::encode(std::string_view text) const { return encode(tokenize(text)); }

std::vector<int> Vocabulary::encode(const std::vector<std::string> &tokens) const {
    if (tokens.empty()) throw InputError(ErrorCode::empty_input, "empty input: type a sentence");
    std::vector<int> ids;
    ids.reserve(tokens.size());
    // Each distinct unknown token once, in order of appearance; the set makes that linear.
    std::vector<const std::string *> unknown;
    std::unordered_set<std::string_view> seen;
    for (const auto &token : tokens) {
        const int found = id(token);
        // Specials are never typed: "<pad>" in the text is treated as an unknown word.
        if (found < static_cast<int>(specials().size())) {
            if (seen.insert(token).second) unknown.push_back(&token);
            continue;
        }
        ids.push_back(found);
    }
    if (unknown.empty()) return ids;
    const bool words = tokenizer_ == Tokenizer::words;
    const char *what = words ? "word" : "character";
    const std::size_t named = std::min(unknown.size(), static_cast<std::size_t>(limits::max_named_unknown));
    std::string message;
    std::vector<std::string> named_tokens, all_suggestions;
    for (std::size_t i = 0; i < named; ++i) {
        const std::string token = shown(*unknown[i]);
        if (i > 0) message += "; ";
        message += "unknown " + std::string(what) + " " + quote(token);
        named_tokens.push_back(token);
        // Single characters have no near misses worth suggesting; past the first few words the
        // message is long enough.
        if (!words || i >= static_cast<std::size_t>(limits::max_suggested_unknown)) continue;
        const auto suggestions = closest_tokens(*this, *unknown[i]);
        if (suggestions.empty()) continue;
        message += " (did you mean " + quoted_list(suggestions, " or ") + "?)";
        for (const auto &s : suggestions)
            if (std::find(all_suggestions.begin(), all_suggestions.end(), s) == all_suggestions.end())
                all_suggestions.push_back(s);
    }
    if (unknown.size() > named)
        message += "; and " + std::to_string(unknown.size() - named) + " more unknown " + what + "s";
    throw InputError(ErrorCode::unknown_token, message,
                     {{"tokens", std::move(named_tokens)},
                      {"suggestions", std::move(all_suggestions)},
                      {"count", static_cast<std::int64_t>(unknown.size())}});
}

std::string Vocabulary::join(const std::vector<int> &ids) const {
    std::string text;
    bool first = true;
    for (int id : ids) {
        if (id == eos) break;
        if (id == pad || id == bos) continue;
        if (!first && tokenizer_ == Tokenizer::words) text += ' ';
        text += token(id);
        first = false;
    }
    return text;
}

nlohmann::json Vocabulary::to_json() const {
    return nlohmann::json{{"tokenizer", tokenizer_name(tokenizer_)}, {"tokens", tokens_}};
}

namespace {
[[noreturn]] void bad(const std::string &message) {
    throw FileError(ErrorCode::bad_checkpoint, "vocabulary: " + message);
}
} // namespace

Vocabulary Vocabulary::from_json(const nlohmann::json &j) {
    if (!j.is_object()) bad("expected a JSON object");
    for (const auto &[key, value] : j.items())
        if (key != "tokenizer" && key != "tokens") bad("unexpected field " + quote(key));
    if (!j.contains("tokenizer") || !j.at("tokenizer").is_string()) bad("field \"tokenizer\" must be a string");
    if (!j.contains("tokens") || !j.at("tokens").is_array()) bad("field \"tokens\" must be an array of strings");
    // Counted before the copy, so a file cannot make a huge vector of strings.
    if (j.at("tokens").size() > static_cast<std::size_t>(limits::max_vocab_tokens))
        bad("has " + std::to_string(j.at("tokens").size()) + " tokens, more than the limit of " +
            std::to_string(limits::max_vocab_tokens));
    std::vector<std::string> tokens;
    for (const auto &token : j.at("tokens")) {
        if (!token.is_string()) bad("tokens[" + std::to_string(tokens.size()) + "] is not a string");
        tokens.push_back(token.get<std::string>());
    }
    try {
        return Vocabulary(std::move(tokens), tokenizer_from_name(j.at("tokenizer").get<std::string>()));
    } catch (const std::invalid_argument &error) {
        throw FileError(ErrorCode::bad_checkpoint, error.what());
    }
}

std::vector<std::string> closest_tokens(const Vocabulary &vocab, std::string_view token, int count) {
    const std::u32string word = decode_utf8(token);
    const int length = static_cast<int>(word.size());
    // A near miss is one edit per three letters (at least one); anything further is noise. A word
    // much longer than every token is near none of them, and is not compared with any.
    const int limit = std::max(1, length / 3);
    if (count <= 0 || length > vocab.longest_token_length() + limits::suggestion_length_margin) return {};
    std::vector<std::pair<int, int>> ranked; // (distance, id)
    for (int id = Vocabulary::unk + 1; id < vocab.size(); ++id) {
        // The distance is at least the difference in length: skip what cannot be near.
        if (std::abs(vocab.token_length(id) - length) > limit) continue;
        const int distance = osa_distance(word, decode_utf8(vocab.token(id)));
        if (distance <= limit) ranked.emplace_back(distance, id);
    }
    // By distance, ties in vocabulary order (the pairs' second member), so suggestions are deterministic.
    std::sort(ranked.begin(), ranked.end());
    std::vector<std::string> out;
    for (const auto &[distance, id] : ranked) {
        if (static_cast<int>(out.size()) >= count) break;
        out.push_back(vocab.token(id));
    }
    return out;
}

} // namespace apg::io
