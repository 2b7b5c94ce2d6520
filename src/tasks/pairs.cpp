#include "tasks/pairs.hpp"

#include "core/error.hpp"
#include "core/limits.hpp"
#include "core/rng.hpp"
#include "tasks/assemble.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace apg::tasks {

namespace {

std::string at_line(std::size_t line) { return "line " + std::to_string(line) + ": "; }

// `problem` names the kind of fault for a page that words it in another language (the message is
// English): one of not_utf8, control, no_tab, tabs, too_long, empty_side, reserved, too_many,
// empty_line, blank_line.
[[noreturn]] void line_error(ErrorCode code, std::size_t line, const char *problem, const std::string &message,
                             Details extra = {}) {
    Details details{
        {"name", std::string("pairs")}, {"line", static_cast<std::int64_t>(line)}, {"problem", std::string(problem)}};
    for (auto &d : extra) details.push_back(std::move(d));
    throw InputError(code, at_line(line) + message, std::move(details));
}

bool blank(std::string_view line) {
    return std::all_of(line.begin(), line.end(), [](char c) { return c == ' ' || c == '\r' || c == '\t'; });
}

std::string_view trim(std::string_view s) {
    const auto space = [](char c) { return c == ' ' || c == '\f' || c == '\v'; };
    while (!s.empty() && space(s.front())) s.remove_prefix(1);
    while (!s.empty() && space(s.back())) s.remove_suffix(1);
    return s;
}

// U+0000-U+001F (the tab aside: it separates the sides), U+007F-U+009F.
bool is_control(std::string_view point) {
    const auto b0 = static_cast<unsigned char>(point[0]);
    if (point.size() == 1) return (b0 < 0x20 && b0 != '\t') || b0 == 0x7F;
    return point.size() == 2 && b0 == 0xC2 && static_cast<unsigned char>(point[1]) < 0xA0;
}

std::string code_point_name(std::string_view point) {
    unsigned value = 0;
    const auto b0 = static_cast<unsigned char>(point[0]);
    if (point.size() == 1)
        value = b0;
    else
        value = ((b0 & 0x1Fu) << 6) | (static_cast<unsigned char>(point[1]) & 0x3Fu);
    char text[16];
    std::snprintf(text, sizeof text, "U+%04X", value);
    return text;
}

struct RawPair {
    std::size_t line;
    std::string_view source, target;
};

// Checks one line's characters and splits it at its tab.
RawPair split_line(std::string_view line, std::size_t number) {
    std::vector<std::string> points;
    try {
        points = io::utf8_code_points(line);
    } catch (const Error &e) {
        line_error(ErrorCode::bad_argument, number, "not_utf8", "not UTF-8 text: " + std::string(e.text()));
    }
    std::size_t tabs = 0, tab_at = 0, offset = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const std::string &p = points[i];
        if (is_control(p))
            line_error(ErrorCode::bad_argument, number, "control",
                       "the control character " + code_point_name(p) + " at column " + std::to_string(i + 1) +
                           " cannot be used",
                       {{"column", static_cast<std::int64_t>(i + 1)}});
        if (p == "\t") {
            if (++tabs == 1) tab_at = offset;
        }
        offset += p.size();
    }
    if (tabs == 0) line_error(ErrorCode::bad_argument, number, "no_tab", "no tab: expected source<TAB>target");
    if (tabs > 1)
        line_error(ErrorCode::bad_argument, number, "tabs",
                   std::to_string(tabs) + " tabs: expected one, between source and target",
                   {{"tabs", static_cast<std::int64_t>(tabs)}});
    return {number, trim(line.substr(0, tab_at)), trim(line.substr(tab_at + 1))};
}

bool has_space(std::string_view side) { return side.find(' ') != std::string_view::npos; }

// "line N: <what> has <length> <unit>, at most <limit> are allowed"
[[noreturn]] void too_long(std::size_t line, const char *side, const std::string &what, std::size_t length,
                           const char *unit, int limit) {
    line_error(ErrorCode::too_long, line, "too_long",
               what + " has " + std::to_string(length) + " " + unit + ", at most " + std::to_string(limit) +
                   " are allowed",
               {{"side", std::string(side)},
                {"unit", std::string(unit)},
                {"length", static_cast<std::int64_t>(length)},
                {"limit", static_cast<std::int64_t>(limit)}});
}

std::vector<std::string> tokenize_side(const io::Vocabulary &tokenizer, std::string_view text, std::size_t line,
                                       const char *side) {
    std::vector<std::string> tokens = tokenizer.tokenize(text);
    if (tokens.empty())
        line_error(ErrorCode::bad_argument, line, "empty_side",
                   std::string("the ") + side + " is empty" +
                       (text.empty() ? "" : " (the word tokenizer drops . , ! ? ; :)"),
                   {{"side", std::string(side)}});
    if (tokens.size() > static_cast<std::size_t>(limits::max_pair_tokens))
        too_long(line, side, std::string("the ") + side, tokens.size(), "tokens", limits::max_pair_tokens);
    for (const auto &t : tokens) {
        if (t == "<pad>" || t == "<s>" || t == "</s>" || t == "<unk>")
            line_error(ErrorCode::bad_argument, line, "reserved",
                       std::string("the ") + side + " holds \"" + t +
                           "\", a name the vocabulary keeps for itself (<pad>, <s>, </s>, <unk>)",
                       {{"side", std::string(side)}, {"token", t}});
        if (t.size() > static_cast<std::size_t>(limits::max_token_bytes))
            too_long(line, side, std::string("a word of the ") + side, t.size(), "bytes", limits::max_token_bytes);
    }
    return tokens;
}

void check_vocabulary(const std::vector<Example> &examples, bool source, const char *name) {
    std::unordered_set<std::string_view> seen;
    for (const auto &e : examples)
        for (const auto &t : source ? e.source : e.target) seen.insert(t);
    const std::size_t size = seen.size() + 4; // the specials
    if (size > static_cast<std::size_t>(limits::max_vocab_tokens))
        throw InputError(ErrorCode::limit_exceeded,
                         std::string("the ") + (source ? "sources" : "targets") + " hold " + std::to_string(size - 4) +
                             " distinct tokens, at most " + std::to_string(limits::max_vocab_tokens - 4) +
                             " fit a vocabulary",
                         {{"name", std::string(name)}, {"limit", static_cast<std::int64_t>(limits::max_vocab_tokens)}});
}

} // namespace

std::size_t heldout_target(std::size_t count) {
    if (count < 10) return 0;
    return std::min<std::size_t>(count / 10, 1000);
}

PairsData parse_pairs(std::string_view text, std::optional<io::Tokenizer> tokenizer, std::uint64_t seed) {
    if (text.size() > limits::max_pairs_bytes)
        throw InputError(ErrorCode::limit_exceeded,
                         "pairs: the text has " + std::to_string(text.size()) + " bytes, at most " +
                             std::to_string(limits::max_pairs_bytes) + " are accepted",
                         {{"name", std::string("pairs")},
                          {"length", static_cast<std::int64_t>(text.size())},
                          {"limit", static_cast<std::int64_t>(limits::max_pairs_bytes)}});
    // A byte order mark (what some editors and spreadsheets save first) is no part of the first pair.
    if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
    std::vector<std::string_view> lines;
    for (std::size_t start = 0; start <= text.size();) {
        const std::size_t end = text.find('\n', start);
        std::string_view line =
            text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        lines.push_back(line);
        if (end == std::string_view::npos) break;
        start = end + 1;
    }
    while (!lines.empty() && blank(lines.back())) lines.pop_back();
    if (lines.empty())
        throw InputError(ErrorCode::empty_input, "pairs: no pairs: expected lines of source<TAB>target",
                         {{"name", std::string("pairs")}});

    std::vector<RawPair> raw;
    raw.reserve(std::min(lines.size(), static_cast<std::size_t>(limits::max_pairs)));
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::size_t number = i + 1;
        if (number > static_cast<std::size_t>(limits::max_pairs))
            line_error(ErrorCode::limit_exceeded, number, "too_many",
                       "more than " + std::to_string(limits::max_pairs) + " pairs (the text has " +
                           std::to_string(lines.size()) + " lines)",
                       {{"limit", static_cast<std::int64_t>(limits::max_pairs)}});
        if (blank(lines[i]))
            line_error(ErrorCode::bad_argument, number, lines[i].empty() ? "empty_line" : "blank_line",
                       std::string(lines[i].empty() ? "empty line" : "a line of only spaces or tabs") +
                           " (blank lines are allowed only at the end)");
        raw.push_back(split_line(lines[i], number));
    }

    PairsData out;
    if (tokenizer) {
        out.tokenizer = *tokenizer;
    } else {
        const auto spaced_sources =
            std::count_if(raw.begin(), raw.end(), [](const RawPair &p) { return has_space(p.source); });
        const auto spaced_targets =
            std::count_if(raw.begin(), raw.end(), [](const RawPair &p) { return has_space(p.target); });
        const auto half = static_cast<std::ptrdiff_t>((raw.size() + 1) / 2);
        out.tokenizer =
            spaced_sources >= half && spaced_targets >= half ? io::Tokenizer::words : io::Tokenizer::characters;
    }
    const io::Vocabulary splitter = io::Vocabulary::build({}, out.tokenizer);

    std::vector<Example> examples;
    examples.reserve(raw.size());
    for (const RawPair &p : raw) {
        Example e;
        e.source = tokenize_side(splitter, p.source, p.line, "source");
        e.target = tokenize_side(splitter, p.target, p.line, "target");
        e.source_text = std::string(p.source);
        e.target_text = std::string(p.target);
        examples.push_back(std::move(e));
    }
    check_vocabulary(examples, true, "sourceVocab");
    check_vocabulary(examples, false, "targetVocab");

    // Held-out sources: the distinct sources (by tokens) in a seeded shuffle, taken until the
    // held-out share is reached.
    std::unordered_map<std::string, std::size_t> group_of;
    std::vector<std::size_t> group(examples.size());
    std::vector<std::size_t> group_sizes;
    for (std::size_t k = 0; k < examples.size(); ++k) {
        std::string key;
        for (const auto &t : examples[k].source) key.append(t).push_back('\0');
        const auto [it, added] = group_of.emplace(std::move(key), group_sizes.size());
        if (added) group_sizes.push_back(0);
        group[k] = it->second;
        ++group_sizes[it->second];
    }
    std::vector<std::size_t> order(group_sizes.size());
    for (std::size_t g = 0; g < order.size(); ++g) order[g] = g;
    core::Rng rng(seed);
    for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
    const std::size_t wanted = heldout_target(examples.size());
    std::vector<bool> held(group_sizes.size(), false);
    std::size_t taken = 0;
    // The last group is never held out, so training keeps at least one source.
    for (std::size_t i = 0; i + 1 < order.size() && taken < wanted; ++i) {
        held[order[i]] = true;
        taken += group_sizes[order[i]];
    }

    out.count = examples.size();
    out.data.name = "pairs";
    out.data.source_tokenizer = out.data.target_tokenizer = out.tokenizer;
    for (std::size_t k = 0; k < examples.size(); ++k) {
        Example &e = examples[k];
        out.longest_source = std::max(out.longest_source, e.source.size());
        out.longest_target = std::max(out.longest_target, e.target.size());
        (held[group[k]] ? out.data.heldout : out.data.train).push_back(std::move(e));
    }
    out.source_lengths.assign(out.longest_source + 1, 0);
    out.target_lengths.assign(out.longest_target + 1, 0);
    for (const auto *set : {&out.data.train, &out.data.heldout})
        for (const auto &e : *set) {
            ++out.source_lengths[e.source.size()];
            ++out.target_lengths[e.target.size()];
        }
    out.data.max_source_len = out.longest_source + detail::length_margin;
    out.data.max_target_len = out.longest_target + detail::length_margin;
    return out;
}

} // namespace apg::tasks
