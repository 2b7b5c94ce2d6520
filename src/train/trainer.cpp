#include "train/trainer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

namespace apg::train {

double exact_match(const models::Seq2Seq &model, const EncodedPairs &pairs, SpecialTokens tokens, std::size_t limit,
                   const std::function<void(std::size_t, const PairOutcome &)> &each) {
    const std::size_t n = limit == 0 ? pairs.size() : std::min(limit, pairs.size());
    if (n == 0) return 0;
    std::size_t hits = 0;
    for (std::size_t k = 0; k < n; ++k) {
        const auto steps = model.greedy(pairs.encode(model, k), tokens.start, tokens.end);
        PairOutcome o;
        for (const auto &s : steps) {
            Eigen::Index best;
            s.probs.maxCoeff(&best);
            if (best == tokens.end) {
                o.ended = true;
                break;
            }
            o.output.push_back(static_cast<int>(best));
        }
        o.hit = o.ended && o.output == pairs.targets[k];
        if (o.hit) ++hits;
        if (each) each(k, o);
    }
    return static_cast<double>(hits) / static_cast<double>(n);
}

Trainer::Trainer(models::Seq2Seq &model, EncodedPairs train, EncodedPairs heldout, SpecialTokens tokens,
                 TrainOptions options)
    : model_(model), train_(std::move(train)), heldout_(std::move(heldout)), tokens_(tokens), options_(options),
      grads_(models::zeros_like(model.parameters(), model.config())),
      grad_refs_(models::tensors(grads_, model.config())), adam_(model.tensors(), AdamOptions{options.learning_rate}),
      rng_(options.seed) {
    if (train_.size() == 0 || train_.size() != train_.targets.size())
        throw std::invalid_argument("trainer: no training pairs");
    if (options_.batch_size <= 0 || options_.steps < 0)
        throw std::invalid_argument("trainer: batch_size must be positive and steps non-negative");
    order_.resize(train_.size());
    for (std::size_t i = 0; i < order_.size(); ++i) order_[i] = i;
    progress_.total_steps = options_.steps;
}

void Trainer::plan_epoch() {
    // Shuffle, then sort each window of 32 batches by source length and cut it into batches, so
    // a batch holds sources of similar length (little padding); finally shuffle the batch order.
    for (std::size_t i = order_.size() - 1; i > 0; --i) std::swap(order_[i], order_[rng_.below(i + 1)]);
    const std::size_t B = static_cast<std::size_t>(options_.batch_size), window = 32 * B;
    batches_.clear();
    for (std::size_t start = 0; start < order_.size(); start += window) {
        const auto first = order_.begin() + static_cast<std::ptrdiff_t>(start);
        const auto last = order_.begin() + static_cast<std::ptrdiff_t>(std::min(start + window, order_.size()));
        std::stable_sort(first, last, [&](std::size_t a, std::size_t b) {
            return train_.source_length(a) < train_.source_length(b);
        });
        for (auto it = first; it < last; it += static_cast<std::ptrdiff_t>(std::min<std::size_t>(B, last - it)))
            batches_.emplace_back(it, it + static_cast<std::ptrdiff_t>(std::min<std::size_t>(B, last - it)));
    }
    for (std::size_t i = batches_.size() - 1; i > 0; --i) std::swap(batches_[i], batches_[rng_.below(i + 1)]);
    cursor_ = 0;
}

models::Batch Trainer::next_batch() {
    if (cursor_ >= batches_.size()) plan_epoch();
    return train_.batch(batches_[cursor_++], model_.config(), tokens_);
}

Progress Trainer::step() {
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    const models::Batch batch = next_batch();
    for (auto &g : grad_refs_) std::fill(g.data.begin(), g.data.end(), 0.0f);
    const models::BatchResult result = model_.forward_backward(batch, &grads_, workspace_);
    progress_.grad_norm = clip_gradient_norm(grad_refs_, options_.clip_norm);
    // cosine decay: lr · (f + (1 − f) · (1 + cos(π · step / steps)) / 2)
    const double f = options_.final_lr_fraction;
    const double phase = options_.steps > 0 ? static_cast<double>(step_) / options_.steps : 0.0;
    const double lr = options_.learning_rate * (f + (1.0 - f) * 0.5 * (1.0 + std::cos(3.141592653589793 * phase)));
    adam_.options().learning_rate = static_cast<float>(lr);
    adam_.step(grad_refs_);
    ++step_;
    seconds_ += std::chrono::duration<double>(clock::now() - t0).count();

    window_loss_ += result.loss * result.tokens;
    window_tokens_ += result.tokens;
    window_correct_ += result.correct;
    progress_.step = step_;
    progress_.sequences += batch.size;
    progress_.loss = result.loss;
    progress_.token_accuracy = result.tokens ? static_cast<double>(result.correct) / result.tokens : 0.0;
    progress_.learning_rate = lr;
    progress_.elapsed_seconds = seconds_;
    progress_.sequences_per_second = seconds_ > 0 ? progress_.sequences / seconds_ : 0.0;
    if (options_.eval_every > 0 && step_ % options_.eval_every == 0) evaluate();
    return progress_;
}

double Trainer::evaluate() {
    if (heldout_.size() == 0) return -1;
    progress_.heldout_exact_match =
        exact_match(model_, heldout_, tokens_, static_cast<std::size_t>(std::max(options_.eval_examples, 0)));
    return progress_.heldout_exact_match;
}

Progress Trainer::run(const std::function<bool(const Progress &)> &report, int report_every) {
    if (report_every <= 0) report_every = 1;
    while (!done()) {
        step();
        const bool last = step_ >= options_.steps;
        if (step_ % report_every == 0 || last) {
            Progress p = progress_;
            p.loss = window_tokens_ > 0 ? window_loss_ / window_tokens_ : 0.0;
            p.token_accuracy = window_tokens_ > 0 ? window_correct_ / window_tokens_ : 0.0;
            window_loss_ = window_tokens_ = window_correct_ = 0;
            if (report && !report(p)) cancel();
        }
    }
    return progress_;
}

} // namespace apg::train
