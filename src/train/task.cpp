#include "train/task.hpp"

#include "train/scenes_task.hpp"
#include "train/speech_task.hpp"
#include "train/text_task.hpp"

#include <array>
#include <cstdarg>
#include <cstdio>
#include <stdexcept>

namespace apg::train {

HeldoutScore Dataset::score(const models::Seq2Seq &model, std::size_t limit) const {
    HeldoutScore out;
    out.examples = limit ? std::min(limit, heldout.size()) : heldout.size();
    if (out.examples == 0) return out;
    out.exact_match = exact_match(model, heldout, special_tokens, limit);
    out.text = printed("held-out exact match %.2f%% (%zu pairs)", 100.0 * out.exact_match, out.examples);
    return out;
}

void Task::size(models::ModelConfig &, int, int) const {}

std::span<const Task *const> all_tasks() {
    static const std::array<const Task *, 5> all = {&text_task("dates"), &text_task("zh"), &text_task("reverse"),
                                                    &scenes_task(), &speech_task()};
    return all;
}

const Task *find_task(std::string_view name) {
    for (const Task *t : all_tasks())
        if (t->name() == name) return t;
    return nullptr;
}

const Task &task_of(const models::ModelConfig &config) {
    if (const Task *t = find_task(config.task)) return *t;
    if (config.task == pairs_task().name()) return pairs_task();
    for (const Task *t : all_tasks())
        for (const models::EncoderKind e : t->encoders())
            if (e == config.encoder) return *t;
    return *all_tasks().front();
}

TrainOptions base_options(int steps) {
    TrainOptions o;
    o.batch_size = 32;
    o.learning_rate = 3e-3f;
    o.final_lr_fraction = 0.1f;
    o.clip_norm = 5.0f;
    o.steps = steps;
    return o;
}

int hidden_size(const models::ModelConfig &config) {
    return config.encoder == models::EncoderKind::transformer ? config.ff_hidden : config.encoder_hidden;
}

long long whole_option(const std::string &name, const std::string &value) {
    try {
        std::size_t used = 0;
        const long long v = std::stoll(value, &used);
        if (used == value.size()) return v;
    } catch (const std::exception &) {
    }
    throw std::invalid_argument("--" + name + " needs an integer, got \"" + value + "\"");
}

float number_option(const std::string &name, const std::string &value) {
    try {
        std::size_t used = 0;
        const float v = std::stof(value, &used);
        if (used == value.size()) return v;
    } catch (const std::exception &) {
    }
    throw std::invalid_argument("--" + name + " needs a number, got \"" + value + "\"");
}

std::string printed(const char *format, ...) {
    std::va_list args, again;
    va_start(args, format);
    va_copy(again, args);
    const int n = std::vsnprintf(nullptr, 0, format, args);
    va_end(args);
    std::string out(static_cast<std::size_t>(std::max(n, 0)), '\0');
    std::vsnprintf(out.data(), out.size() + 1, format, again);
    va_end(again);
    return out;
}

} // namespace apg::train
