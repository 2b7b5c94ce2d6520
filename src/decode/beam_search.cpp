// Beam search over a trained model (declared in session.hpp). It runs once per request of the
// beam view, so the wasm build compiles this file for size; the decoder step it calls stays fast.
#include "decode/budget.hpp"
#include "decode/ranking.hpp"
#include "decode/session.hpp"

#include "core/error.hpp"
#include "core/limits.hpp"

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace apg::decode {

// The checks every decoding shares live here, with beam search, because this file is compiled for
// size: they run once per session.
void bad_option(const std::string &name, const std::string &message, std::int64_t limit) {
    Details details{{"name", name}};
    if (limit >= 0) details.emplace_back("limit", limit);
    throw InputError(ErrorCode::bad_argument, message, std::move(details));
}

int checked_max_steps(const models::Seq2Seq &model, const SessionOptions &options, const char *who, int beams) {
    const std::string where = std::string(who) + ": ";
    if (options.max_steps < 0 || options.max_steps > limits::max_decode_steps)
        bad_option("max_steps",
                   where + "max_steps must be from 0 (the model's limit) to " +
                       std::to_string(limits::max_decode_steps) + ", got " + std::to_string(options.max_steps),
                   limits::max_decode_steps);
    const int vocab = model.config().target_vocab;
    for (const auto &[name, id] : {std::pair{"start_id", options.start_id}, std::pair{"end_id", options.end_id}})
        if (id < 0 || id >= vocab)
            bad_option(name, where + name + " " + std::to_string(id) + " is outside the target vocabulary (0.." +
                                 std::to_string(vocab - 1) + ")");
    attention::check_temperature(who, options.attention.temperature);
    // In 64 bits, and bounded: a config that skipped validate() still cannot overflow the sum.
    const int steps = options.max_steps > 0
                          ? options.max_steps
                          : static_cast<int>(std::clamp<std::int64_t>(std::int64_t{model.config().max_target_len} + 1,
                                                                      1, limits::max_decode_steps));
    const std::int64_t floats = std::int64_t{steps} * beams * vocab;
    if (floats > limits::max_decode_floats)
        throw InputError(ErrorCode::limit_exceeded,
                         where + std::to_string(steps) + " steps × " + std::to_string(beams) + " beams × " +
                             std::to_string(vocab) + " target tokens would keep " + std::to_string(floats) +
                             " probabilities, more than the limit of " + std::to_string(limits::max_decode_floats),
                         {{"limit", limits::max_decode_floats}});
    return steps;
}

namespace {

// Step `step`'s what-ifs in the order given, through the checks a session's own go through.
void apply_what_ifs(WhatIfState &state, std::span<const ScheduledWhatIf> what_ifs, int step) {
    using Kind = ScheduledWhatIf::Kind;
    for (const ScheduledWhatIf &w : what_ifs) {
        if (w.step != step) continue;
        if (w.kind == Kind::mask || w.kind == Kind::unmask)
            state.mask(w.token, w.kind == Kind::mask);
        else if (w.kind == Kind::pin)
            state.pin(w.token);
        else if (w.kind == Kind::pin_weights)
            state.pin(w.weights);
        else if (w.kind == Kind::temperature)
            state.set_temperature(w.temperature);
        else if (w.kind == Kind::head_mask || w.kind == Kind::head_unmask)
            state.mask_head(w.layer, w.head, w.token, w.kind == Kind::head_mask);
        else if (w.kind == Kind::head_pin)
            state.pin_head(w.layer, w.head, w.token);
        else if (w.kind == Kind::head_pin_weights)
            state.pin_head(w.layer, w.head, w.weights);
        else
            state.switch_head(w.layer, w.head, w.kind == Kind::head_on);
    }
}

// The what-ifs' state at the start of the search, after every one of them was tried at its step
// on a copy: a bad one is refused before anything is searched, wherever the beams would end.
WhatIfState checked_what_ifs(const models::Seq2Seq &model, const models::EncoderOutput &encoded,
                             const SessionOptions &options, std::span<const ScheduledWhatIf> what_ifs, int max_steps) {
    if (what_ifs.size() > static_cast<std::size_t>(limits::max_what_ifs))
        throw InputError(ErrorCode::limit_exceeded,
                         "beam: " + std::to_string(what_ifs.size()) + " what-ifs, more than the limit of " +
                             std::to_string(limits::max_what_ifs),
                         {{"limit", std::int64_t{limits::max_what_ifs}}});
    int last = -1;
    for (const ScheduledWhatIf &w : what_ifs) {
        if (w.step < 0)
            bad_option("what_ifs", "beam: a what-if at step " + std::to_string(w.step) + "; steps count from 0");
        last = std::max(last, std::min(w.step, max_steps - 1));
    }
    WhatIfState state(static_cast<int>(encoded.states.rows()), options.attention.temperature, "beam");
    if (encoded.transformer) state.set_heads(model.config().layers, model.config().heads);
    WhatIfState trial = state;
    // At most max_decode_steps × max_what_ifs comparisons, a millisecond: no index by step needed.
    for (int step = 0; step <= last; ++step) {
        apply_what_ifs(trial, what_ifs, step);
        trial.unpin();
    }
    return state;
}

// The Transformer decoder's step after node `parent` (-1: the start): its hypothesis' keys and
// values gathered along the path from the first step, so each beam attends to its own tokens.
models::DecoderStep transformer_expand(const models::Seq2Seq &model, const models::EncoderOutput &encoded,
                                       const std::vector<BeamNode> &nodes, int parent, int prev_token,
                                       const models::TransformerEdits &edits) {
    std::vector<int> path;
    for (int n = parent; n >= 0; n = nodes[static_cast<std::size_t>(n)].parent) path.push_back(n);
    models::KeyValueCache cache;
    for (auto it = path.rbegin(); it != path.rend(); ++it)
        cache.append(*nodes[static_cast<std::size_t>(*it)].step.transformer);
    return model.transformer_step(encoded, cache, prev_token, edits);
}

} // namespace

BeamResult beam_search(const models::Seq2Seq &model, const models::EncoderOutput &encoded, int width,
                       const SessionOptions &options, std::span<const ScheduledWhatIf> what_ifs) {
    if (width < 1 || width > limits::max_beam_width)
        bad_option("width",
                   "beam: width must be from 1 to " + std::to_string(limits::max_beam_width) + ", got " +
                       std::to_string(width),
                   limits::max_beam_width);
    const int max_steps = checked_max_steps(model, options, "beam", width);
    check_beam_memory(model.config(), encoded.states.rows(), max_steps, width);
    WhatIfState what_if_state = checked_what_ifs(model, encoded, options, what_ifs, max_steps);
    BeamResult result;
    // Live hypotheses: node ids of their last step (-1: the empty start).
    std::vector<int> live{-1};
    std::vector<int> finished;

    auto normalised = [&](const BeamNode &n) { return n.total_log_prob / (n.depth + 1); };

    for (int depth = 0; depth < max_steps && !live.empty(); ++depth) {
        struct Candidate {
            int parent;
            int token;
            float log_prob;
            double total;
            std::size_t step_index;
            std::size_t order; // position in `candidates`: equal totals keep this order
        };
        std::vector<models::DecoderStep> expanded;
        std::vector<Candidate> candidates;
        apply_what_ifs(what_if_state, what_ifs, depth);
        const attention::StepOptions depth_options = what_if_state.options(options.attention);
        for (int parent : live) {
            const Vec &state = parent < 0 ? encoded.initial_state : result.nodes[parent].step.state;
            int prev_token = parent < 0 ? options.start_id : result.nodes[parent].token;
            double base = parent < 0 ? 0.0 : result.nodes[parent].total_log_prob;
            // location: this beam's last weights, the pinned or masked ones where a what-if set them
            attention::StepOptions step_options = depth_options;
            if (parent >= 0) {
                const Vec &last = result.nodes[parent].step.attention.weights;
                step_options.previous = {last.data(), static_cast<std::size_t>(last.size())};
            }
            if (encoded.transformer)
                expanded.push_back(transformer_expand(model, encoded, result.nodes, parent, prev_token,
                                                      what_if_state.edits(depth_options)));
            else
                expanded.push_back(model.step(encoded, state, prev_token, step_options));
            const Vec &probs = expanded.back().probs;
            for (int token : top_indices(probs, width)) {
                float lp = safe_log(probs[token]);
                candidates.push_back({parent, token, lp, base + lp, expanded.size() - 1, candidates.size()});
            }
        }
        // std::sort with an explicit tie-break rather than stable_sort: the same order, less code.
        std::sort(candidates.begin(), candidates.end(), [](const Candidate &a, const Candidate &b) {
            return a.total > b.total || (a.total == b.total && a.order < b.order);
        });
        std::vector<int> next;
        for (const auto &c : candidates) {
            if (static_cast<int>(next.size()) >= width) break;
            BeamNode node;
            node.id = static_cast<int>(result.nodes.size());
            node.parent = c.parent;
            node.depth = depth;
            node.token = c.token;
            node.log_prob = c.log_prob;
            node.total_log_prob = c.total;
            node.finished = c.token == options.end_id || depth + 1 == max_steps;
            node.intervened = what_if_state.intervened(depth_options);
            node.step = expanded[c.step_index];
            result.nodes.push_back(std::move(node));
            if (result.nodes.back().finished)
                finished.push_back(result.nodes.back().id);
            else
                next.push_back(result.nodes.back().id);
        }
        live = std::move(next);
        what_if_state.unpin(); // a pin is for one step
        // Stop once `width` hypotheses have ended (taken the end token) and no live one scores above
        // the width-th of them. Stopping as soon as `width` had ended, as this once did, left the
        // live ones unfinished and let a cut-off prefix of the best answer outrank every ended one.
        // Normalised scores can still rise by a token or two, so this is a heuristic bound; the
        // step limit is the session's, the same as greedy decoding's.
        std::vector<double> ended;
        for (int id : finished)
            if (result.nodes[id].token == options.end_id) ended.push_back(normalised(result.nodes[id]));
        if (static_cast<int>(ended.size()) >= width) {
            std::nth_element(ended.begin(), ended.begin() + (width - 1), ended.end(), std::greater<>());
            const double kth = ended[static_cast<std::size_t>(width - 1)];
            if (std::none_of(live.begin(), live.end(), [&](int id) { return normalised(result.nodes[id]) > kth; }))
                break;
        }
    }
    // Ended hypotheses first, best first; a hypothesis cut by the step limit only after them.
    // Equal scores: the hypothesis met first wins.
    struct Ranked {
        bool cut;
        double minus_score;
        std::size_t position;
        bool operator<(const Ranked &o) const {
            return cut != o.cut                   ? !cut
                   : minus_score != o.minus_score ? minus_score < o.minus_score
                                                  : position < o.position;
        }
    };
    std::vector<Ranked> ranked;
    for (std::size_t k = 0; k < finished.size(); ++k) {
        const BeamNode &leaf = result.nodes[finished[k]];
        ranked.push_back({leaf.token != options.end_id, -normalised(leaf), k});
    }
    std::sort(ranked.begin(), ranked.end());
    std::vector<int> order;
    for (const auto &r : ranked) order.push_back(finished[r.position]);
    finished = std::move(order);
    if (static_cast<int>(finished.size()) > width) finished.resize(static_cast<std::size_t>(width));
    for (int leaf : finished) {
        std::vector<int> path;
        for (int n = leaf; n >= 0; n = result.nodes[n].parent) path.push_back(n);
        std::reverse(path.begin(), path.end());
        result.beams.push_back(std::move(path));
        result.scores.push_back(normalised(result.nodes[leaf]));
    }
    return result;
}

} // namespace apg::decode
