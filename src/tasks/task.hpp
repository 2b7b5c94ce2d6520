// The generated text tasks: deterministic (source, target) pairs the models train and are
// evaluated on, each drawn by its generator (dates.hpp, zh.hpp, reverse.hpp) until enough distinct
// sources are collected (assemble.hpp), and their registry.
#pragma once

#include "core/rng.hpp"
#include "io/vocab.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace apg::tasks {

struct Example {
    std::string source_text, target_text;    // as a person would type / read them
    std::vector<std::string> source, target; // tokens (no <s>, </s>)
};

struct TaskData {
    std::string name; // the generator's, or "pairs"
    io::Tokenizer source_tokenizer = io::Tokenizer::words, target_tokenizer = io::Tokenizer::words;
    std::vector<Example> train, heldout;                // disjoint by source sentence, deterministic given the seed
    std::size_t max_source_len = 0, max_target_len = 0; // limits the models enforce (longest seen + margin)
};

// One drawn example, as text.
struct Pair {
    std::string source_text, target_text;
};

// A generated task: its name, the tokenizer of both sides, the input that shows its pattern (the
// reordering of zh's time and place phrases, the anti-diagonal of reverse: what a run probes),
// how one example is drawn, and the examples training must hold (null: none).
struct Generator {
    std::string_view name;
    io::Tokenizer tokenizer = io::Tokenizer::words;
    std::string_view probe;
    Pair (*draw)(core::Rng &rng) = nullptr;
    std::vector<Pair> (*required)() = nullptr;
};

// dates, zh, reverse.
std::span<const Generator> generators();
// The generator of that name, or null.
const Generator *find_generator(std::string_view name);
std::vector<std::string> task_names();

inline constexpr std::size_t default_train_count = 20000, default_heldout_count = 1000;

// Throws std::invalid_argument for an unknown name.
TaskData make_task(std::string_view name, std::uint64_t seed);
// Other sizes, for tests and quick experiments. The examples are the first train_count +
// heldout_count distinct draws of the seed's stream (train first), so a smaller task's examples
// are the first ones of the full task, in the same order.
TaskData make_task(std::string_view name, std::uint64_t seed, std::size_t train_count, std::size_t heldout_count);

// Vocabularies over train + heldout of a task (so every held-out example can be encoded).
io::Vocabulary source_vocabulary(const TaskData &task);
io::Vocabulary target_vocabulary(const TaskData &task);

} // namespace apg::tasks
