// A person's own training data: `source<TAB>target` lines turned into a task like the generated
// ones (vocabularies, a held-out split, length limits), or a coded error naming the line at fault.
// Nothing is dropped silently: every line but blank ones at the very end must be a usable pair.
//
// Rules (limits in core/limits.hpp):
//   - the text is at most max_pairs_bytes bytes of UTF-8 and holds at most max_pairs pairs;
//   - lines end with \n or \r\n; blank lines at the end of the text are skipped (a file's final
//     newline, an editor's trailing blank lines), a blank line anywhere else is an error;
//   - each line is exactly one tab between a source and a target; neither side may be empty once
//     tokenized (the word tokenizer drops . , ! ? ; :);
//   - no control characters (U+0000-U+001F but the tab, U+007F-U+009F), only well-formed UTF-8;
//   - no word that is a vocabulary's special (<pad>, <s>, </s>, <unk>);
//   - each side is at most max_pair_tokens tokens, each token at most limits::max_token_bytes
//     bytes, each vocabulary at most limits::max_vocab_tokens tokens (the specials included).
// Tokenization: unless one is asked for, words when at least half of the sources and at least
// half of the targets hold a space (between non-space characters), and characters otherwise; the
// same tokenizer serves both sides.
#pragma once

#include "io/vocab.hpp"
#include "tasks/task.hpp"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace apg::tasks {

struct PairsData {
    TaskData data;                                   // name "pairs", both tokenizers the chosen one, train and held-out
    std::size_t count = 0;                           // pairs read (train + held-out)
    io::Tokenizer tokenizer;                         // the one chosen
    std::vector<int> source_lengths, target_lengths; // [k] = pairs whose side has k tokens
    std::size_t longest_source = 0, longest_target = 0;
};

// The held-out share: a tenth of the pairs, at most 1,000, none under 10 pairs. Pairs with the same
// source text go to the same side, so a held-out source was never seen in training; which sources
// are held out follows from the seed alone (the same text and seed give the same split).
std::size_t heldout_target(std::size_t count);

// Throws InputError: empty_input (no pair at all), limit_exceeded (bytes, pairs, a vocabulary:
// details "name", "limit", and "line" for the pair over the limit), too_long (a side over
// max_pair_tokens tokens or a token over max_token_bytes: "line", "length", "limit"),
// bad_argument (an empty line, a line of only spaces or tabs, a line without or with two tabs,
// an empty side, a control character or bad UTF-8, a special as a word: "line", and "column" in
// code points where one is to blame). Every message starts "line N: ", and every error of a line
// names its fault in the detail "problem" (pairs.cpp lists them), with "side", "unit", "tabs" or
// "token" where they say more, so a page can word it in its own language.
PairsData parse_pairs(std::string_view text, std::optional<io::Tokenizer> tokenizer, std::uint64_t seed);

} // namespace apg::tasks
