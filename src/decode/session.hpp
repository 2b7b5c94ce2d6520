// A decoding session: one source sentence, decoded one step at a time under the user's control.
// step() takes the most probable token, force(t) takes another one (a what-if: later steps
// follow from it), back() undoes a step, reset() starts over. Every step keeps its whole
// DecoderStep, so the page can show every intermediate.
#pragma once

#include "attention/softmax_terms.hpp"
#include "models/seq2seq.hpp"
#include "trace/trace.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace apg::decode {

// How a step's token was taken: the model's most probable, or forced by the person (a beam
// search keeps its own tree, BeamNode, not session steps).
enum class Choice { greedy, forced };

// How a step's attention weights were set against the model's own: none, one-hot on a source
// token, or weights given by the person (renormalised).
enum class Pin { none, token, weights };

struct SessionStep {
    models::DecoderStep step;
    int token = 0; // the token taken at this step
    Choice choice = Choice::greedy;
    float log_prob = 0;        // log p(token)
    double total_log_prob = 0; // Σ log p over the steps so far
    std::vector<int> top_ids;  // the top-k tokens of this step, most probable first
    std::vector<float> top_probs;
    attention::SoftmaxTerms softmax; // stage 2 term by term: exps, their sum, the entropy
    // The what-ifs in force at this step. With a pin, the weights are the pinned ones and the
    // softmax terms still say what the model (masked, tempered) would have given.
    Vec masked;              // n: 1 at a masked source token, 0 elsewhere; empty when none is masked
    Pin pin = Pin::none;     //
    int pinned_token = -1;   // Pin::token: the source token the weights are one-hot on
    float temperature = 1;   // τ of this step's softmax
    bool intervened = false; // a token masked, the weights pinned or τ ≠ 1
};

// How sure the model was of the tokens taken, end token included: p(token) at each step (a
// forced token's too: the what-if's probability under the model).
struct Confidence {
    int steps = 0;
    double mean_prob = 0;     // Σ p(token) / steps
    double min_prob = 0;      // the lowest p(token)
    int min_step = -1;        // the step of the lowest, from 0; -1 before the first step
    double sequence_prob = 0; // Π p(token): the probability of the whole output
    bool low = false;         // min_prob < low_confidence
};
// Below one half, the model gave the other tokens together more probability than the one taken:
// at that step the output is more likely wrong than right, even though a seq2seq model always
// answers something (it has no "I cannot read this" token).
inline constexpr double low_confidence = 0.5;

struct SessionOptions {
    int start_id = 1, end_id = 2;
    int top_k = 5;     // at least 1 (more than the vocabulary gives all of it)
    int max_steps = 0; // 0: the model's max_target_len + 1 (room for the end token); at most limits::max_decode_steps
    attention::StepOptions attention; // temperature within [limits::min_temperature, limits::max_temperature]
    // Transformer decoder only. kv_cache: each step reuses the earlier positions' self-attention keys
    // and values; without it, every step recomputes them (each earlier position with the token and
    // what-ifs it had), as a decoder without a cache must. keep_qkv: the steps keep every head's
    // queries, keys and values for the record.
    bool kv_cache = true;
    bool keep_qkv = false;
};

// The number of steps a decoding of `model` with `options` may take, after checking the options
// every decoding shares: max_steps, start and end ids, and a temperature where the softmax stays
// finite. Throws InputError(bad_argument) with details "name" (and "limit"), or
// InputError(limit_exceeded) when steps × beams × target tokens passes limits::max_decode_floats;
// `who` starts the message.
int checked_max_steps(const models::Seq2Seq &model, const SessionOptions &options, const char *who, int beams = 1);

// The what-ifs in force for the next step of a decoding over n source tokens: which tokens are
// masked and τ (both hold until changed), and a pin (for one step: the decoding unpins after it).
// A session keeps one, and beam search keeps one moved along the output steps, so a what-if is
// checked and applied by the same code in both. `who` starts the messages of the errors.
class WhatIfState {
  public:
    WhatIfState(int source_length, float temperature, const char *who);
    // Each throws InputError(bad_argument) with details "name" (and "limit"): a source index
    // outside 0..n-1, masking the last unmasked token, given weights that are not n finite values
    // ≥ 0 with a positive sum, a temperature outside [min_temperature, max_temperature].
    void mask(int source_index, bool masked = true);
    void pin(int source_index);               // one-hot on the token
    void pin(std::span<const float> weights); // n weights, divided by their sum
    void unpin();
    void set_temperature(float temperature);
    void reset(float temperature); // nothing masked or pinned, τ = temperature

    // The Transformer decoder's what-ifs on one cross-attention head (layer and head from 0; their
    // code is in head_whatif.cpp). set_heads once, for a model of that decoder. A head's mask and
    // switching it off hold for every later step, its pin for the next step. Each throws
    // InputError(bad_argument) as the ones above, and naming "layer" or "head" out of range, or
    // "mask" when a head would be left with no token to attend to.
    void set_heads(int layers, int heads);
    void mask_head(int layer, int head, int source_index, bool masked = true);
    void pin_head(int layer, int head, int source_index);
    void pin_head(int layer, int head, std::span<const float> weights); // n weights, divided by their sum
    void switch_head(int layer, int head, bool on);
    // These what-ifs (and `used`'s mask, pin and τ) as the Transformer decoder's step takes them.
    models::TransformerEdits edits(const attention::StepOptions &used) const;

    // `base` with the mask, the pin and τ of these what-ifs (its `previous` left as it is).
    attention::StepOptions options(const attention::StepOptions &base) const;
    bool intervened(const attention::StepOptions &used) const; // a token masked, a pin or τ ≠ 1
    void note(SessionStep &step, const attention::StepOptions &used) const;

    const std::vector<std::uint8_t> &attend_mask() const { return mask_; } // n bytes, 1 = attend
    const Vec &pinned() const { return pin_; }                             // empty when no pin is set
    float temperature() const { return temperature_; }

  private:
    int check_source_index(int source_index) const;
    Vec normalized(std::span<const float> weights) const; // n finite weights ≥ 0 over their sum, or throws
    std::size_t check_head(int layer, int head) const;    // layer · heads + head
    bool any_head_what_if() const;
    // Throws unless every head keeps a token to attend to when `source_index` is hidden from all.
    void check_heads_keep_a_token(int source_index) const;
    const char *who_;
    std::vector<std::uint8_t> mask_; // n, 1 = attend
    int masked_count_ = 0;
    Vec pin_; // n weights summing to 1, or empty
    Pin pin_kind_ = Pin::none;
    int pinned_token_ = -1;
    float temperature_ = 1.0f;
    // Transformer decoder: L × h heads; per head (index layer · h + head) its own mask (n bytes,
    // 1 = attend; empty = none), its pin (n weights; empty = none) and whether it is switched off.
    int layers_ = 0, heads_ = 0;
    std::vector<std::vector<std::uint8_t>> head_masks_;
    std::vector<Vec> head_pins_;
    std::vector<std::uint8_t> head_off_;
};

// A what-if for output step `step` (from 0), as the page's link writes one: mask or unmask a
// source token from that step on, pin that step's weights (one-hot on `token`, or `weights`
// divided by their sum), or τ from that step on.
// The head_ kinds are the Transformer decoder's, on the cross-attention head (layer, head).
struct ScheduledWhatIf {
    enum class Kind {
        mask,
        unmask,
        pin,
        pin_weights,
        temperature,
        head_mask,
        head_unmask,
        head_pin,
        head_pin_weights,
        head_off,
        head_on
    };
    Kind kind = Kind::mask;
    int step = 0;
    int token = -1;             // mask, unmask, pin (and their head_ kinds)
    std::vector<float> weights; // pin_weights, head_pin_weights
    float temperature = 1;      // temperature
    int layer = 0, head = 0;    // the head_ kinds
};

class DecodeSession {
  public:
    // Encodes the source once. Throws std::invalid_argument for an empty or over-long source or
    // an id outside the vocabulary (see Seq2Seq::encode), InputError(bad_argument) for options
    // out of range (checked_max_steps; top_k). The model must outlive the session.
    DecodeSession(const models::Seq2Seq &model, std::vector<int> source_ids, SessionOptions options = {});
    // A source encoded already (an image through the conv encoder: Seq2Seq::encode_image).
    DecodeSession(const models::Seq2Seq &model, models::EncoderOutput encoded, SessionOptions options = {});

    // Throws StateError(bad_state) once the session is done (end token taken or max_steps reached).
    const SessionStep &step();
    // Throws std::invalid_argument naming the id and the vocabulary size when token is out of range.
    const SessionStep &force(int token);
    // Undoes the last step; returns false when there was none.
    bool back();
    void reset();
    // Steps greedily until done; returns the number of steps taken.
    int run();

    // What-ifs on the model. A mask and a temperature hold for every later step (the rest of the
    // decode), a pin for the next step only; the steps taken stay as they were. reset() clears
    // them all. Each throws InputError(bad_argument) as WhatIfState's do.
    void mask(int source_index, bool masked = true) { what_ifs_.mask(source_index, masked); }
    void pin(int source_index) { what_ifs_.pin(source_index); }          // one-hot on the token
    void pin(std::span<const float> weights) { what_ifs_.pin(weights); } // n weights, divided by their sum
    void unpin() { what_ifs_.unpin(); }
    void set_temperature(float temperature) { what_ifs_.set_temperature(temperature); }
    // The Transformer decoder's what-ifs on one head (WhatIfState's; a GRU decoder has no heads).
    void mask_head(int layer, int head, int source_index, bool masked = true) {
        what_ifs_.mask_head(layer, head, source_index, masked);
    }
    void pin_head(int layer, int head, int source_index) { what_ifs_.pin_head(layer, head, source_index); }
    void pin_head(int layer, int head, std::span<const float> weights) { what_ifs_.pin_head(layer, head, weights); }
    void switch_head(int layer, int head, bool on) { what_ifs_.switch_head(layer, head, on); }
    const std::vector<std::uint8_t> &attend_mask() const { return what_ifs_.attend_mask(); } // n bytes, 1 = attend
    const Vec &pinned() const { return what_ifs_.pinned(); }                                 // empty when no pin is set
    float temperature() const { return what_ifs_.temperature(); }

    bool done() const;
    int max_steps() const { return max_steps_; }
    const std::vector<SessionStep> &steps() const { return steps_; }
    const models::EncoderOutput &encoded() const { return encoded_; }
    const models::Seq2Seq &model() const { return *model_; }
    std::vector<int> output_ids() const; // the tokens taken, without the end token
    Confidence confidence() const;       // over the steps taken so far

  private:
    models::DecoderStep next_step(attention::StepOptions &used) const;
    models::DecoderStep transformer_next_step(const attention::StepOptions &used) const; // session_transformer.cpp
    const SessionStep &take(Choice choice, int token, models::DecoderStep &&step, const attention::StepOptions &used);
    const models::Seq2Seq *model_;
    SessionOptions options_;
    int max_steps_;
    models::EncoderOutput encoded_;
    std::vector<SessionStep> steps_;
    WhatIfState what_ifs_;
    models::KeyValueCache cache_; // Transformer decoder: the keys and values of steps_' positions
};

// Beam search: k hypotheses kept by total log probability (optionally length-normalised).
// Every expanded node is kept, so the page can draw the tree and show each beam's attention.
struct BeamNode {
    int id = 0;
    int parent = -1; // node id, -1 for a first step
    int depth = 0;   // step index
    int token = 0;
    float log_prob = 0;
    double total_log_prob = 0;
    bool finished = false;   // token is the end token, or the length limit was reached
    bool intervened = false; // a what-if changed this step's attention (masked, pinned, τ ≠ 1)
    models::DecoderStep step;
};
struct BeamResult {
    std::vector<BeamNode> nodes;         // every node that was kept in some beam, by id
    std::vector<std::vector<int>> beams; // final hypotheses (node id paths from the root), best first
    std::vector<double> scores;          // their scores (length-normalised total log prob)
};
// With what-ifs, every hypothesis at output step i gets step i's (those of step i in the order
// given, as a session given them before its step i): the masks and τ from then on, the pin for that
// step. The whole list is checked before the search, so a bad what-if is refused even at a step no
// beam reaches (one past the step limit is never applied).
// Throws InputError(bad_argument) for a width outside 1..limits::max_beam_width, for options
// checked_max_steps refuses, for a what-if at a negative step and for one WhatIfState refuses;
// InputError(limit_exceeded) for more than limits::max_what_ifs what-ifs.
BeamResult beam_search(const models::Seq2Seq &model, const models::EncoderOutput &encoded, int width,
                       const SessionOptions &options = {}, std::span<const ScheduledWhatIf> what_ifs = {});

// The trace record of one step, with the buffers and fields listed in record_schema.hpp (the
// token names need the vocabulary: record::to_record).
trace::StepRecord to_record(const SessionStep &step, int index);

} // namespace apg::decode
