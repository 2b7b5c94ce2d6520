// Synthetic tasks: deterministic (source, target) pairs the models train and are evaluated on.
#pragma once

#include "io/vocab.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace apg::train {

struct Example {
    std::string source_text, target_text;    // as a person would type / read them
    std::vector<std::string> source, target; // tokens (no <s>, </s>)
};

struct TaskData {
    std::string name; // "dates" | "zh" | "reverse"
    io::Tokenizer source_tokenizer = io::Tokenizer::words, target_tokenizer = io::Tokenizer::words;
    std::vector<Example> train, heldout;                // disjoint by source sentence, deterministic given the seed
    std::size_t max_source_len = 0, max_target_len = 0; // limits the models enforce (longest seen + margin)
};

inline constexpr std::size_t default_train_count = 20000, default_heldout_count = 1000;

// Throws std::invalid_argument for an unknown name.
TaskData make_task(std::string_view name, std::uint64_t seed);
// Other sizes, for tests and quick experiments. The examples are the first train_count +
// heldout_count distinct draws of the seed's stream (train first), so a smaller task's examples
// are the first ones of the full task, in the same order.
TaskData make_task(std::string_view name, std::uint64_t seed, std::size_t train_count, std::size_t heldout_count);
std::vector<std::string> task_names();

// Vocabularies over train + heldout of a task (so every held-out example can be encoded).
io::Vocabulary source_vocabulary(const TaskData &task);
io::Vocabulary target_vocabulary(const TaskData &task);

} // namespace apg::train
