// Beam search over a trained model (declared in session.hpp). It runs once per request of the
// beam view, so the wasm build compiles this file for size; the decoder step it calls stays fast.
#include "decode/ranking.hpp"
#include "decode/session.hpp"

#include "core/error.hpp"
#include "core/limits.hpp"

#include <algorithm>
#include <stdexcept>

namespace apg::decode {

BeamResult beam_search(const models::Seq2Seq &model, const models::EncoderOutput &encoded, int width,
                       const SessionOptions &options) {
    if (width < 1 || width > limits::max_beam_width)
        throw InputError(ErrorCode::bad_argument,
                         "beam: width must be from 1 to " + std::to_string(limits::max_beam_width) + ", got " +
                             std::to_string(width),
                         {{"name", std::string("width")}, {"limit", std::int64_t{limits::max_beam_width}}});
    const int max_steps = checked_max_steps(model, options, "beam");
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
        for (int parent : live) {
            const Vec &state = parent < 0 ? encoded.initial_state : result.nodes[parent].step.state;
            int prev_token = parent < 0 ? options.start_id : result.nodes[parent].token;
            double base = parent < 0 ? 0.0 : result.nodes[parent].total_log_prob;
            expanded.push_back(model.step(encoded, state, prev_token, options.attention));
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
            node.step = expanded[c.step_index];
            result.nodes.push_back(std::move(node));
            if (result.nodes.back().finished)
                finished.push_back(result.nodes.back().id);
            else
                next.push_back(result.nodes.back().id);
        }
        live = std::move(next);
        // Stop once `width` hypotheses have finished: the kept set is full.
        if (static_cast<int>(finished.size()) >= width) break;
    }
    finished.insert(finished.end(), live.begin(), live.end());
    // Equal scores: the hypothesis met first (finished ones before live ones) wins.
    std::vector<std::pair<double, std::size_t>> ranked; // (−score, position in `finished`)
    for (std::size_t k = 0; k < finished.size(); ++k) ranked.emplace_back(-normalised(result.nodes[finished[k]]), k);
    std::sort(ranked.begin(), ranked.end());
    std::vector<int> order;
    for (const auto &r : ranked) order.push_back(finished[r.second]);
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
