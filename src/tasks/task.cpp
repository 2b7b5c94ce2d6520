#include "tasks/task.hpp"

#include "tasks/assemble.hpp"
#include "tasks/dates.hpp"
#include "tasks/reverse.hpp"
#include "tasks/zh.hpp"

#include <array>

#include <algorithm>
#include <stdexcept>
#include <string_view>
#include <unordered_set>

namespace apg::tasks {

namespace detail {

TaskData assemble(const TaskSpec &spec, core::Rng &rng, Pair (*draw)(core::Rng &)) {
    const io::Vocabulary source_words(io::Vocabulary::build({}, spec.source_tokenizer));
    const io::Vocabulary target_words(io::Vocabulary::build({}, spec.target_tokenizer));
    const std::size_t wanted = spec.train_count + spec.heldout_count;
    if (spec.required_in_train.size() > spec.train_count)
        throw std::invalid_argument(spec.name + ": " + std::to_string(spec.train_count) +
                                    " training examples cannot hold the " +
                                    std::to_string(spec.required_in_train.size()) + " required ones");

    std::vector<Example> examples;
    examples.reserve(wanted);
    // Views of the kept examples' source texts: `examples` never reallocates (reserved above), so
    // they stay valid. Generators write sources the way the tokenizer reads them back (lowercase,
    // single spaces), so distinct texts are distinct token sequences; duplicates are dropped
    // before tokenizing.
    std::unordered_set<std::string_view> seen;
    seen.reserve(2 * wanted);
    auto add = [&](Pair &&pair) {
        if (seen.count(pair.source_text)) return;
        auto source = source_words.tokenize(pair.source_text);
        auto target = target_words.tokenize(pair.target_text);
        examples.push_back(
            {std::move(pair.source_text), std::move(pair.target_text), std::move(source), std::move(target)});
        seen.insert(examples.back().source_text);
    };
    for (Pair pair : spec.required_in_train) add(std::move(pair));
    const std::size_t max_draws = 50 * wanted;
    for (std::size_t draws = 0; examples.size() < wanted; ++draws) {
        if (draws == max_draws)
            throw std::logic_error(spec.name + ": the generator gave only " + std::to_string(examples.size()) +
                                   " distinct sources in " + std::to_string(max_draws) + " draws");
        add(draw(rng));
    }

    TaskData task;
    task.name = spec.name;
    task.source_tokenizer = spec.source_tokenizer;
    task.target_tokenizer = spec.target_tokenizer;
    task.heldout.assign(std::make_move_iterator(examples.end() - static_cast<std::ptrdiff_t>(spec.heldout_count)),
                        std::make_move_iterator(examples.end()));
    examples.resize(spec.train_count);
    task.train = std::move(examples);
    for (const auto *set : {&task.train, &task.heldout})
        for (const auto &example : *set) {
            task.max_source_len = std::max(task.max_source_len, example.source.size());
            task.max_target_len = std::max(task.max_target_len, example.target.size());
        }
    task.max_source_len += length_margin;
    task.max_target_len += length_margin;
    return task;
}

} // namespace detail

namespace {

// Dates and reverse are read letter by letter; zh word by word.
constexpr std::array<Generator, 3> kGenerators = {{
    {"dates", io::Tokenizer::characters, "29 november 2026", draw_date, nullptr},
    {"zh", io::Tokenizer::words, "tom chased jerry in the kitchen yesterday", draw_zh_sentence, zh_showcase_pairs},
    {"reverse", io::Tokenizer::characters, "abcdefj", draw_reversal, nullptr},
}};

} // namespace

std::span<const Generator> generators() { return kGenerators; }

const Generator *find_generator(std::string_view name) {
    for (const Generator &g : kGenerators)
        if (g.name == name) return &g;
    return nullptr;
}

std::vector<std::string> task_names() {
    std::vector<std::string> out;
    for (const Generator &g : kGenerators) out.emplace_back(g.name);
    return out;
}

TaskData make_task(std::string_view name, std::uint64_t seed) {
    return make_task(name, seed, default_train_count, default_heldout_count);
}

TaskData make_task(std::string_view name, std::uint64_t seed, std::size_t train_count, std::size_t heldout_count) {
    const Generator *g = find_generator(name);
    if (!g) throw std::invalid_argument("unknown task \"" + std::string(name) + "\" (expected dates, zh or reverse)");
    detail::TaskSpec spec;
    spec.name = std::string(g->name);
    spec.source_tokenizer = spec.target_tokenizer = g->tokenizer;
    spec.train_count = train_count;
    spec.heldout_count = heldout_count;
    if (g->required) spec.required_in_train = g->required();
    core::Rng rng(seed);
    return detail::assemble(spec, rng, g->draw);
}

namespace {

io::Vocabulary vocabulary_of(const TaskData &task, bool source) {
    std::vector<std::vector<std::string>> sequences;
    sequences.reserve(task.train.size() + task.heldout.size());
    for (const auto *set : {&task.train, &task.heldout})
        for (const auto &example : *set) sequences.push_back(source ? example.source : example.target);
    return io::Vocabulary::build(sequences, source ? task.source_tokenizer : task.target_tokenizer);
}

} // namespace

io::Vocabulary source_vocabulary(const TaskData &task) { return vocabulary_of(task, true); }
io::Vocabulary target_vocabulary(const TaskData &task) { return vocabulary_of(task, false); }

} // namespace apg::tasks
