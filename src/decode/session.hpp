// A decoding session: one source sentence, decoded one step at a time under the user's control.
// step() takes the most probable token, force(t) takes another one (a what-if: later steps
// follow from it), back() undoes a step, reset() starts over. Every step keeps its whole
// DecoderStep, so the page can show every intermediate.
#pragma once

#include "attention/softmax_terms.hpp"
#include "models/seq2seq.hpp"
#include "trace/trace.hpp"

#include <string>
#include <vector>

namespace apg::decode {

enum class Choice { greedy, forced, beam };
std::string_view name(Choice choice); // "greedy", "forced", "beam"

struct SessionStep {
    models::DecoderStep step;
    int token = 0; // the token taken at this step
    Choice choice = Choice::greedy;
    float log_prob = 0;        // log p(token)
    double total_log_prob = 0; // Σ log p over the steps so far
    std::vector<int> top_ids;  // the top-k tokens of this step, most probable first
    std::vector<float> top_probs;
    attention::SoftmaxTerms softmax; // stage 2 term by term: exps, their sum, the entropy
};

struct SessionOptions {
    int start_id = 1, end_id = 2;
    int top_k = 5;     // at least 1 (more than the vocabulary gives all of it)
    int max_steps = 0; // 0: the model's max_target_len + 1 (room for the end token); at most limits::max_decode_steps
    attention::StepOptions attention; // temperature within [limits::min_temperature, limits::max_temperature]
};

// The number of steps a decoding of `model` with `options` may take, after checking the options
// every decoding shares: max_steps, start and end ids, and a temperature where the softmax stays
// finite. Throws InputError(bad_argument) with details "name" (and "limit"), or
// InputError(limit_exceeded) when steps × beams × target tokens passes limits::max_decode_floats;
// `who` starts the message.
int checked_max_steps(const models::Seq2Seq &model, const SessionOptions &options, const char *who, int beams = 1);

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

    bool done() const;
    int max_steps() const { return max_steps_; }
    const std::vector<SessionStep> &steps() const { return steps_; }
    const models::EncoderOutput &encoded() const { return encoded_; }
    const models::Seq2Seq &model() const { return *model_; }
    std::vector<int> output_ids() const; // the tokens taken, without the end token

  private:
    const SessionStep &take(Choice choice, int token, models::DecoderStep &&step);
    const models::Seq2Seq *model_;
    SessionOptions options_;
    int max_steps_;
    models::EncoderOutput encoded_;
    std::vector<SessionStep> steps_;
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
    bool finished = false; // token is the end token, or the length limit was reached
    models::DecoderStep step;
};
struct BeamResult {
    std::vector<BeamNode> nodes;         // every node that was kept in some beam, by id
    std::vector<std::vector<int>> beams; // final hypotheses (node id paths from the root), best first
    std::vector<double> scores;          // their scores (length-normalised total log prob)
};
// Throws InputError(bad_argument) for a width outside 1..limits::max_beam_width and for options
// checked_max_steps refuses.
BeamResult beam_search(const models::Seq2Seq &model, const models::EncoderOutput &encoded, int width,
                       const SessionOptions &options = {});

// The trace record of one step, with the buffers and fields listed in record_schema.hpp (the
// token names need the vocabulary: record::to_record).
trace::StepRecord to_record(const SessionStep &step, int index);

} // namespace apg::decode
