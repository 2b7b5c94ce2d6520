// Shared by the task generators: draws examples until enough distinct sources are collected,
// then splits them into train and held-out sets; and the generators' small random choices.
#pragma once

#include "core/rng.hpp"
#include "tasks/task.hpp"

#include <string>
#include <vector>

namespace apg::tasks::detail {

struct TaskSpec {
    std::string name;
    io::Tokenizer source_tokenizer = io::Tokenizer::words, target_tokenizer = io::Tokenizer::words;
    std::size_t train_count = default_train_count, heldout_count = default_heldout_count;
    std::vector<Pair> required_in_train; // showcase sentences the shipped models must have seen
};

// The limits the models enforce: longest sequence seen plus this many tokens, so an input a
// little longer than the data is still accepted.
inline constexpr std::size_t length_margin = 4;

// Draws pairs with `draw` until train_count + heldout_count distinct sources (by tokens) are
// collected. The first drawn go to train, the last heldout_count to held-out: a random split,
// since draws are independent. Throws std::logic_error if the grammar cannot supply enough.
TaskData assemble(const TaskSpec &spec, core::Rng &rng, Pair (*draw)(core::Rng &));

// A uniformly chosen element.
template <class T> const T &pick(core::Rng &rng, const std::vector<T> &items) {
    return items[static_cast<std::size_t>(rng.below(items.size()))];
}

inline bool chance(core::Rng &rng, double probability) { return rng.uniform() < probability; }

} // namespace apg::tasks::detail
