// The training loop: shuffled mini-batches, teacher-forced cross-entropy, gradient clipping,
// Adam with a cosine learning-rate decay. No threads and no files: the CLI drives it natively,
// and a browser Worker can drive the same code one step() at a time.
#pragma once

#include "models/seq2seq.hpp"
#include "train/optim.hpp"

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace apg::train {

// Ids of the special tokens (the vocabulary's pad, start and end).
struct SpecialTokens {
    int pad = 0, start = 1, end = 2;
};

// Token ids without start / end tokens, pair k = (sources[k], targets[k]).
// An image task has images (S·S·3 RGB bytes each) instead of sources, a speech task frames
// (n·F values each, frame after frame). What the trainer asks of a pair's source, whichever it
// holds, is answered here (encoded_pairs.cpp), so the trainer itself never asks which.
struct EncodedPairs {
    std::vector<std::vector<int>> sources, targets;
    std::vector<std::vector<std::uint8_t>> images;
    std::vector<std::vector<float>> frames;
    std::size_t size() const {
        return !frames.empty() ? frames.size() : images.empty() ? sources.size() : images.size();
    }
    // Source k's length, by which the trainer groups similar ones into a batch (0 for images: all
    // alike); source k through the model's encoder; the batch of these pairs.
    std::size_t source_length(std::size_t k) const;
    models::EncoderOutput encode(const models::Seq2Seq &model, std::size_t k) const;
    models::Batch batch(std::span<const std::size_t> indices, const models::ModelConfig &config,
                        SpecialTokens tokens) const;
};

struct TrainOptions {
    int steps = 2000; // mini-batches
    int batch_size = 32;
    float learning_rate = 3e-3f;    // Adam
    float final_lr_fraction = 0.1f; // cosine decay from lr to lr · this over the run
    float clip_norm = 5.0f;         // global gradient norm; <= 0 disables
    std::uint64_t seed = 1;         // batch order (the model's init seed is separate)
    int eval_every = 0;             // held-out exact match every this many steps (0 = only when asked)
    int eval_examples = 200;        // how many held-out pairs that check decodes
};

struct Progress {
    int step = 0, total_steps = 0;
    long long sequences = 0;   // seen so far
    double loss = 0;           // mean token cross-entropy since the previous report
    double token_accuracy = 0; // teacher-forced argmax accuracy since the previous report
    double grad_norm = 0;      // before clipping, last step
    double learning_rate = 0;
    double sequences_per_second = 0; // over the whole run so far
    double elapsed_seconds = 0;
    double heldout_exact_match = -1; // last evaluation, −1 if none yet
};

// One pair's greedy decode: the ids before the end token, whether the end token came (a decode cut
// at the length limit never matches), and whether it equals the target exactly.
struct PairOutcome {
    std::vector<int> output;
    bool ended = false, hit = false;
};

// Fraction of pairs (the first `limit`, all if 0) whose greedy output equals the target exactly.
// `each`, when given, sees every pair's outcome in order (pair index, outcome): what a run shows
// of its held-out predictions comes from this one decode instead of a second.
double exact_match(const models::Seq2Seq &model, const EncodedPairs &pairs, SpecialTokens tokens, std::size_t limit = 0,
                   const std::function<void(std::size_t, const PairOutcome &)> &each = {});

class Trainer {
  public:
    // heldout may be empty (then no evaluation). The model must outlive the trainer.
    Trainer(models::Seq2Seq &model, EncodedPairs train, EncodedPairs heldout, SpecialTokens tokens,
            TrainOptions options);

    // One mini-batch; returns the progress after it (loss and accuracy of that batch).
    Progress step();
    bool done() const { return step_ >= options_.steps || cancelled_; }
    void cancel() { cancelled_ = true; }
    bool cancelled() const { return cancelled_; }
    // Steps until done; calls report every report_every steps and at the end. report returning
    // false cancels the run (the model keeps the parameters of the last finished step).
    Progress run(const std::function<bool(const Progress &)> &report, int report_every = 20);
    // Evaluates held-out exact match now (eval_examples pairs) and records it in the progress.
    double evaluate();
    const Progress &progress() const { return progress_; }

  private:
    void plan_epoch();
    models::Batch next_batch();

    models::Seq2Seq &model_;
    EncodedPairs train_, heldout_;
    SpecialTokens tokens_;
    TrainOptions options_;
    models::Parameters grads_;
    std::vector<models::TensorRef> grad_refs_;
    Adam adam_;
    models::TrainingWorkspace workspace_;
    core::Rng rng_;
    std::vector<std::size_t> order_;
    std::vector<std::vector<std::size_t>> batches_; // this epoch's batches of pair indices
    std::size_t cursor_ = 0;
    int step_ = 0;
    bool cancelled_ = false;
    double seconds_ = 0;
    double window_loss_ = 0, window_tokens_ = 0, window_correct_ = 0;
    Progress progress_;
};

} // namespace apg::train
