#include "models/session.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace apg::models {

std::string_view name(Choice choice) {
    switch (choice) {
    case Choice::greedy:
        return "greedy";
    case Choice::forced:
        return "forced";
    case Choice::beam:
        return "beam";
    }
    return "greedy";
}

namespace {

// Indices of the k largest probabilities, most probable first (ties: lower id first).
std::vector<int> top_indices(const Vec &probs, int k) {
    std::vector<int> ids(static_cast<std::size_t>(probs.size()));
    std::iota(ids.begin(), ids.end(), 0);
    k = std::min<int>(k, static_cast<int>(ids.size()));
    std::partial_sort(ids.begin(), ids.begin() + k, ids.end(),
                      [&](int a, int b) { return probs[a] > probs[b] || (probs[a] == probs[b] && a < b); });
    ids.resize(static_cast<std::size_t>(k));
    return ids;
}

float safe_log(float p) { return std::log(std::max(p, 1e-30f)); }

} // namespace

DecodeSession::DecodeSession(const Seq2Seq &model, std::vector<int> source_ids, SessionOptions options)
    : model_(&model), options_(options),
      max_steps_(options.max_steps > 0 ? options.max_steps : model.config().max_target_len + 1),
      encoded_(model.encode(source_ids)) {
    if (options_.top_k < 1) throw std::invalid_argument("session: top_k must be at least 1");
    steps_.reserve(static_cast<std::size_t>(max_steps_));
}

bool DecodeSession::done() const {
    return static_cast<int>(steps_.size()) >= max_steps_ || (!steps_.empty() && steps_.back().token == options_.end_id);
}

const SessionStep &DecodeSession::take(Choice choice, int token, DecoderStep &&step) {
    SessionStep s;
    s.step = std::move(step);
    s.token = token;
    s.choice = choice;
    s.log_prob = safe_log(s.step.probs[token]);
    s.total_log_prob = (steps_.empty() ? 0.0 : steps_.back().total_log_prob) + s.log_prob;
    s.top_ids = top_indices(s.step.probs, options_.top_k);
    for (int id : s.top_ids) s.top_probs.push_back(s.step.probs[id]);
    s.softmax = attention::softmax_terms(s.step.attention.score.scores, options_.attention);
    steps_.push_back(std::move(s));
    return steps_.back();
}

const SessionStep &DecodeSession::step() {
    if (done()) throw std::logic_error("session: decoding is finished (end token or length limit reached)");
    const Vec &prev_state = steps_.empty() ? encoded_.initial_state : steps_.back().step.state;
    int prev_token = steps_.empty() ? options_.start_id : steps_.back().token;
    DecoderStep s = model_->step(encoded_, prev_state, prev_token, options_.attention);
    Eigen::Index best;
    s.probs.maxCoeff(&best);
    return take(Choice::greedy, static_cast<int>(best), std::move(s));
}

const SessionStep &DecodeSession::force(int token) {
    const int vocab = model_->config().target_vocab;
    if (token < 0 || token >= vocab)
        throw std::invalid_argument("session: token id " + std::to_string(token) +
                                    " is outside the target vocabulary (0.." + std::to_string(vocab - 1) + ")");
    if (done()) throw std::logic_error("session: decoding is finished (end token or length limit reached)");
    const Vec &prev_state = steps_.empty() ? encoded_.initial_state : steps_.back().step.state;
    int prev_token = steps_.empty() ? options_.start_id : steps_.back().token;
    DecoderStep s = model_->step(encoded_, prev_state, prev_token, options_.attention);
    return take(Choice::forced, token, std::move(s));
}

bool DecodeSession::back() {
    if (steps_.empty()) return false;
    steps_.pop_back();
    return true;
}

void DecodeSession::reset() { steps_.clear(); }

int DecodeSession::run() {
    int taken = 0;
    while (!done()) {
        step();
        ++taken;
    }
    return taken;
}

std::vector<int> DecodeSession::output_ids() const {
    std::vector<int> ids;
    for (const auto &s : steps_)
        if (s.token != options_.end_id) ids.push_back(s.token);
    return ids;
}

BeamResult beam_search(const Seq2Seq &model, const EncoderOutput &encoded, int width, const SessionOptions &options) {
    if (width < 1) throw std::invalid_argument("beam: width must be at least 1, got " + std::to_string(width));
    const int max_steps = options.max_steps > 0 ? options.max_steps : model.config().max_target_len + 1;
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
        };
        std::vector<DecoderStep> expanded;
        std::vector<Candidate> candidates;
        for (int parent : live) {
            const Vec &state = parent < 0 ? encoded.initial_state : result.nodes[parent].step.state;
            int prev_token = parent < 0 ? options.start_id : result.nodes[parent].token;
            double base = parent < 0 ? 0.0 : result.nodes[parent].total_log_prob;
            expanded.push_back(model.step(encoded, state, prev_token, options.attention));
            const Vec &probs = expanded.back().probs;
            for (int token : top_indices(probs, width)) {
                float lp = safe_log(probs[token]);
                candidates.push_back({parent, token, lp, base + lp, expanded.size() - 1});
            }
        }
        std::stable_sort(candidates.begin(), candidates.end(),
                         [](const Candidate &a, const Candidate &b) { return a.total > b.total; });
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
    std::stable_sort(finished.begin(), finished.end(),
                     [&](int a, int b) { return normalised(result.nodes[a]) > normalised(result.nodes[b]); });
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

trace::StepRecord to_record(const DecoderStep &step, int index) {
    trace::StepRecord r;
    r.kind = "decoder";
    r.index = index;
    r.set("prev_state", trace::to_tensor(step.prev_state));
    r.set("query", trace::to_tensor(step.query));
    r.set("scores", trace::to_tensor(step.attention.score.scores));
    if (step.attention.score.hidden.size() > 0) r.set("hidden", trace::to_tensor(step.attention.score.hidden));
    r.set("weights", trace::to_tensor(step.attention.weights));
    r.set("context", trace::to_tensor(step.attention.context));
    r.set("state", trace::to_tensor(step.state));
    if (step.attentional.size() > 0) r.set("attentional", trace::to_tensor(step.attentional));
    r.set("logits", trace::to_tensor(step.logits));
    r.set("probs", trace::to_tensor(step.probs));
    r.fields["prev_token_id"] = step.prev_token;
    return r;
}

trace::StepRecord to_record(const SessionStep &step, int index) {
    trace::StepRecord r = to_record(step.step, index);
    r.fields["token_id"] = step.token;
    r.fields["choice"] = std::string(name(step.choice));
    r.fields["log_prob"] = step.log_prob;
    r.fields["top_ids"] = step.top_ids;
    r.fields["top_probs"] = step.top_probs;
    r.set("exps", trace::to_tensor(step.softmax.exps));
    r.fields["max_score"] = step.softmax.max_score;
    r.fields["exp_sum"] = step.softmax.exp_sum;
    r.fields["entropy"] = step.softmax.entropy;
    r.fields["max_entropy"] = step.softmax.max_entropy;
    return r;
}

} // namespace apg::models
