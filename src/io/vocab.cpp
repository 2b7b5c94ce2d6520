#include "io/vocab.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

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
        out += '"' + items[i] + '"';
    }
    return out;
}

} // namespace

const char *tokenizer_name(Tokenizer tokenizer) { return tokenizer == Tokenizer::characters ? "characters" : "words"; }

Tokenizer tokenizer_from_name(std::string_view name) {
    if (name == "characters") return Tokenizer::characters;
    if (name == "words") return Tokenizer::words;
    throw std::invalid_argument("unknown tokenizer \"" + std::string(name) + "\" (expected characters or words)");
}

namespace {

// Bytes in the UTF-8 code point starting at text[i]; throws std::invalid_argument naming the byte
// for anything that is not well-formed UTF-8.
std::size_t code_point_length(std::string_view text, std::size_t i) {
    const auto lead = static_cast<unsigned char>(text[i]);
    std::size_t length = 0;
    if (lead < 0x80)
        length = 1;
    else if ((lead & 0xE0) == 0xC0 && lead >= 0xC2)
        length = 2;
    else if ((lead & 0xF0) == 0xE0)
        length = 3;
    else if ((lead & 0xF8) == 0xF0 && lead <= 0xF4)
        length = 4;
    else
        throw std::invalid_argument("text is not valid UTF-8 (byte " + std::to_string(i) + ")");
    if (i + length > text.size())
        throw std::invalid_argument("text is not valid UTF-8 (truncated at byte " + std::to_string(i) + ")");
    for (std::size_t k = 1; k < length; ++k)
        if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80)
            throw std::invalid_argument("text is not valid UTF-8 (byte " + std::to_string(i + k) + ")");
    return length;
}

void validate_utf8(std::string_view text) {
    for (std::size_t i = 0; i < text.size();) i += code_point_length(text, i);
}

} // namespace

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

int edit_distance(std::string_view a, std::string_view b) {
    const auto x = utf8_code_points(a), y = utf8_code_points(b);
    // Three rows of the (|x|+1) × (|y|+1) dynamic-programming table: the one before the previous
    // row is needed for transpositions.
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

Vocabulary::Vocabulary(std::vector<std::string> tokens, Tokenizer tokenizer)
    : tokens_(std::move(tokens)), tokenizer_(tokenizer) {
    const auto &names = specials();
    if (tokens_.size() < names.size())
        throw std::invalid_argument("vocabulary: needs at least the 4 special tokens, got " +
                                    std::to_string(tokens_.size()) + " tokens");
    for (std::size_t i = 0; i < names.size(); ++i)
        if (tokens_[i] != names[i])
            throw std::invalid_argument("vocabulary: token " + std::to_string(i) + " must be \"" + names[i] +
                                        "\", got \"" + tokens_[i] + "\"");
    ids_.reserve(tokens_.size());
    for (std::size_t i = 0; i < tokens_.size(); ++i) {
        if (tokens_[i].empty()) throw std::invalid_argument("vocabulary: token " + std::to_string(i) + " is empty");
        if (!ids_.emplace(tokens_[i], static_cast<int>(i)).second)
            throw std::invalid_argument("vocabulary: token \"" + tokens_[i] + "\" appears twice");
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
    if (tokens.empty()) throw std::invalid_argument("empty input: type a sentence");
    std::vector<int> ids;
    ids.reserve(tokens.size());
    std::vector<std::string> unknown;
    for (const auto &token : tokens) {
        const int found = id(token);
        // Specials are never typed: "<pad>" in the text is treated as an unknown word.
        if (found < static_cast<int>(specials().size())) {
            if (std::find(unknown.begin(), unknown.end(), token) == unknown.end()) unknown.push_back(token);
            continue;
        }
        ids.push_back(found);
    }
    if (unknown.empty()) return ids;
    const char *what = tokenizer_ == Tokenizer::characters ? "character" : "word";
    std::string message;
    for (std::size_t i = 0; i < unknown.size(); ++i) {
        if (i > 0) message += "; ";
        message += "unknown " + std::string(what) + " \"" + unknown[i] + "\"";
        // Single characters have no near misses worth suggesting.
        const auto suggestions =
            tokenizer_ == Tokenizer::words ? closest_tokens(*this, unknown[i]) : std::vector<std::string>{};
        if (!suggestions.empty()) message += " (did you mean " + quoted_list(suggestions, " or ") + "?)";
    }
    throw std::invalid_argument(message);
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

Vocabulary Vocabulary::from_json(const nlohmann::json &j) {
    if (!j.is_object()) throw std::runtime_error("vocabulary: expected a JSON object");
    for (const auto &[key, value] : j.items())
        if (key != "tokenizer" && key != "tokens")
            throw std::runtime_error("vocabulary: unexpected field \"" + key + "\"");
    if (!j.contains("tokenizer") || !j.at("tokenizer").is_string())
        throw std::runtime_error("vocabulary: field \"tokenizer\" must be a string");
    if (!j.contains("tokens") || !j.at("tokens").is_array())
        throw std::runtime_error("vocabulary: field \"tokens\" must be an array of strings");
    std::vector<std::string> tokens;
    for (const auto &token : j.at("tokens")) {
        if (!token.is_string())
            throw std::runtime_error("vocabulary: tokens[" + std::to_string(tokens.size()) + "] is not a string");
        tokens.push_back(token.get<std::string>());
    }
    try {
        return Vocabulary(std::move(tokens), tokenizer_from_name(j.at("tokenizer").get<std::string>()));
    } catch (const std::invalid_argument &error) {
        throw std::runtime_error(error.what());
    }
}

std::vector<std::string> closest_tokens(const Vocabulary &vocab, std::string_view token, int count) {
    std::vector<std::pair<int, int>> ranked; // (distance, id)
    for (int id = Vocabulary::unk + 1; id < vocab.size(); ++id)
        ranked.emplace_back(edit_distance(token, vocab.token(id)), id);
    // By distance, ties in vocabulary order (the pairs' second member), so suggestions are deterministic.
    std::sort(ranked.begin(), ranked.end());
    // A near miss is one edit per three letters (at least one); anything further is noise.
    const int limit = std::max(1, static_cast<int>(utf8_code_points(token).size()) / 3);
    std::vector<std::string> out;
    for (const auto &[distance, id] : ranked) {
        if (static_cast<int>(out.size()) >= count || distance > limit) break;
        out.push_back(vocab.token(id));
    }
    return out;
}

} // namespace apg::io
