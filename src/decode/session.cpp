#include "decode/session.hpp"

#include "decode/budget.hpp"
#include "decode/ranking.hpp"

#include "core/error.hpp"
#include "core/limits.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace apg::decode {

DecodeSession::DecodeSession(const models::Seq2Seq &model, std::vector<int> source_ids, SessionOptions options)
    : model_(&model), options_(options),
      max_steps_(checked_session_steps(model, options, static_cast<std::int64_t>(source_ids.size()))),
      encoded_(model.encode(source_ids)),
      what_ifs_(static_cast<int>(encoded_.states.rows()), options.attention.temperature, "session") {
    // More than the vocabulary is all of it (top_indices stops there).
    if (options_.top_k < 1)
        bad_option("top_k", "session: top_k must be at least 1, got " + std::to_string(options_.top_k));
    steps_.reserve(static_cast<std::size_t>(max_steps_));
    if (encoded_.transformer) what_ifs_.set_heads(model.config().layers, model.config().heads);
}

DecodeSession::DecodeSession(const models::Seq2Seq &model, models::EncoderOutput encoded, SessionOptions options)
    : model_(&model), options_(options), max_steps_(checked_session_steps(model, options, encoded.states.rows())),
      encoded_(std::move(encoded)),
      what_ifs_(static_cast<int>(encoded_.states.rows()), options.attention.temperature, "session") {
    // More than the vocabulary is all of it (top_indices stops there).
    if (options_.top_k < 1)
        bad_option("top_k", "session: top_k must be at least 1, got " + std::to_string(options_.top_k));
    steps_.reserve(static_cast<std::size_t>(max_steps_));
    if (encoded_.transformer) what_ifs_.set_heads(model.config().layers, model.config().heads);
}

bool DecodeSession::done() const {
    return static_cast<int>(steps_.size()) >= max_steps_ || (!steps_.empty() && steps_.back().token == options_.end_id);
}

models::DecoderStep DecodeSession::next_step(attention::StepOptions &used) const {
    used = what_ifs_.options(options_.attention);
    if (encoded_.transformer) return transformer_next_step(used);
    const Vec &prev_state = steps_.empty() ? encoded_.initial_state : steps_.back().step.state;
    int prev_token = steps_.empty() ? options_.start_id : steps_.back().token;
    // location reads the weights the last step used: a pinned or masked step's are what it sees.
    if (!steps_.empty()) {
        const Vec &last = steps_.back().step.attention.weights;
        used.previous = {last.data(), static_cast<std::size_t>(last.size())};
    }
    return model_->step(encoded_, prev_state, prev_token, used);
}

const SessionStep &DecodeSession::take(Choice choice, int token, models::DecoderStep &&step,
                                       const attention::StepOptions &used) {
    SessionStep s;
    s.step = std::move(step);
    s.token = token;
    s.choice = choice;
    s.log_prob = safe_log(s.step.probs[token]);
    s.total_log_prob = (steps_.empty() ? 0.0 : steps_.back().total_log_prob) + s.log_prob;
    s.top_ids = top_indices(s.step.probs, options_.top_k);
    for (int id : s.top_ids) s.top_probs.push_back(s.step.probs[id]);
    // Without attention (or scores: a transformer decoder's alignment averages its heads) there is
    // nothing to spell out: the terms stay empty and 0.
    if (s.step.attention.score.scores.size() > 0) {
        attention::StepOptions softmax_options = used;
        softmax_options.weights = {};
        s.softmax = attention::softmax_terms(s.step.attention.score.scores, softmax_options);
    }
    what_ifs_.note(s, used);
    if (s.step.transformer) cache_.append(*s.step.transformer);
    steps_.push_back(std::move(s));
    what_ifs_.unpin(); // a pin is for one step
    return steps_.back();
}

const SessionStep &DecodeSession::step() {
    if (done())
        throw StateError(ErrorCode::bad_state, "session: decoding is finished (end token or length limit reached)");
    attention::StepOptions used;
    models::DecoderStep s = next_step(used);
    Eigen::Index best;
    s.probs.maxCoeff(&best);
    return take(Choice::greedy, static_cast<int>(best), std::move(s), used);
}

const SessionStep &DecodeSession::force(int token) {
    const int vocab = model_->config().target_vocab;
    if (token < 0 || token >= vocab)
        bad_option("token",
                   "session: token id " + std::to_string(token) + " is outside the target vocabulary (0.." +
                       std::to_string(vocab - 1) + ")",
                   vocab - 1);
    if (done())
        throw StateError(ErrorCode::bad_state, "session: decoding is finished (end token or length limit reached)");
    attention::StepOptions used;
    models::DecoderStep s = next_step(used);
    return take(Choice::forced, token, std::move(s), used);
}

bool DecodeSession::back() {
    if (steps_.empty()) return false;
    steps_.pop_back();
    cache_.truncate(static_cast<int>(steps_.size()));
    return true;
}

void DecodeSession::reset() {
    steps_.clear();
    cache_.clear();
    what_ifs_.reset(options_.attention.temperature);
}

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

Confidence DecodeSession::confidence() const {
    Confidence c;
    c.steps = static_cast<int>(steps_.size());
    if (steps_.empty()) return c;
    double sum = 0, product = 1;
    c.min_prob = 2;
    for (int i = 0; i < c.steps; ++i) {
        const auto &s = steps_[static_cast<std::size_t>(i)];
        const double p = s.step.probs[s.token];
        sum += p;
        product *= p;
        if (p < c.min_prob) {
            c.min_prob = p;
            c.min_step = i;
        }
    }
    c.mean_prob = sum / c.steps;
    c.sequence_prob = product;
    c.low = c.min_prob < low_confidence;
    return c;
}

} // namespace apg::decode
